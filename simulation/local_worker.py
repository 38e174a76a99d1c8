"""What a local worker process does first (a Dask preload): leave Ctrl-C to `dekal`.

A Ctrl-C in the terminal reaches every process of the foreground group, the local cluster's
workers included. `dekal` itself answers it: it closes the cluster (and so the workers) and
prints one line. A worker must not answer too: the `dekal` script it was spawned from would
print the line again and exit at once. Dask imports this module in each worker it starts
for dekal.simulation.runner and calls `dask_setup` in the worker's main thread.
"""

from __future__ import annotations

import signal


def dask_setup(worker: object) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
