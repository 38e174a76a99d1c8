"""Which scoring rule an engine reads otherwise when it refuses a scored single round for
its totals (spec/protocol.md, "`new_game` from a position", item S2: once a single round is
over, each seat's total is its points).

The totals follow from the grids: S1 says which cards cancel, S2 how the cards left count.
An engine that scores a grid otherwise finds the reference's totals wrong and names S2,
whichever of the two it misreads; so its own `score` of each seat's final grid, set against
the reference's, decides (issue 27, item 4: blame the rule that decides, never the fields
that follow from it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import dekal_ref
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._engine_link import EngineError
from dekal.conformance.drive._protocol import Message, position_fields
from dekal.conformance.judge._attribution import Blame

_LETTERS = "abcdefghij"
_SYMBOLS = "123456789T"


def scored_single_round(position: str) -> bool:
    """A single-round game that is over: the one place S2 ties the totals to the grids."""
    fields = position_fields(position)
    return fields.get("phase") == "over" and fields.get("rules", "").endswith("/single")


def final_grids(position: str) -> list[str]:
    """Each seat's grid as the `score` command reads it (face-down letters as their values)."""
    grids = position_fields(position).get("grids", "")
    table = str.maketrans(_LETTERS, _SYMBOLS)
    return [grid.translate(table) for grid in grids.split("|")] if grids else []


def reference_scores(grids: Sequence[str]) -> list[Message]:
    """The reference's `score` reply for each grid."""
    adapter = ProtocolAdapter(dekal_ref)
    return [adapter.handle({"id": 0, "cmd": "score", "grid": grid}) for grid in grids]


def blame_refused_totals(expected: Sequence[Message], scored: Sequence[Message | None]) -> Blame:
    """A scored single round refused with S2, from the engine's own `score` of each seat's
    grid (`scored`, None where it gave no answer) against the reference's (`expected`): the
    first seat scored otherwise names the rule, S1 when it cancels other cells, S2 when it
    counts what is left otherwise; an engine that scores every grid as the reference does
    misapplied S2's check itself (S2)."""
    for seat, (want, got) in enumerate(zip(expected, scored, strict=True)):
        if got is None or not got.get("ok") or not want.get("ok"):
            continue
        if got.get("cancelled") != want.get("cancelled"):
            return Blame("S1", f"verdict (the cells seat {seat}'s grid cancels)")
        if (got.get("points"), got.get("remaining")) != (want.get("points"), want.get("remaining")):
            return Blame("S2", f"verdict (the points of seat {seat}'s grid)")
    return Blame("S2", "verdict (a valid request refused)")


def blame_scored_totals(position: str, ask: Callable[..., Message]) -> Blame:
    """A scored single round `position` refused with S2: each seat's grid sent to the engine
    as a `score` request (`ask("score", grid=…)`), its answers judged by
    `blame_refused_totals`."""
    grids = final_grids(position)
    scored: list[Message | None] = []
    for grid in grids:
        try:
            scored.append(ask("score", grid=grid))
        except EngineError:
            scored.append(None)
    return blame_refused_totals(reference_scores(grids), scored)
