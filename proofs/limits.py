"""Time limits and Ctrl-C for every method: one `Deadline` shared down a whole query, and
`z3_check`, which gives each Z3 check only the time the deadline has left.

Left to itself, Z3 installs its own SIGINT handler while it checks: a Ctrl-C cancels the
check, which answers `unknown` (often with the reason "canceled", as a timeout may), and
Python never hears of the signal, so an interrupted query looked like one that ran out of
time. `z3_check` keeps Python's handler in charge instead, so a Ctrl-C during a check ends
the work as it would anywhere else: KeyboardInterrupt by default, or whatever the program's
own handler raises (the `dekal` command exits with 130).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

MAX_SECONDS = 604_800
"""The longest time limit: a week (`dekal solve --timeout` allows as much)."""


class Deadline:
    """A wall-clock limit: one object handed down to every part of a query, so that the
    parts share the time instead of each starting its own clock.

    A deadline can also be cancelled (`cancel`, from any thread): it then reads as expired at
    once, and so does every `part` and `share` taken from it (they end with it, never after
    it). The portfolio cancels the loser's part when the other method holds a proof; the
    `dekal solve` command cancels the whole query when its time is up.

    `started`: the `time.perf_counter()` reading the limit counts from (default: now). A
    command counts from its process's start (`process_started`), so that the seconds spent
    starting Python and importing Z3 and numba are inside the limit, not on top of it.
    """

    def __init__(
        self, seconds: float, *, started: float | None = None, within: Deadline | None = None
    ) -> None:
        number = isinstance(seconds, int | float) and not isinstance(seconds, bool)
        if not number or not 0 <= seconds <= MAX_SECONDS:  # NaN too: it would never expire
            raise ValueError(f"timeout: 0 to {MAX_SECONDS:,} seconds, not {seconds!r:.40}")
        self.limit = seconds
        self.end = (time.perf_counter() if started is None else started) + seconds
        self.cancelled = threading.Event()
        self.within = within
        if within is not None:
            self.end = min(self.end, within.end)

    def left(self) -> float:
        if self.is_cancelled():
            return 0.0
        return self.end - time.perf_counter()

    def is_cancelled(self) -> bool:
        outer: Deadline | None = self
        while outer is not None:
            if outer.cancelled.is_set():
                return True
            outer = outer.within
        return False

    def expired(self) -> bool:
        return self.left() <= 0

    def cancel(self) -> None:
        """Make the deadline expire now (thread-safe); the work under it stops as on a timeout."""
        self.cancelled.set()

    def part(self) -> Deadline:
        """A deadline that ends with this one but can be cancelled on its own."""
        part = Deadline(0.0, within=self)
        part.limit, part.end = self.limit, self.end
        return part

    def share(self, parts: int) -> Deadline:
        """An equal share of the time left, for the first of `parts` pieces of work done in
        turn: a piece that finishes early leaves its time to the pieces after it."""
        return Deadline(max(0.0, self.left()) / max(1, parts), within=self)

    def milliseconds(self) -> int:
        """The time left as Z3's `timeout` parameter wants it (at least 1 ms: 0 means none)."""
        return max(1, int(self.left() * 1000))


def process_started() -> float:
    """When this process started, on the `time.perf_counter()` clock (Linux: from
    /proc/self/stat and /proc/uptime, to 10 ms; elsewhere: now)."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime", encoding="ascii") as uptime:
            up = float(uptime.read().split()[0])
        ticks = os.sysconf("SC_CLK_TCK")
        age = up - int(fields[19]) / ticks  # field 22 of stat, the 20th after the name
    except (OSError, ValueError, IndexError):
        return now
    return now - min(max(age, 0.0), 60.0)  # a clock that disagrees never costs over a minute


def z3_check(solver: Any, *assumptions: Any, deadline: Deadline | None = None) -> Any:
    """`solver.check(*assumptions)`, given only the time the deadline has left; a Ctrl-C
    stops it at once and raises (it is never an `unknown`, never taken for a timeout).

    In the main thread the check runs in a helper thread while the main thread waits, so
    the main thread's SIGINT handler runs at once; on any exception there the check is
    cancelled (`ctx.interrupt()`, Z3's thread-safe way) and the exception goes on.
    """
    if deadline is not None:
        solver.set(timeout=deadline.milliseconds())
    # Z3's own SIGINT handler would swallow the signal, in whichever thread the check runs:
    # it replaces the process's handler while it checks (a check in dekal.proofs.limits.
    # Watched's helper thread turned a Ctrl-C into "unknown", then a result, issue 29)
    solver.set(ctrl_c=False)
    if threading.current_thread() is not threading.main_thread():
        return solver.check(*assumptions)  # signals are handled in the main thread only
    outcome: list[Any] = []

    def check() -> None:
        try:
            outcome.append(solver.check(*assumptions))
        except BaseException as error:  # noqa: BLE001 - handed to the main thread below
            outcome.append(error)

    helper = threading.Thread(target=check, name="z3 check", daemon=True)
    helper.start()
    try:
        helper.join()
    except BaseException:
        solver.ctx.interrupt()
        helper.join()
        raise
    (verdict,) = outcome
    if isinstance(verdict, BaseException):
        raise verdict
    return verdict


T = TypeVar("T")

WATCHDOG_GRACE = 0.3
"""Seconds the watchdog waits, once the deadline is cancelled, for the work to hand over its
own best answer (a search stops at its next slice) before answering without it."""


class Watched(Generic[T]):
    """`work()` run in a helper thread under a watchdog: `result(deadline)` returns its value
    when it ends in time, else `fallback()` (a certified answer of last resort the caller
    always has at hand), and marks the work `abandoned`.

    Why a thread: some work cannot look at the clock while it runs (numba compiling or
    loading the kernel, Z3 building its formula, a child being forked), and on a busy machine
    each can take seconds; the watchdog keeps the promise that a deadline is about wall time.
    A caller that abandoned work should exit soon (the helper is a daemon thread) and stop
    the children the work started (dekal.proofs.portfolio.stop_children)."""

    def __init__(self, work: Callable[[], T], fallback: Callable[[], T]) -> None:
        self.work, self.fallback = work, fallback
        self.abandoned = False
        self.outcome: list[T | BaseException] = []
        # not Thread.is_alive(): a join interrupted by a Ctrl-C marks a running thread
        # stopped in Python 3.11 (bpo-45274's fix releases the thread's own lock)
        self.finished = threading.Event()

    def _run(self) -> None:
        # a Ctrl-C sent to the process must reach the main thread, which waits below and
        # answers it: a signal the kernel hands to this thread would wake nobody
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            self.outcome.append(self.work())
        except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
            self.outcome.append(error)
        finally:
            self.finished.set()

    def result(self, deadline: Deadline, grace: float = WATCHDOG_GRACE) -> T:
        if deadline.expired():  # the time went before the work could start (a busy machine)
            return self.fallback()
        helper = threading.Thread(target=self._run, name="watched work", daemon=True)
        helper.start()
        try:
            _wait(self.finished, deadline.left())
            if not self.finished.is_set():
                deadline.cancel()  # the work stops at its next look at the clock
                _wait(self.finished, grace)
        except BaseException:  # a Ctrl-C while waiting: the work stops too
            deadline.cancel()
            self.abandoned = not self.finished.is_set()
            raise
        if not self.finished.is_set():
            self.abandoned = True
            return self.fallback()
        (value,) = self.outcome
        if isinstance(value, BaseException):
            raise value
        return value


def _wait(finished: threading.Event, seconds: float) -> None:
    """Wait for `finished` at most `seconds`, in short slices: between two, the main thread
    runs any signal handler that is due (a Ctrl-C) at once."""
    end = time.perf_counter() + seconds
    while not finished.is_set() and (left := end - time.perf_counter()) > 0:
        finished.wait(min(left, 0.1))
