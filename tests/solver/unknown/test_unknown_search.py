"""The solver of the solo game with unknown cards (spec/solo-unknown.md) against the literal
brute force on the reference engine (unknown_brute), on Hypothesis positions with 1–3
unknown cells, slide and eject, the deck's unseen cards or a given multiset.

Three independent paths: the search (dekal.bits words, dekal.tables steps, memo, pruning),
the brute force (dekal_ref.push, dekal_ref.scoring, no memo), and for perfect information
the puzzle search (`proofs.search.minimum` on each deal) beside the layouts.
"""

from __future__ import annotations

from fractions import Fraction

import unknown_brute as brute
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dekal.proofs import search
from dekal.proofs._unknown.answer import answer
from dekal.proofs._unknown.deals import deals
from dekal.proofs._unknown.greedy import greedy_values
from dekal.proofs._unknown.perfect import layouts, perfect_information
from dekal.proofs._unknown.position import (
    UNKNOWN,
    UnknownPosition,
    format_unknown_grid,
    make_unknown,
)
from dekal.proofs._unknown.search import falling, solve
from dekal.proofs.puzzle import PuzzleError, make_puzzle
from dekal_ref.notation import CELLS
from dekal_ref.push import legal_pushes

FEW = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw: st.DrawFn, most_unknown: int = 3) -> UnknownPosition:
    """Small alphabets, so that cancellations happen; the brute force's work stays small:
    the deck's 10 values only with few unknown cells, else a multiset of 2–4 cards."""
    variant = draw(st.sampled_from(["slide", "eject"]))
    alphabet = draw(st.lists(st.integers(1, 10), min_size=3, max_size=5, unique=True))
    grid = draw(st.lists(st.sampled_from(alphabet), min_size=16, max_size=16))
    unknown = draw(st.integers(1, most_unknown if variant == "slide" else min(2, most_unknown)))
    for cell in draw(
        st.lists(st.sampled_from(CELLS), min_size=unknown, max_size=unknown, unique=True)
    ):
        grid[cell] = UNKNOWN
    deck = unknown == 1 or (unknown == 2 and variant == "slide")
    if deck and draw(st.booleans()):
        unseen = None
    else:
        cards = draw(st.lists(st.sampled_from(alphabet), min_size=unknown, max_size=unknown + 1))
        unseen = ",".join(str(v) for v in cards)
    try:
        return make_unknown(format_unknown_grid(tuple(grid)), unseen=unseen, variant=variant)
    except PuzzleError:
        assume(False)  # more than ten cards of a value (M1): not a position
        raise


def reference(position: UnknownPosition) -> tuple[tuple[int, ...], dict[int, int]]:
    grid = tuple(brute.UNSEEN if v == UNKNOWN else v for v in position.grid)
    return grid, {v: position.unseen[v - 1] for v in range(1, 11)}


@FEW
@given(positions())
def test_guaranteed_is_the_brute_force_minimax_U5(position: UnknownPosition) -> None:
    grid, unseen = reference(position)
    assert solve(position).guaranteed == brute.guaranteed(grid, unseen, position.variant)


@FEW
@given(positions())
def test_expected_is_the_brute_force_expectimax_exactly_U6(position: UnknownPosition) -> None:
    grid, unseen = reference(position)
    assert solve(position).expected == brute.expected(grid, unseen, position.variant)


@FEW
@given(positions())
def test_pruning_changes_no_value_and_no_first_step_U8(position: UnknownPosition) -> None:
    pruned, everything = solve(position), solve(position, prune=False)
    assert (pruned.guaranteed, pruned.expected) == (everything.guaranteed, everything.expected)
    assert pruned.expected_first == everything.expected_first
    assert pruned.guaranteed_first == everything.guaranteed_first


@FEW
@given(positions(most_unknown=2))
def test_the_first_reveal_is_the_lowest_optimal_cell_and_each_push_is_best_U7(
    position: UnknownPosition,
) -> None:
    grid, unseen = reference(position)
    variant = position.variant
    exact = solve(position)
    first = exact.expected_first
    by_cell = {c: brute.expected_of_reveal(grid, unseen, variant, c) for c in position.face_down}
    optimal = [c for c, mean in by_cell.items() if mean == exact.expected]
    assert first.reveal == min(optimal)
    for value, push, after in first.push_by_value:
        options = {
            p: brute.expected_after(grid, unseen, variant, first.reveal, value, p)
            for p in legal_pushes(first.reveal, variant)
        }
        best = min(options.values())
        assert after == options[push] == best
        assert push == next(p for p in legal_pushes(first.reveal, variant) if options[p] == best)
    assert sorted(v for v, _, _ in first.push_by_value) == [v for v in range(1, 11) if unseen[v]]


@FEW
@given(positions(most_unknown=2))
def test_perfect_information_is_the_brute_force_mean_of_known_optima_U9(
    position: UnknownPosition,
) -> None:
    grid, unseen = reference(position)
    assume(len(position.face_down) == 1 or position.unseen_total <= 5)
    assert perfect_information(position) == brute.perfect_information(
        grid, unseen, position.variant
    )


@FEW
@given(positions(most_unknown=3))
def test_perfect_information_is_the_puzzle_search_on_every_deal_U9(
    position: UnknownPosition,
) -> None:
    assume(position.variant == "slide" or len(position.face_down) <= 2)
    total = 0
    for deal, weight in deals(position):
        placed = list(position.grid)
        for cell, value in zip(position.face_down, deal, strict=True):
            placed[cell] = value
        puzzle = make_puzzle(
            tuple(placed), face_down=frozenset(position.face_down), variant=position.variant
        )
        total += weight * search.minimum(puzzle, compiled=False).points
    mean = Fraction(total, falling(position.unseen_total, len(position.face_down)))
    assert perfect_information(position) == mean


@FEW
@given(positions())
def test_knowing_more_never_hurts_and_a_mean_never_exceeds_its_worst_case_U10(
    position: UnknownPosition,
) -> None:
    found = answer(position)
    assert found.proved
    pi, mean, worst = (
        found.perfect_information.upper,
        found.expected.upper,
        found.guaranteed.upper,
    )
    assert pi <= mean <= worst


@FEW
@given(positions())
def test_the_greedy_strategy_bounds_the_optimum_from_above_U10(position: UnknownPosition) -> None:
    greedy, exact = greedy_values(position), solve(position)
    assert exact.guaranteed <= greedy.guaranteed
    assert exact.expected <= greedy.expected


def test_the_deals_weights_add_up_to_every_ordered_draw_U2() -> None:
    position = make_unknown("T133/1?11/?231/2231", unseen="1,1,T")
    weights = dict(deals(position))
    assert weights == {(1, 1): 2, (1, 10): 2, (10, 1): 2}
    assert sum(weights.values()) == falling(3, 2)


def test_a_layout_is_one_per_distinct_end_U9() -> None:
    # one corner cell: 2 pushes, 2 distinct final layouts
    assert len(layouts(make_unknown("3311/3371/5225/T55?", unseen="1"))) == 2
