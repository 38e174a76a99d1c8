"""Z3 and the exhaustive search answer the same puzzles alike; a third, naive oracle agrees.

Three independent paths: the Z3 unrolling (proofs.encoding, built from dekal_ref's chains),
the search (dekal.bits words and dekal.tables steps), and `brute_force` below, which plays
every move sequence on the reference engine. Puzzles come from Hypothesis over small
alphabets (so that cancellations happen), both push variants, solo mode included.
"""

from __future__ import annotations

import itertools

import z3  # type: ignore[import-untyped]
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_bounds import plain_best_key

from dekal.proofs import search, z3_solve
from dekal.proofs._replay import replay
from dekal.proofs.puzzle import KEY_CARDS, Move, Puzzle, make_puzzle
from dekal_ref.notation import CELLS, Grid
from dekal_ref.push import legal_pushes
from dekal_ref.scoring import score_grid

FEW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def puzzles(draw: st.DrawFn, variant: str | None = None, max_turns: int = 2) -> Puzzle:
    alphabet = draw(st.lists(st.integers(1, 10), min_size=2, max_size=5, unique=True))
    grid = tuple(draw(st.lists(st.sampled_from(alphabet), min_size=16, max_size=16)))
    rule = variant or draw(st.sampled_from(["slide", "eject"]))
    turns = draw(st.integers(1, max_turns))
    # eject has 14-16 pushes per hole: fewer face-down cells keep the oracle quick
    most = 16 if rule == "slide" else 5
    down = frozenset(
        draw(st.lists(st.sampled_from(CELLS), min_size=turns, max_size=most, unique=True))
    )
    if draw(st.booleans()):
        return make_puzzle(grid, face_down=down, turns=turns, variant=rule)
    cards = tuple(draw(st.lists(st.sampled_from(alphabet), min_size=turns, max_size=turns)))
    return make_puzzle(grid, incoming=cards, face_down=down, variant=rule)


def all_sequences(puzzle: Puzzle) -> list[list[Move]]:
    """Every legal move sequence, built by replaying prefixes on the reference engine."""
    sequences: list[list[Move]] = [[]]
    for step in range(puzzle.turns):
        longer: list[list[Move]] = []
        for prefix in sequences:
            shortened = (
                Puzzle(
                    puzzle.grid,
                    puzzle.face_down,
                    None if puzzle.incoming is None else puzzle.incoming[:step],
                    step,
                    puzzle.variant,
                )
                if step
                else None
            )
            down = replay(shortened, prefix).frames[-1].face_down if shortened else puzzle.face_down
            for cell in sorted(down):
                for push in legal_pushes(cell, puzzle.variant):
                    longer.append([*prefix, Move(cell, push)])
        sequences = longer
    return sequences


def prefix(puzzle: Puzzle, steps: int) -> Puzzle:
    cards = None if puzzle.incoming is None else puzzle.incoming[:steps]
    return Puzzle(puzzle.grid, puzzle.face_down, cards, steps, puzzle.variant)


def draw_play(data: st.DataObject, puzzle: Puzzle) -> list[Move]:
    """A legal move sequence, drawn step by step (the faces followed on the reference engine)."""
    moves: list[Move] = []
    down = puzzle.face_down
    for step in range(puzzle.turns):
        cell = data.draw(st.sampled_from(sorted(down)))
        moves.append(Move(cell, data.draw(st.sampled_from(legal_pushes(cell, puzzle.variant)))))
        down = replay(prefix(puzzle, step + 1), moves).frames[-1].face_down
    return moves


def brute_force(puzzle: Puzzle) -> tuple[int, int]:
    return min(
        (o.points, o.remaining) for o in map(lambda m: replay(puzzle, m), all_sequences(puzzle))
    )


@FEW
@given(puzzles(variant="slide"), st.booleans())
def test_z3_search_and_brute_force_agree_slide(puzzle: Puzzle, warm: bool) -> None:
    by_z3 = z3_solve.minimum(puzzle, timeout=60, warm_start=warm)
    by_search = search.minimum(puzzle, timeout=60)
    assert by_z3.proved_optimal and by_search.proved_optimal
    expected = brute_force(puzzle)
    assert (by_z3.points, by_z3.remaining) == expected
    assert (by_search.points, by_search.remaining) == expected


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(variant="eject"))
def test_z3_and_search_agree_eject(puzzle: Puzzle) -> None:
    by_z3 = z3_solve.minimum(puzzle, timeout=60)
    by_search = search.minimum(puzzle, timeout=60)
    assert by_z3.proved_optimal and by_search.proved_optimal
    assert (by_z3.points, by_z3.remaining) == (by_search.points, by_search.remaining)
    if puzzle.turns == 1:
        assert (by_search.points, by_search.remaining) == brute_force(puzzle)


@FEW
@given(puzzles(), st.integers(0, 40))
def test_at_most_is_sat_exactly_from_the_minimum_up(puzzle: Puzzle, bound: int) -> None:
    best = search.minimum(puzzle, timeout=60)
    for method in (z3_solve, search):
        found = method.at_most(puzzle, bound, timeout=60)
        assert (found is not None) == (best.points <= bound)
        if found is not None:
            assert found.points <= bound  # certified: the replayed score


@FEW
@given(puzzles(max_turns=2), st.data())
def test_a_played_final_grid_is_reachable_and_a_foreign_one_is_not(
    puzzle: Puzzle, data: st.DataObject
) -> None:
    moves = draw_play(data, puzzle)
    target: Grid = replay(puzzle, moves).final
    for method in (z3_solve, search):
        found = method.reach(puzzle, target, timeout=60)
        assert found is not None and found.outcome.final == target
    # a grid with one card more of a value than the whole puzzle holds cannot be reached
    value = target[0]
    foreign = (value,) * 16 if target.count(value) < 16 else (value % 10 + 1,) * 16
    if foreign.count(foreign[0]) > puzzle.grid.count(foreign[0]) + len(puzzle.incoming or ()):
        for method in (z3_solve, search):
            assert method.reach(puzzle, foreign, timeout=60) is None


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(variant="slide", max_turns=2))
def test_ranked_first_moves_agree_and_the_best_is_the_minimum(puzzle: Puzzle) -> None:
    by_z3 = z3_solve.rank(puzzle, timeout=120)
    by_search = search.rank(puzzle, timeout=120)
    assert [(r.move, r.points, r.remaining) for r in by_z3] == [
        (r.move, r.points, r.remaining) for r in by_search
    ]
    best = search.minimum(puzzle, timeout=60)
    assert (by_z3[0].points, by_z3[0].remaining) == (best.points, best.remaining)
    assert {r.move for r in by_z3} == {
        Move(c, p) for c in puzzle.face_down for p in legal_pushes(c, puzzle.variant)
    }
    for entry in by_search:
        assert entry.answer.moves[0] == entry.move


def test_a_known_puzzle_is_solved_and_replayed() -> None:
    grid = (1, 1, 1, 2, 3, 1, 3, 1, 1, 4, 3, 5, 2, 4, 3, 5)
    puzzle = make_puzzle(grid, incoming=(5, 3))
    for method in (z3_solve, search):
        answer = method.minimum(puzzle, timeout=60)
        final = replay(puzzle, answer.moves).final
        assert score_grid(final).points == answer.points
        assert (answer.points, answer.remaining) == brute_force(puzzle)


def test_z3_refutes_a_zero_first_and_then_needs_no_last_refutation_for_one_1_left() -> None:
    """S2/S3: no outcome lies between 0 and one 1 left; Z3's zero probe refutes the 0, so a
    witness of one 1 left is proved by that refutation alone (what the reference engine's
    exhaustive search confirms: here each distinct state once, where `brute_force` would
    replay all 93,696 sequences, 8 s of CPU)."""
    grid = (3, 5, 3, 3, 4, 1, 1, 5, 2, 3, 5, 2, 3, 2, 3, 2)
    puzzle = make_puzzle(grid, incoming=(4, 1, 1))
    answer = z3_solve.minimum(puzzle, timeout=60)
    assert answer.proof == z3_solve.ZERO_REFUTED
    assert (answer.points, answer.remaining) == (1, 1)
    assert plain_best_key(puzzle) == 1 * KEY_CARDS + 1


def test_every_slide_sequence_of_one_step_is_enumerated() -> None:
    puzzle = make_puzzle(tuple(range(1, 11)) + (1, 2, 3, 4, 5, 6), incoming=(7,))
    assert len(all_sequences(puzzle)) == 48
    assert len(list(itertools.chain(*all_sequences(puzzle)))) == 48


@FEW
@given(puzzles(max_turns=3), st.data())
def test_every_play_has_a_canonical_order_the_formula_accepts(
    puzzle: Puzzle, data: st.DataObject
) -> None:
    """The commuting-steps symmetry removes orders, never outcomes: a played sequence, put in
    canonical order, reaches the same final grid and satisfies the symmetric formula."""
    from dekal.proofs._encoding import Unrolling

    moves = draw_play(data, puzzle)
    unrolled = Unrolling(puzzle)
    canonical = unrolled.canonical(moves)
    assert replay(puzzle, canonical).final == replay(puzzle, moves).final
    solver = z3.Solver()
    solver.add(unrolled.constraints)
    literals = [
        lit
        for step, move in enumerate(canonical)
        for lit in (unrolled.reveal[step][move.reveal], unrolled.push[step][move.push])
        if not isinstance(lit, bool)
    ]
    assert solver.check(*literals) == z3.sat
    assert unrolled.moves(solver.model()) == canonical
