"""Faults planted in the grid's geometry (tests/miniatures/planted_geometry27.py: a shape of
group S1 cancels, a value S2 counts, a side of P1, a line of P2): each is caught by suite v4
and every failure it causes is blamed on the rule it breaks."""

from __future__ import annotations

import pytest
from miniatures.planted_geometry27 import FAULTS, GAMES_ONLY

from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.judge._refusal_sites import DirectReference
from dekal.conformance.judge._runner import Run, run_suite

CASES = load_cases()
SINGLE_GRID = [case for case in CASES if case["kind"] in ("score", "push", "pushes")]
GEOMETRY_GAMES = [case for case in CASES if case["id"].startswith("game-49")]


def judged(factory: object, cases: list[dict[str, object]]) -> Run:
    return run_suite(DirectReference(factory), cases)  # type: ignore[arg-type]


def caught_and_blamed(fault: str, cases: list[dict[str, object]]) -> None:
    factory, rule = FAULTS[fault]
    run = judged(factory, cases)
    failed = [o for o in run.outcomes if o.status in ("fail", "error")]
    assert failed, f"the suite did not catch {fault!r}"
    blamed = {o.id: str(o.blame) for o in failed if o.blame is None or o.blame.rule != rule}
    assert blamed == {}, f"{fault!r} is planted in {rule}"


@pytest.mark.parametrize("fault", sorted(set(FAULTS) - GAMES_ONLY))
def test_a_geometry_fault_fails_the_single_grid_cases_on_its_rule(fault: str) -> None:
    caught_and_blamed(fault, SINGLE_GRID)


def test_moved_cards_turned_face_up_fail_a_designed_grid_game_on_t4() -> None:
    """T4's faces show in a game only: one two-seat designed-grid game catches it."""
    caught_and_blamed("the cards a push moves turn face up", GEOMETRY_GAMES[:1])


@pytest.mark.deep
@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_geometry_fault_fails_the_designed_grid_games_on_its_rule(fault: str) -> None:
    """Played in games too: the fault shows in the round's grids or its result."""
    caught_and_blamed(fault, GEOMETRY_GAMES)


@pytest.mark.deep
@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_geometry_fault_is_caught_and_blamed_on_its_rule_in_the_whole_suite(
    fault: str,
) -> None:
    caught_and_blamed(fault, CASES)
