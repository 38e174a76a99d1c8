"""A deadline for a call made in the caller's own thread (spec/protocol.md: every request
has a deadline).

`Watchdog().call(function, seconds)` runs function() right here and returns its value; if
the call is still running `seconds` later, a daemon thread raises `Overdue` inside it
(CPython's PyThreadState_SetAsyncExc, as dekal.conformance.drive._inprocess_engine stops its
workers). A call that returns after its deadline is Overdue too, so a deadline shorter than
the watchdog's polling step still holds.

Why not a worker thread per engine, as InProcessEngine has: every request would be two
thread hand-offs, and a whole suite's 66,000 of them cost three quarters of a bundled
engine's run (measured: `conformance run --engine fast` 18 s wall, 14 s CPU, against 4.2 s
called directly). The price: a call blocked inside C code (a long `time.sleep`, a lock, a C
extension's loop) is interrupted only when that C call returns. So this is for engines
known to run Python code only (ours, and the faults tests plant in them); a user's engine
keeps its worker thread.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

POLL = 0.05
"""Seconds between the watchdog's looks at the running call: a call is interrupted at most
this long after its deadline. Twenty wake-ups a second cost nothing measurable."""


class Overdue(BaseException):
    """Raised inside a call that ran past its deadline (a BaseException, so that the engine's
    own `except Exception` does not swallow it)."""


def _raise_in(thread_id: int, exception: type[BaseException] | None) -> None:
    """Make `thread_id` raise `exception` at its next Python instruction (None: cancel one
    that is still pending)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exception) if exception else None
    )


class Watchdog:
    """Deadlines for one caller's calls, one at a time; `close()` ends its thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: tuple[int, float] | None = None  # (thread id, deadline) of the call
        self._fired = False  # Overdue was sent to the running call
        self._closed = False
        self._thread: threading.Thread | None = None

    def call(self, function: Callable[[], T], seconds: float) -> T:
        """function(), raising Overdue if it runs (or returns) later than `seconds` from now."""
        self._watch()
        deadline = time.monotonic() + seconds
        with self._lock:
            self._running, self._fired = (threading.get_ident(), deadline), False
        try:
            try:
                value = function()
            finally:
                fired = self._finish()
        except Overdue:
            self._finish()  # Overdue may land before the `finally` above has finished
            raise
        if fired or time.monotonic() > deadline:
            raise Overdue
        return value

    def _finish(self) -> bool:
        """End the running call; True if Overdue was sent to it (one not raised yet is
        cancelled, so that it cannot land in the caller's code after the call)."""
        with self._lock:
            fired, running = self._fired, self._running
            if fired and running is not None:
                _raise_in(running[0], None)
            self._running = None
            return fired

    def _watch(self) -> None:
        """Start the watchdog's thread unless it runs: a thread told to close that has not
        looked yet carries on, so a restart (close, then calls) never makes a second one."""
        with self._lock:
            self._closed = False
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop, name="call watchdog", daemon=True
                )
                self._thread.start()

    def _loop(self) -> None:
        while True:
            time.sleep(POLL)
            with self._lock:
                if self._closed:
                    self._thread = None  # with the lock held: _watch starts the next one
                    return
                running = self._running
                if running and not self._fired and time.monotonic() > running[1]:
                    self._fired = True  # sent once: the caller cancels it if it returns first
                    _raise_in(running[0], Overdue)

    def close(self) -> None:
        """The thread ends at its next look (within POLL seconds)."""
        with self._lock:
            self._closed = True
