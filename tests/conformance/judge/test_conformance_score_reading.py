"""A scored single round refused for its totals (S2's position check) is blamed on the rule
the engine scores otherwise, read from its own `score` of each seat's grid: S1 when it
cancels other cells, S2 when it counts what is left otherwise (issue 27, item 4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dekal_ref
from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._direct_engine import DirectEngine
from dekal.conformance.drive._protocol import Message
from dekal.conformance.judge._runner import run_suite
from dekal.conformance.judge._score_reading import (
    blame_refused_totals,
    final_grids,
    reference_scores,
    scored_single_round,
)

OVER = (
    "slide/chosen/single 1.16 over 1 9554/7572/689T/6641|2962/7823/61T9/3162 -,- - "
    "845755953T6663438488398349T448T21791T1T26772215853T47T9931411758732T - 61,75"
)
"""position-0006's set-up: a finished single round, totals 61 and 75."""


def with_score(reply: Message, **changed: Any) -> Message:
    return {**reply, **changed}


def test_s1_a_grid_cancelled_otherwise_blames_s1() -> None:
    expected = reference_scores(final_grids(OVER))
    scored = [expected[0], with_score(expected[1], cancelled=["a1"], points=0)]
    assert blame_refused_totals(expected, scored).rule == "S1"


def test_s2_a_grid_counted_otherwise_with_the_same_cells_cancelled_blames_s2() -> None:
    expected = reference_scores(final_grids(OVER))
    scored = [with_score(expected[0], points=expected[0]["points"] + 9), expected[1]]
    assert (
        str(blame_refused_totals(expected, scored)) == "S2 (verdict (the points of seat 0's grid))"
    )


def test_s2_every_grid_scored_as_the_reference_scores_it_blames_s2_itself() -> None:
    expected = reference_scores(final_grids(OVER))
    assert str(blame_refused_totals(expected, expected)) == "S2 (verdict (a valid request refused))"


def test_only_a_finished_single_round_ties_its_totals_to_the_grids() -> None:
    assert scored_single_round(OVER)
    assert not scored_single_round(OVER.replace("/single ", "/100 "))
    assert not scored_single_round(OVER.replace(" over ", " next "))


class ScoresOtherwise:
    """The reference, except that it scores grids with `score` (the `score` command, and the
    check that a finished single round's totals are its points, which it refuses with S2)."""

    def __init__(self, score: Callable[[str], Message]) -> None:
        self.adapter, self.score = ProtocolAdapter(dekal_ref), score

    def handle(self, request: Message) -> Message:
        if request.get("cmd") == "score":
            return {**self.score(str(request["grid"])), "id": request.get("id")}
        position = str(request.get("position", ""))
        if request.get("cmd") == "new_game" and scored_single_round(position):
            points = [self.score(grid)["points"] for grid in final_grids(position)]
            if ",".join(map(str, points)) != position.split(" ")[9]:
                error = {"kind": "illegal", "rule": "S2", "message": "totals are not the points"}
                return {"id": request.get("id"), "ok": False, "error": error}
        return self.adapter.handle(request)


def reference_score(grid: str) -> Message:
    return ProtocolAdapter(dekal_ref).handle({"id": 0, "cmd": "score", "grid": grid})


def nothing_cancels(grid: str) -> Message:
    """S1 misread: no card ever cancels (every card counts)."""
    values = [10 if s == "T" else int(s) for s in grid.replace("/", "")]
    return {"ok": True, "points": sum(values), "remaining": 16, "cancelled": []}


def ones_count_ten(grid: str) -> Message:
    """S2 misread: a 1 left counts 10 (the cells cancelled are the reference's)."""
    reply = reference_score(grid)
    ones = grid.replace("/", "").count("1")
    return {**reply, "points": reply["points"] + 9 * ones} if ones else reply


def blamed_on(score: Callable[[str], Message]) -> list[str]:
    (case,) = [c for c in load_cases() if c["id"] == "position-0006"]
    with DirectEngine(lambda: ScoresOtherwise(score), "scores otherwise", wire=False) as engine:
        run = run_suite(engine, [case])
    return [str(o.blame) for o in run.outcomes if o.status in ("fail", "error")]


def test_s1_an_engine_that_cancels_otherwise_refusing_a_finished_round_is_blamed_on_s1() -> None:
    assert blamed_on(nothing_cancels) == ["S1 (verdict (the cells seat 0's grid cancels))"]


def test_s2_an_engine_that_counts_otherwise_refusing_a_finished_round_is_blamed_on_s2() -> None:
    (blame,) = blamed_on(ones_count_ten)
    assert blame.startswith("S2 (verdict (the points of seat")
