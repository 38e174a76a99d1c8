"""The puzzle model and the reference replay gate (proofs.puzzle, proofs.replay)."""

from __future__ import annotations

import pytest

from dekal.proofs._replay import WitnessError, certify, replay
from dekal.proofs.puzzle import Move, PuzzleError, make_puzzle, parse_cards, parse_cells
from dekal_ref.errors import DekalError
from dekal_ref.notation import Push, parse_cell, parse_grid
from dekal_ref.scoring import score_grid

GRID = parse_grid("1112/3131/1435/2435")


def test_parse_cards_and_cells() -> None:
    assert parse_cards("7,3,T") == (7, 3, 10)
    assert parse_cards("7 10 1") == (7, 10, 1)
    assert parse_cells("a1,b3, d4") == frozenset({0, 9, 15})
    assert parse_cells("all") == frozenset(range(16))
    assert parse_cells("none") == frozenset()
    with pytest.raises(PuzzleError, match="incoming"):
        parse_cards("7,0")
    with pytest.raises(PuzzleError, match="incoming"):
        parse_cards("")
    with pytest.raises(PuzzleError, match="face-down"):
        parse_cells("e5")


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"incoming": (5,), "face_down": frozenset()}, "face-down"),
        ({"incoming": (5, 3, 3), "face_down": frozenset({0, 1})}, "turns"),
        ({"incoming": (11,)}, "incoming"),
        ({"incoming": (0,)}, "incoming"),
        ({"incoming": ()}, "turns"),
        ({"incoming": None, "face_down": frozenset({3}), "turns": 2}, "turns"),
        ({"incoming": (5, 3), "turns": 3}, "turns"),
        ({"incoming": (5,), "variant": "diagonal"}, "variant"),
    ],
)
def test_puzzles_without_a_legal_answer_are_refused(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(PuzzleError) as error:
        make_puzzle(GRID, **kwargs)  # type: ignore[arg-type]
    assert error.value.field == field


def test_a_grid_with_a_hole_is_refused() -> None:
    with pytest.raises(PuzzleError, match="hole"):
        make_puzzle(parse_grid("1112/3.31/1435/2435"), incoming=(5,))


def test_solo_turns_default_to_every_face_down_card() -> None:
    puzzle = make_puzzle(GRID, face_down=frozenset({0, 5, 9}))
    assert puzzle.solo and puzzle.turns == 3


def test_replay_follows_the_reference_engine_step_by_step() -> None:
    puzzle = make_puzzle(GRID, incoming=(5, 3))
    moves = [Move(parse_cell("a2"), Push("R")), Move(parse_cell("a4"), Push("T"))]
    outcome = replay(puzzle, moves)
    # a2 (3) leaves; 5 enters row 2 from the right: 1,3,1 slide left into the hole.
    assert outcome.frames[1].grid == parse_grid("1112/1315/1435/2435")
    assert outcome.frames[2].grid == parse_grid("3112/1315/1435/1435")
    assert outcome.points == score_grid(outcome.final).points
    # the inserted cards are face up, the moved face-down cards stay face down
    assert parse_cell("d2") not in outcome.frames[1].face_down
    assert parse_cell("c2") in outcome.frames[1].face_down
    assert parse_cell("a2") in outcome.frames[1].face_down  # b2's card moved there


def test_solo_reinserts_the_revealed_card() -> None:
    puzzle = make_puzzle(GRID, turns=1)
    outcome = replay(puzzle, [Move(parse_cell("d1"), Push("B"))])
    assert outcome.frames[1].card == 2
    assert sorted(outcome.final) == sorted(GRID)


def test_replay_refuses_a_face_up_reveal_and_certify_catches_false_claims() -> None:
    puzzle = make_puzzle(GRID, incoming=(5, 3), face_down=frozenset({4, 12, 13}))
    with pytest.raises(DekalError, match="not face down"):
        replay(puzzle, [Move(0, Push("R")), Move(12, Push("T"))])
    moves = [Move(4, Push("R")), Move(12, Push("T"))]
    real = replay(puzzle, moves)
    with pytest.raises(WitnessError):
        certify(puzzle, moves, real.points - 1, real.remaining)
    with pytest.raises(WitnessError):
        certify(puzzle, [Move(4, Push("L")), Move(12, Push("T"))], 0, 0)  # L enters the hole
    assert certify(puzzle, moves, real.points, real.remaining) == real
