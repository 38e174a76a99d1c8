"""Guarantee puzzles (proofs/_unknown/puzzle.py): the answer is U5's, proved, and the same
seed gives the same puzzle; `dekal puzzle --unknown` shows it and checks a reveal."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import unknown_brute as brute
from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal.proofs._unknown.position import UNKNOWN
from dekal.proofs._unknown.puzzle import guarantee_puzzle
from dekal_ref.notation import cell_name
from dekal_ref.push import legal_pushes, push_card
from dekal_ref.svg import SVG_NAMESPACE

SEED = 2  # its first draw has two unknown cells: the brute force is quick
runner = CliRunner()
NS = {"svg": SVG_NAMESPACE}


def dekal(*args: str) -> Result:
    return runner.invoke(app, list(args))


def brute_guarantee_of_reveal(grid: tuple[int, ...], unseen: dict[int, int], cell: int) -> int:
    """U5 with the first reveal fixed, on the reference engine."""
    holed = tuple(0 if c == cell else v for c, v in enumerate(grid))
    return max(
        min(
            brute.guaranteed(
                push_card(holed, push, value, "slide"), {**unseen, value: n - 1}, "slide"
            )
            for push in legal_pushes(cell, "slide")
        )
        for value, n in unseen.items()
        if n > 0
    )


def test_U5_every_first_reveal_guarantees_what_the_brute_force_finds() -> None:
    puzzle = guarantee_puzzle(SEED)
    position = puzzle.position
    assert len(position.face_down) == 2
    grid = tuple(brute.UNSEEN if v == UNKNOWN else v for v in position.grid)
    unseen = {v: position.unseen[v - 1] for v in range(1, 11)}
    for reveal in puzzle.reveals:
        assert reveal.guaranteed == brute_guarantee_of_reveal(grid, unseen, reveal.cell)
    assert puzzle.best.guaranteed == brute.guaranteed(grid, unseen, "slide")


def test_the_answer_is_the_only_reveal_with_the_least_guarantee() -> None:
    puzzle = guarantee_puzzle(SEED)
    others = [r.guaranteed for r in puzzle.reveals if r.cell != puzzle.best.cell]
    assert min(others) - puzzle.best.guaranteed == puzzle.gap >= 1


def test_the_same_seed_gives_the_same_puzzle() -> None:
    assert guarantee_puzzle(SEED).as_json() == guarantee_puzzle(SEED).as_json()


def test_the_cli_hides_the_answer_and_states_the_guarantee() -> None:
    puzzle = guarantee_puzzle(SEED)
    result = dekal("puzzle", "--unknown", "--seed", str(SEED), "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["puzzle"]["guaranteed"] == puzzle.best.guaranteed
    assert "solution" not in payload and "answer" not in payload


def test_the_best_reveal_is_right_exit_0_and_another_wrong_exit_1() -> None:
    puzzle = guarantee_puzzle(SEED)
    best = cell_name(puzzle.best.cell)
    wrong = next(r for r in puzzle.reveals if r.cell != puzzle.best.cell)
    right = dekal("puzzle", "--unknown", "--seed", str(SEED), "--answer", best, "--json")
    assert right.exit_code == 0 and json.loads(right.stdout)["answer"]["right"] is True
    result = dekal("puzzle", "--unknown", "--seed", str(SEED), "--answer", cell_name(wrong.cell))
    assert result.exit_code == 1
    assert f"guarantees only {wrong.guaranteed} points" in result.stdout


def test_T1_a_face_up_cell_is_refused_naming_the_rule() -> None:
    puzzle = guarantee_puzzle(SEED)
    up = next(c for c in range(16) if puzzle.position.grid[c] != UNKNOWN)
    result = dekal("puzzle", "--unknown", "--seed", str(SEED), "--answer", cell_name(up), "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["rule"] == "T1"


def test_variant_without_unknown_is_refused() -> None:
    result = dekal("puzzle", "1", "--variant", "eject", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["field"] == "--variant"


def test_an_eject_puzzle_is_answered_with_its_variant_in_the_hint() -> None:
    result = dekal("puzzle", "--unknown", "--seed", "5", "--variant", "eject")
    assert result.exit_code == 0, result.output
    assert "--seed 5 --variant eject --answer CELL" in result.stdout


def test_svg_draws_the_grid_with_its_unknown_cards_and_keeps_the_answer_hidden_M3(
    tmp_path: Path,
) -> None:
    found = guarantee_puzzle(SEED)
    target = tmp_path / "guarantee.svg"
    result = dekal("puzzle", "--unknown", "--seed", str(SEED), "--svg", str(target), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["svg"] == str(target)
    picture = ET.fromstring(target.read_text(encoding="utf-8"))
    cards = picture.findall(".//svg:g[@class='card']", NS)
    down = [c for c in cards if c.get("data-state") == "face-down"]
    assert [c.get("data-cell") for c in down] == [cell_name(c) for c in found.position.face_down]
    assert all(c.get("data-value") is None and c.get("data-picked") is None for c in down)
    question = picture.find(".//svg:text[@class='target']", NS)
    assert question is not None and f"guarantee {found.best.guaranteed} points" in (
        question.text or ""
    )


def test_svg_to_standard_output_with_json_is_refused_naming_the_field() -> None:
    result = dekal("puzzle", "--unknown", "--seed", str(SEED), "--svg", "-", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["field"] == "--svg"
