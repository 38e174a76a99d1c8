"""What a local worker process does first and last (a Dask preload): leave Ctrl-C to `dekal`,
and end at once when its cluster closes it.

A Ctrl-C in the terminal reaches every process of the foreground group, the local cluster's
workers included. `dekal` itself answers it: it closes the cluster (and so the workers) and
prints one line. A worker must not answer too: the `dekal` script it was spawned from would
print the line again and exit at once. Dask imports this module in each worker it starts
for dekal.simulation.runner and calls `dask_setup` in the worker's main thread.

A local cluster is closed when its run ends, however it ends: its results are in by then,
or nobody waits for them any more (a Ctrl-C, a task's error). A chunk still running on a
worker cannot be interrupted (its thread runs Python or numba to the chunk's end), and
Dask's nanny waits seconds for the worker to finish it before killing the process; so the
worker's teardown ends the process itself, at once. An engine a dropped chunk started is
ended by its guard (dekal.simulation._reaper), which sees its worker die.
"""

from __future__ import annotations

import os
import signal


def dask_setup(worker: object) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def dask_teardown(worker: object) -> None:
    """Called as the worker closes: whatever chunk still runs here is dropped."""
    os._exit(0)
