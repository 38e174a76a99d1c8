"""`guaranteed` (spec/solo-unknown.md, U5) by two methods at once, the first proof wins: the
exhaustive search (`proofs._unknown.search`) in this process, Z3's strategy tree
(`proofs._unknown.z3_tree`) in a child, with the portfolio's race (`proofs.portfolio._Race`:
the child under the caller's deadline, the loser stopped at once, the child always reaped).

No race when there is nothing to race for: a position with fewer than RACE_FROM unknown
cells (the search proves it in milliseconds, before a child would have started), less than
the portfolio's MIN_RACE_SECONDS left, or no child allowed (a pool's worker).
"""

from __future__ import annotations

from typing import Any

from dekal.proofs import portfolio
from dekal.proofs._answer import Progress, quiet
from dekal.proofs._unknown.position import UnknownPosition
from dekal.proofs._unknown.search import FirstStep, OutOfTime, solve_guaranteed
from dekal.proofs.limits import Deadline

RACE_FROM = 3
"""Unknown cells from which the race starts (below: the search alone, in milliseconds)."""


def race_guaranteed(
    position: UnknownPosition,
    deadline: Deadline,
    progress: Progress = quiet,
    *,
    always: bool = False,
) -> tuple[tuple[int, FirstStep], str]:
    """U5's value and first step, and the method that proved it first ("search" or "z3");
    OutOfTime when neither did within the deadline. `always`: race even a small position
    (the tests' way to see both halves of a race)."""
    small = len(position.face_down) < RACE_FROM and not always
    if small or deadline.left() < portfolio.MIN_RACE_SECONDS or not portfolio._can_fork_a_child():
        return solve_guaranteed(position, deadline=deadline), "search"

    def proved(message: tuple[str, Any]) -> bool:
        return message[0] == "answer" or message[0] in portfolio.FAILURES

    progress("unknown: guaranteed, the search raced against z3")
    with portfolio._Race("unknown_guaranteed", position, deadline, None, progress, proved) as race:  # type: ignore[arg-type]
        try:
            found = solve_guaranteed(position, deadline=race.stop)
            race.close()  # z3 stops now
            return found, "search"
        except OutOfTime:
            pass  # out of time, or z3 proved it first and stopped the search
        message = race.wait(deadline.left())
    portfolio._raise_failure(message)
    if message is not None and message[0] == "answer":
        z3_found = message[1]
        return (z3_found.guaranteed, z3_found.first), "z3"
    raise OutOfTime
