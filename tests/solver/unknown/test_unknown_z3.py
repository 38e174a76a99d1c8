"""Z3's strategy tree for `guaranteed` (proofs/_unknown/z3_tree.py, spec/solo-unknown.md U5)
against the brute force on the reference engine and the exhaustive search, and its race
against the search (proofs/_unknown/race.py): both halves can win, the loser is reaped."""

from __future__ import annotations

import multiprocessing
import time

import pytest
import unknown_brute as brute
from hypothesis import HealthCheck, given, settings
from test_unknown_search import positions, reference

from dekal.proofs._unknown import race
from dekal.proofs._unknown.answer import answer
from dekal.proofs._unknown.position import UnknownPosition, make_unknown
from dekal.proofs._unknown.search import FirstStep, OutOfTime, solve
from dekal.proofs.limits import Deadline

pytest.importorskip("z3")
FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL = make_unknown("T133/1?11/?231/2231", unseen="1,1,T")


@FEW
@given(positions(most_unknown=2))
def test_z3s_guarantee_is_the_brute_force_minimax_and_the_search_s_U5(
    position: UnknownPosition,
) -> None:
    from dekal.proofs._unknown import z3_tree

    grid, unseen = reference(position)
    found = z3_tree.guaranteed(position)
    assert found.guaranteed == brute.guaranteed(grid, unseen, position.variant)
    assert found.guaranteed == solve(position).guaranteed


@FEW
@given(positions(most_unknown=2))
def test_z3s_first_step_starts_a_strategy_that_keeps_the_guarantee_U5_U7(
    position: UnknownPosition,
) -> None:
    """Each push of its table keeps the strategy at or below the guarantee, and no push can
    do better than the brute force's optimum after it."""
    from dekal.proofs._unknown import z3_tree

    grid, unseen = reference(position)
    found = z3_tree.guaranteed(position)
    first = found.first
    assert first.reveal in position.face_down
    assert max(after for _, _, after in first.push_by_value) == found.guaranteed
    for value, push, after in first.push_by_value:
        best_after = brute.guaranteed_after(
            grid, unseen, position.variant, first.reveal, value, push
        )
        assert best_after <= after <= found.guaranteed


def test_the_race_answers_with_the_search_s_proof_and_reaps_z3() -> None:
    found = answer(SMALL, race=True)
    assert found.proved and found.method in ("search", "z3")
    assert found.guaranteed.upper == solve(SMALL).guaranteed
    assert multiprocessing.active_children() == []


def test_z3_wins_the_race_when_the_search_cannot_prove_in_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def stuck(position: UnknownPosition, *, deadline: Deadline) -> tuple[int, FirstStep]:
        while not deadline.expired():  # cancelled when z3's proof arrives
            time.sleep(0.01)
        raise OutOfTime

    monkeypatch.setattr(race, "solve_guaranteed", stuck)
    (value, first), method = race.race_guaranteed(SMALL, Deadline(60.0), always=True)
    grid, unseen = reference(SMALL)
    assert method == "z3"
    assert value == brute.guaranteed(grid, unseen, SMALL.variant)
    assert first.reveal in SMALL.face_down
    assert multiprocessing.active_children() == []
