"""What `dekal solve GRID --unknown` answers (spec/solo-unknown.md, U5–U10): the three
values, each exact or as bounds that contain it, and the first step of a strategy.

The work runs in this order under one Deadline: the greedy strategy's values (milliseconds:
the upper bounds, U10), perfect information in a third of the time (U9: the lower bounds,
`expected` ≥ the mean of the deals' known-values optima, `guaranteed` ≥ their worst), the
exact search (U5–U8), then perfect information again if its third was too short. What the
deadline cuts short stays a bound: `guaranteed ∈ [a, x]`, `expected ∈ [a, b]`.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dekal import bits, tables
from dekal.proofs._answer import Progress, quiet
from dekal.proofs._unknown.deals import KnownOptima
from dekal.proofs._unknown.greedy import StrategyValues, greedy_values
from dekal.proofs._unknown.perfect import MOST_CARDS, known_optima
from dekal.proofs._unknown.position import VALUES, UnknownPosition
from dekal.proofs._unknown.race import race_guaranteed
from dekal.proofs._unknown.search import Exact, FirstStep, OutOfTime, solve
from dekal.proofs.limits import Deadline
from dekal_ref.notation import cell_name

METHOD = "search"


@dataclass(frozen=True)
class Bounded:
    """A value known to lie in [lower, upper]; exact when they meet."""

    lower: Fraction
    upper: Fraction

    @property
    def proved(self) -> bool:
        return self.lower == self.upper


def fraction_text(value: Fraction) -> str:
    """`p/q` in lowest terms, `p` for an integer (U6)."""
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


@dataclass(frozen=True)
class UnknownAnswer:
    """The three values (U5, U6, U9), the first steps, and how the answer was reached."""

    position: UnknownPosition
    guaranteed: Bounded
    expected: Bounded
    perfect_information: Bounded
    guaranteed_first: FirstStep
    expected_first: FirstStep
    optimal_first: bool
    """True when the first steps are the search's (U7); False: the greedy strategy's (U10)."""
    seconds: float
    method: str = METHOD
    stats: dict[str, float] = field(default_factory=dict)

    @property
    def proved(self) -> bool:
        return all(v.proved for v in (self.guaranteed, self.expected, self.perfect_information))

    def as_json(self) -> dict[str, Any]:
        guaranteed = _value_json(self.guaranteed, whole=True)
        guaranteed["first"] = _first_json(self.guaranteed_first, self.optimal_first, whole=True)
        expected = _value_json(self.expected, whole=False)
        expected["first"] = _first_json(self.expected_first, self.optimal_first, whole=False)
        return {
            "guaranteed": guaranteed,
            "expected": expected,
            "perfect_information": _value_json(self.perfect_information, whole=False),
            "first": expected["first"],
            "proved": self.proved,
            "seconds": round(self.seconds, 3),
            "method": self.method,
            "position": self.position.describe(),
        }


def _value_json(value: Bounded, *, whole: bool) -> dict[str, Any]:
    """`score`: the exact value, or when unproved the upper bound (what a strategy at hand
    achieves); `lower` and `upper` always."""

    def shown(x: Fraction) -> Any:
        return int(x) if whole and x.denominator == 1 else fraction_text(x)

    return {
        "score": shown(value.upper),
        "decimal": round(float(value.upper), 4),
        "lower": shown(value.lower),
        "upper": shown(value.upper),
        "proved": value.proved,
    }


def _first_json(first: FirstStep, optimal: bool, *, whole: bool) -> dict[str, Any]:
    table = {str(v): str(push) for v, push, _ in first.push_by_value}
    out: dict[str, Any] = {"reveal": cell_name(first.reveal), "push_by_value": table}
    if optimal:
        out["after"] = {
            str(v): int(after) if whole else fraction_text(after)
            for v, _, after in first.push_by_value
        }
    out["strategy"] = "optimal" if optimal else "greedy"
    return out


def greedy_first(position: UnknownPosition) -> FirstStep:
    """U10's greedy first step: the lowest `?` cell, each value's push that scores least at
    once (its `after` column is the immediate score, not a value of the position)."""
    legal = tables.LEGAL[position.variant]
    grid, cell = bits.pack(position.grid), position.face_down[0]
    table = []
    for value in VALUES:
        if position.unseen[value - 1] == 0:
            continue
        scores = [
            int(bits.score_points(bits.push_grid(grid, step, value))) for _, step in legal[cell]
        ]
        index = scores.index(min(scores))
        table.append((value, legal[cell][index][0], Fraction(scores[index])))
    return FirstStep(reveal=cell, push_by_value=tuple(table))


def most_points(position: UnknownPosition) -> int:
    """No final grid scores more: the face-up cards and the k highest unseen values (S2)."""
    unseen = sorted((v for v in VALUES for _ in range(position.unseen[v - 1])), reverse=True)
    return sum(position.grid) + sum(unseen[: len(position.face_down)])


class Board:
    """What `answer` has reached so far, for a caller that cannot wait (a watchdog)."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.greedy: StrategyValues | None = None
        self.exact: Exact | None = None
        self.perfect: KnownOptima | None = None


def answer_so_far(position: UnknownPosition, board: Board) -> UnknownAnswer:
    """The answer from what the board holds: the greedy strategy's upper bounds if known
    (U10), else most points; perfect information's lower bounds if known, else 0."""
    top = Fraction(most_points(position))
    greedy, exact, perfect = board.greedy, board.exact, board.perfect
    if exact is not None:
        guaranteed = Bounded(Fraction(exact.guaranteed), Fraction(exact.guaranteed))
        expected = Bounded(exact.expected, exact.expected)
        first_g, first_e = exact.guaranteed_first, exact.expected_first
    else:
        g_upper = Fraction(greedy.guaranteed) if greedy else top
        e_upper = greedy.expected if greedy else top
        guaranteed, expected = Bounded(Fraction(0), g_upper), Bounded(Fraction(0), e_upper)
        first_g = first_e = greedy_first(position)
    pi = Bounded(Fraction(0), expected.upper)
    if perfect is not None:
        pi = Bounded(perfect.mean, perfect.mean)
        expected, guaranteed = _raised(expected, guaranteed, perfect)
    return UnknownAnswer(
        position=position,
        guaranteed=guaranteed,
        expected=expected,
        perfect_information=pi,
        guaranteed_first=first_g,
        expected_first=first_e,
        optimal_first=exact is not None,
        seconds=time.perf_counter() - board.started,
    )


def answer(
    position: UnknownPosition,
    *,
    deadline: Deadline | None = None,
    progress: Progress = quiet,
    board: Board | None = None,
    race: bool = False,
) -> UnknownAnswer:
    """The three values within the deadline (default: none), exact where the work finished.
    `board`, when given, holds the greedy values as soon as they are known. `guaranteed` is
    raced against Z3 (`_unknown.race`; `race`: even on a small position); `method` names
    who proved it."""
    started = time.perf_counter()
    deadline = deadline or Deadline(3600.0 * 24)
    top = Fraction(most_points(position))
    g_upper = e_upper = top
    g_lower = e_lower = pi_lower = Fraction(0)
    stats: dict[str, float] = {}
    first_g = first_e = greedy_first(position)
    optimal = False
    method = METHOD
    perfect: KnownOptima | None = None
    with_layouts = len(position.face_down) <= MOST_CARDS  # else no layout word: bounds
    try:
        progress("unknown: the greedy strategy's values (upper bounds)")
        greedy = greedy_values(position, deadline)
        if board is not None:
            board.greedy = greedy
        g_upper, e_upper = Fraction(greedy.guaranteed), greedy.expected
        stats["greedy_expected"] = float(greedy.expected)
        if with_layouts:
            progress("unknown: perfect information (lower bounds)")
            with contextlib.suppress(OutOfTime):  # else tried again after the exact search
                perfect = known_optima(position, deadline=deadline.share(3))
            if board is not None:
                board.perfect = perfect
        progress("unknown: exact search (guaranteed, expected)")
        guarantee, method = race_guaranteed(position, deadline, progress, always=race)
        exact = solve(position, deadline=deadline, guarantee=guarantee)
        if board is not None:
            board.exact = exact
        g_lower = g_upper = Fraction(exact.guaranteed)
        e_lower = e_upper = exact.expected
        first_g, first_e, optimal = exact.guaranteed_first, exact.expected_first, True
        stats |= {"nodes": float(exact.nodes), "memo_states": float(exact.memo_states)}
        if perfect is None and with_layouts:
            progress("unknown: perfect information")
            perfect = known_optima(position, deadline=deadline)
    except OutOfTime:
        pass
    pi_upper = e_upper
    if perfect is not None:
        pi_lower = pi_upper = perfect.mean
    expected, guaranteed = Bounded(e_lower, e_upper), Bounded(g_lower, g_upper)
    if perfect is not None:
        expected, guaranteed = _raised(expected, guaranteed, perfect)
    return UnknownAnswer(
        position=position,
        guaranteed=guaranteed,
        expected=expected,
        perfect_information=Bounded(pi_lower, pi_upper),
        guaranteed_first=first_g,
        expected_first=first_e,
        optimal_first=optimal,
        seconds=time.perf_counter() - started,
        method=method,
        stats=stats,
    )


def _raised(
    expected: Bounded, guaranteed: Bounded, perfect: KnownOptima
) -> tuple[Bounded, Bounded]:
    """The lower bounds raised by the known-values optima (U10): expected ≥ their mean,
    guaranteed ≥ their worst and ≥ expected's lower bound."""
    e_lower = max(expected.lower, perfect.mean)
    g_lower = max(guaranteed.lower, Fraction(perfect.worst), e_lower)
    return Bounded(e_lower, expected.upper), Bounded(g_lower, guaranteed.upper)
