"""Every method and install prints the same witness: the smallest in move order among the
equal optima (proofs._smallest; issue 26). `solve 1112/3131/1435/2435 --incoming 5,3` printed
`d3:B d1:L` on the fast install and `b2:R d1:L` on the core one for the same optimum.

The witness of each path (the Python search with and without NumPy, the compiled kernel,
Z3; at_most and reach likewise) is compared with the smallest sequence in move order an
independent enumeration finds on the reference engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from dekal import tables
from dekal.proofs import search, z3_solve
from dekal.proofs._replay import replay
from dekal.proofs.puzzle import Move, Puzzle, make_puzzle
from dekal.proofs.search import first_moves
from dekal_ref.errors import DekalError
from dekal_ref.notation import parse_grid
from dekal_ref.scoring import score_grid

PUZZLES = {
    "two slide steps": make_puzzle(parse_grid("1112/3131/1435/2435"), incoming=(5, 3)),
    "three face down": make_puzzle(
        parse_grid("1112/3131/1435/2435"), incoming=(5, 3), face_down=frozenset({1, 4, 6})
    ),
    "solo": make_puzzle(parse_grid("9T9T/5T55/3737/1T11"), face_down=frozenset({0, 5, 10})),
    "eject": make_puzzle(parse_grid("9T9T/5T55/3737/1T11"), incoming=(7,), variant="eject"),
}


def sequences(puzzle: Puzzle) -> Iterator[tuple[tuple[Move, ...], tuple[int, int]]]:
    """Every legal sequence in move order, with its (points, cards left) on the reference."""
    moves = sorted({Move(cell, push) for cell in range(16) for push in _pushes(puzzle)})
    for line in itertools.product(moves, repeat=puzzle.turns):
        try:
            outcome = replay(puzzle, line)
        except DekalError:
            continue
        yield line, (outcome.points, outcome.remaining)


def _pushes(puzzle: Puzzle) -> set[object]:
    """Every push of the variant, legal or not somewhere: the reference refuses the others."""
    return {push for hole in range(16) for push, _ in tables.LEGAL[puzzle.variant][hole]}


def smallest(puzzle: Puzzle, wanted: object) -> tuple[Move, ...]:
    """The first sequence in move order whose outcome `wanted(outcome)` accepts."""
    return next(line for line, outcome in sequences(puzzle) if wanted(outcome))  # type: ignore[operator]


@pytest.mark.parametrize("name", PUZZLES)
def test_every_method_gives_the_smallest_optimal_witness_in_move_order(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = PUZZLES[name]
    best = min(outcome for _, outcome in sequences(puzzle))
    expected = smallest(puzzle, lambda outcome: outcome == best)
    answers = {
        "python": search.minimum(puzzle, compiled=False),
        "compiled": search.minimum(puzzle, compiled=True),
        "z3": z3_solve.minimum(puzzle),
    }
    monkeypatch.setattr(search, "available", lambda module: False)  # the core install
    answers["python, no numpy"] = search.minimum(puzzle, compiled=False)
    for path, answer in answers.items():
        assert answer.proved_optimal, path
        assert (answer.points, answer.remaining) == best, path
        assert answer.moves == expected, path


def test_at_most_and_reach_give_the_smallest_witness_too() -> None:
    puzzle = PUZZLES["two slide steps"]
    expected = smallest(puzzle, lambda outcome: outcome[0] <= 3)
    assert search.at_most(puzzle, 3).moves == expected  # type: ignore[union-attr]
    assert z3_solve.at_most(puzzle, 3).moves == expected  # type: ignore[union-attr]
    target = parse_grid("3111/3135/1435/2435")
    ending = [line for line, _ in sequences(puzzle) if replay(puzzle, line).final == target]
    assert ending and score_grid(target).points == 3
    assert search.reach(puzzle, target).moves == ending[0]  # type: ignore[union-attr]
    assert z3_solve.reach(puzzle, target).moves == ending[0]  # type: ignore[union-attr]


def test_a_fixed_first_move_keeps_its_place_in_the_settled_witness() -> None:
    puzzle = PUZZLES["two slide steps"]
    for first in first_moves(puzzle)[:3]:
        answer = search.minimum(puzzle, first=first, compiled=False)
        assert answer.moves[0] == first
        assert z3_solve.minimum(puzzle, first=first).moves == answer.moves
