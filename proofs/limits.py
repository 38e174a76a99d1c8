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

import threading
import time
from typing import Any


class Deadline:
    """A wall-clock limit: one object handed down to every part of a query, so that the
    parts share the time instead of each starting its own clock.

    A deadline can also be cancelled (`cancel`, from any thread): it then reads as expired at
    once. The portfolio cancels the loser's deadline when the other method holds a proof.
    """

    def __init__(self, seconds: float) -> None:
        self.limit = seconds
        self.end = time.perf_counter() + seconds
        self.cancelled = threading.Event()

    def left(self) -> float:
        if self.cancelled.is_set():
            return 0.0
        return self.end - time.perf_counter()

    def expired(self) -> bool:
        return self.left() <= 0

    def cancel(self) -> None:
        """Make the deadline expire now (thread-safe); the work under it stops as on a timeout."""
        self.cancelled.set()

    def part(self) -> Deadline:
        """A deadline that ends with this one but can be cancelled on its own."""
        part = Deadline(0.0)
        part.limit, part.end = self.limit, self.end
        return part

    def share(self, parts: int) -> Deadline:
        """An equal share of the time left, for the first of `parts` pieces of work done in
        turn: a piece that finishes early leaves its time to the pieces after it."""
        return Deadline(max(0.0, self.left()) / max(1, parts))

    def milliseconds(self) -> int:
        """The time left as Z3's `timeout` parameter wants it (at least 1 ms: 0 means none)."""
        return max(1, int(self.left() * 1000))


def z3_check(solver: Any, *assumptions: Any, deadline: Deadline | None = None) -> Any:
    """`solver.check(*assumptions)`, given only the time the deadline has left; a Ctrl-C
    stops it at once and raises (it is never an `unknown`, never taken for a timeout).

    In the main thread the check runs in a helper thread while the main thread waits, so
    the main thread's SIGINT handler runs at once; on any exception there the check is
    cancelled (`ctx.interrupt()`, Z3's thread-safe way) and the exception goes on.
    """
    if deadline is not None:
        solver.set(timeout=deadline.milliseconds())
    if threading.current_thread() is not threading.main_thread():
        return solver.check(*assumptions)  # signals are handled in the main thread only
    solver.set(ctrl_c=False)  # Z3's own SIGINT handler would swallow the signal
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
