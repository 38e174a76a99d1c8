"""The answer of --unknown under a deadline (spec/solo-unknown.md, U10): what is not proved is
given as bounds that contain the exact value, whatever the work had reached."""

from __future__ import annotations

import pytest
import unknown_brute as brute
from hypothesis import HealthCheck, given, settings
from test_unknown_search import positions, reference

from dekal.proofs._unknown.answer import Board, answer, answer_so_far, most_points
from dekal.proofs._unknown.greedy import greedy_values
from dekal.proofs._unknown.perfect import known_optima
from dekal.proofs._unknown.position import UnknownPosition, make_unknown
from dekal.proofs._unknown.search import solve
from dekal.proofs.limits import Deadline

FEW = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
POSITION = make_unknown("9T9?/5T5?/3737/1T1?", unseen="1,1,5,7,9,T")


def test_an_answer_out_of_time_holds_bounds_that_contain_the_values_U10() -> None:
    exact = solve(POSITION)
    found = answer(POSITION, deadline=Deadline(0.0))
    assert not found.proved and not found.optimal_first
    assert found.guaranteed.lower <= exact.guaranteed <= found.guaranteed.upper
    assert found.expected.lower <= exact.expected <= found.expected.upper


def test_a_watchdog_answer_uses_what_the_work_reached_U10() -> None:
    board = Board()
    nothing = answer_so_far(POSITION, board)
    assert nothing.guaranteed.upper == most_points(POSITION)
    board.greedy = greedy_values(POSITION)
    greedy = answer_so_far(POSITION, board)
    assert greedy.expected.upper == board.greedy.expected
    board.exact = solve(POSITION)
    exact = answer_so_far(POSITION, board)
    assert exact.expected.proved and exact.expected.upper == board.exact.expected
    assert exact.expected_first == board.exact.expected_first
    assert exact.perfect_information.upper == exact.expected.upper  # U10: PI ≤ expected


def test_a_finished_answer_is_proved_and_its_values_are_the_search_s() -> None:
    found, exact = answer(POSITION), solve(POSITION)
    assert found.proved and found.optimal_first
    assert (found.guaranteed.upper, found.expected.upper) == (exact.guaranteed, exact.expected)


@FEW
@given(positions(most_unknown=2))
def test_the_known_values_optima_bound_both_values_from_below_U10(
    position: UnknownPosition,
) -> None:
    """expected ≥ the mean of the deals' known-values optima, guaranteed ≥ their worst:
    against the brute force's minimax and expectimax."""
    grid, unseen = reference(position)
    optima = known_optima(position)
    assert optima.mean <= brute.expected(grid, unseen, position.variant)
    assert optima.worst <= brute.guaranteed(grid, unseen, position.variant)


def test_a_search_cut_short_keeps_the_known_values_lower_bounds_U10() -> None:
    """Out of time after perfect information (the board holds it, not the search's values):
    the bounds are raised above 0 and still contain the exact values."""
    board = Board()
    board.greedy = greedy_values(POSITION)
    board.perfect = known_optima(POSITION)
    found, exact = answer_so_far(POSITION, board), solve(POSITION)
    assert 0 < found.expected.lower <= exact.expected <= found.expected.upper
    assert 0 < found.guaranteed.lower <= exact.guaranteed <= found.guaranteed.upper
    assert found.guaranteed.lower >= board.perfect.worst


@pytest.mark.parametrize("seconds", [0.0, 0.02, 0.2])
def test_an_answer_with_a_tiny_timeout_holds_the_exact_values_U10(seconds: float) -> None:
    exact = solve(POSITION)
    found = answer(POSITION, deadline=Deadline(seconds))
    assert found.guaranteed.lower <= exact.guaranteed <= found.guaranteed.upper
    assert found.expected.lower <= exact.expected <= found.expected.upper
    pi = found.perfect_information
    assert pi.lower <= found.expected.upper and pi.lower <= exact.expected
