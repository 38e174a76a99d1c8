"""The answer of --unknown under a deadline (spec/solo-unknown.md, U10): what is not proved is
given as bounds that contain the exact value, whatever the work had reached."""

from __future__ import annotations

from dekal.proofs._unknown_answer import Board, answer, answer_so_far, most_points
from dekal.proofs._unknown_greedy import greedy_values
from dekal.proofs._unknown_position import make_unknown
from dekal.proofs._unknown_search import solve
from dekal.proofs.limits import Deadline

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
