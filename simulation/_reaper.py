"""A process group that ends when the process guarding it dies, however it dies.

A worker of a Dask cluster can be terminated while a chunk of work runs (its cluster closing
on a Ctrl-C): the chunk's `finally` never comes, and a process the chunk started in a
session of its own (an engine under test: its own session, so that a Ctrl-C in the terminal
reaches `dekal` and not the engine) would be left running. `guarded(group)` starts a small
watcher, in a session of its own too, reading a pipe whose other end only this process
holds. When this process closes it (the block ends) or dies (the kernel closes it), the
watcher reads the end of the pipe and ends the group: SIGTERM, then SIGKILL after
GRACE_SECONDS. After a clean end the group is already gone and the watcher simply exits.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

GRACE_SECONDS = 2.0

WATCHER = """
import os, signal, sys, time
group, grace = int(sys.argv[1]), float(sys.argv[2])
signal.signal(signal.SIGINT, signal.SIG_IGN)
sys.stdin.buffer.read()  # returns when the guarding process has closed the pipe, or died
for stop, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 0.0)):
    try:
        os.killpg(group, stop)
    except ProcessLookupError:
        break
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            sys.exit(0)
        time.sleep(0.05)
"""


@contextmanager
def guarded(group: int) -> Iterator[None]:
    """While the block runs, process group `group` is ended if this process dies; when the
    block ends, it is ended too (if the block did not already end it)."""
    watcher = subprocess.Popen(
        [sys.executable, "-c", WATCHER, str(group), str(GRACE_SECONDS)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # neither a Ctrl-C nor the end of our own group stops it
    )
    try:
        yield
    finally:
        assert watcher.stdin is not None
        watcher.stdin.close()
        watcher.wait()
