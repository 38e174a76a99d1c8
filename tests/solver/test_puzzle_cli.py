"""`dekal puzzle`: choosing a bundled puzzle, checking an answer, the solution, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal.proofs._puzzle_rating import LEVELS
from dekal.proofs._replay import replay
from dekal.proofs.puzzle_set import load_puzzles
from dekal_ref.notation import CELLS, cell_name, parse_grid

runner = CliRunner()
PUZZLES = load_puzzles()
FIRST = PUZZLES[0]


def dekal(*args: str) -> Result:
    return runner.invoke(app, list(args))


def test_a_puzzle_by_number_shows_its_grid_cards_and_target_not_its_answer() -> None:
    result = dekal("puzzle", "1")
    assert result.exit_code == 0, result.output
    assert f"Puzzle 1 of {len(PUZZLES)}" in result.stdout
    assert f"ends with {FIRST.best.points} points" in result.stdout
    shown = [line for line in result.stdout.splitlines() if not line.startswith("answer with")]
    assert str(FIRST.best.move) not in "\n".join(shown)


def test_json_names_the_puzzle_in_notation_and_keeps_the_answer_back() -> None:
    payload = json.loads(dekal("puzzle", "1", "--json").stdout)
    assert payload["id"] == "puzzle-001" and payload["number"] == 1
    assert parse_grid(payload["puzzle"]["grid"]) == FIRST.puzzle.grid
    assert payload["rating"] == FIRST.rating.as_json()
    assert "solution" not in payload and "answer" not in payload


def test_the_best_first_move_is_right_exit_0() -> None:
    result = dekal("puzzle", "1", "--answer", str(FIRST.best.move), "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)["answer"]
    assert answer["right"] is True and answer["score"] == FIRST.best.points


def test_another_legal_first_move_is_wrong_exit_1_with_its_optimum() -> None:
    wrong = FIRST.ranking[-1]
    result = dekal("puzzle", "1", "--answer", str(wrong.move))
    assert result.exit_code == 1
    assert f"wrong: after {wrong.move} the best you can still reach is {wrong.points}" in (
        result.stdout
    )
    payload = json.loads(dekal("puzzle", "1", "--answer", str(wrong.move), "--json").stdout)
    assert payload["answer"]["right"] is False
    assert payload["answer"]["score"] == wrong.points > FIRST.best.points


def test_revealing_a_face_up_card_is_illegal_t1_exit_2() -> None:
    face_up = next(cell for cell in CELLS if cell not in FIRST.puzzle.face_down)
    result = dekal("puzzle", "1", "--answer", f"{cell_name(face_up)}:L", "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert (error["kind"], error["rule"], error["field"]) == ("illegal", "T1", "--answer")


def _straight_into_the_hole(cell: int) -> str | None:
    """The slide push that would drop the card straight into a hole at `cell` (an edge)."""
    column, row = cell % 4, cell // 4
    sides = {"L": column == 0, "R": column == 3, "T": row == 0, "B": row == 3}
    return next((side for side, on_edge in sides.items() if on_edge), None)


def test_a_push_the_rules_forbid_is_illegal_p1_exit_2() -> None:
    number, cell, push = next(
        (rated.number, cell, push)
        for rated in PUZZLES
        if rated.puzzle.variant == "slide"
        for cell in sorted(rated.puzzle.face_down)
        if (push := _straight_into_the_hole(cell)) is not None
    )
    result = dekal("puzzle", str(number), "--answer", f"{cell_name(cell)}:{push}", "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert (error["kind"], error["rule"], error["field"]) == ("illegal", "P1", "--answer")


def test_an_eject_answer_must_name_its_line_p2_exit_2() -> None:
    eject = next(rated for rated in PUZZLES if rated.puzzle.variant == "eject")
    side = str(eject.best.move).split(":")[1][0]
    cell = cell_name(eject.best.move.reveal)
    result = dekal("puzzle", str(eject.number), "--answer", f"{cell}:{side}", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["rule"] == "P2"


@pytest.mark.parametrize("text", ["d1", "d1:X", "z9:L", ""])
def test_a_malformed_answer_names_the_field_exit_2(text: str) -> None:
    result = dekal("puzzle", "1", "--answer", text, "--json")
    assert result.exit_code == 2
    assert "--answer" in json.loads(result.stdout)["error"]["message"]


def test_the_solution_replays_to_the_optimum() -> None:
    payload = json.loads(dekal("puzzle", "1", "--solution", "--json").stdout)
    solution = payload["solution"]
    assert solution["best"] == str(FIRST.best.move) == solution["line"][0]
    outcome = replay(FIRST.puzzle, FIRST.line)
    assert (outcome.points, outcome.remaining) == tuple(payload["optimum"].values())
    text = dekal("puzzle", "1", "--solution").stdout
    assert f"solution: {FIRST.best.move}" in text and "final, scored" in text


@pytest.mark.parametrize("level", LEVELS)
def test_rating_chooses_a_puzzle_of_that_level(level: str) -> None:
    payload = json.loads(dekal("puzzle", "--rating", level, "--json").stdout)
    assert payload["rating"]["level"] == level
    first = next(rated for rated in PUZZLES if rated.rating.level == level)
    assert payload["number"] == first.number


def test_random_with_a_seed_is_reproducible_and_keeps_to_the_level() -> None:
    picks = {
        json.loads(dekal("puzzle", "--random", "--seed", "3", "--json").stdout)["number"]
        for _ in range(2)
    }
    assert len(picks) == 1
    for seed in range(5):
        args = ("puzzle", "--random", "--seed", str(seed), "--rating", "hard", "--json")
        assert json.loads(dekal(*args).stdout)["rating"]["level"] == "hard"


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["0"], "NUMBER"),
        ([str(len(PUZZLES) + 1)], "NUMBER"),
        (["--rating", "impossible"], "--rating"),
        (["--seed", "3"], "--seed"),
        (["1", "--random"], "NUMBER"),
        (["--svg", "-", "--json"], "--svg"),
    ],
)
def test_bad_options_name_their_field_exit_2(args: list[str], field: str) -> None:
    result = dekal("puzzle", *args, "--json")
    assert result.exit_code == 2, result.output
    assert json.loads(result.stdout)["error"]["field"] == field


def test_svg_draws_the_puzzle_grid_with_its_face_down_cards(tmp_path: Path) -> None:
    target = tmp_path / "puzzle.svg"
    result = dekal("puzzle", "1", "--svg", str(target))
    assert result.exit_code == 0, result.output
    picture = target.read_text("utf-8")
    assert picture.count('data-state="face-down"') == len(FIRST.puzzle.face_down)


def test_random_without_a_seed_still_keeps_to_the_level() -> None:
    payload = json.loads(dekal("puzzle", "--random", "--rating", "easy", "--json").stdout)
    assert payload["rating"]["level"] == "easy"
