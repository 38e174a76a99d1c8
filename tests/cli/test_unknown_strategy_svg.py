"""`dekal solve GRID --unknown --svg FILE`: the strategy table drawn (U7), the file replaced
whole, refusals naming the field."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from xml.etree import ElementTree as ET

from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal.proofs._unknown.position import make_unknown
from dekal.proofs._unknown.search import solve
from dekal_ref.svg import SVG_NAMESPACE

runner = CliRunner()
EXAMPLE = ("T133/1?11/?231/2231", "1,1,T")
NS = {"svg": SVG_NAMESPACE}


def dekal(*args: str) -> Result:
    return runner.invoke(app, list(args))


def drawn(tmp_path: Path) -> ET.Element:
    grid, unseen = EXAMPLE
    target = tmp_path / "strategy.svg"
    result = dekal("solve", grid, "--unknown", "--unseen", unseen, "--svg", str(target))
    assert result.exit_code == 0, result.output
    return ET.fromstring(target.read_text(encoding="utf-8"))


def test_U7_one_row_per_value_that_can_come_with_the_searchs_push_and_value(
    tmp_path: Path,
) -> None:
    grid, unseen = EXAMPLE
    first = solve(make_unknown(grid, unseen=unseen)).expected_first
    rows = drawn(tmp_path).findall(".//svg:g[@class='strategy-row']", NS)
    assert [
        (int(r.get("data-value", "")), r.get("data-push"), Fraction(r.get("data-after", "")))
        for r in rows
    ] == [(v, str(p), after) for v, p, after in first.push_by_value]
    assert [Fraction(r.get("data-chance", "")) for r in rows] == [Fraction(2, 3), Fraction(1, 3)]


def test_the_cell_to_reveal_is_picked_and_no_face_down_value_is_drawn_M3(tmp_path: Path) -> None:
    cards = drawn(tmp_path).findall(".//svg:g[@class='card']", NS)
    picked = [c.get("data-cell") for c in cards if c.get("data-picked") == "true"]
    assert picked == ["b2"]
    down = [c for c in cards if c.get("data-state") == "face-down"]
    assert [c.get("data-cell") for c in down] == ["b2", "a3"]
    assert all(c.get("data-value") is None for c in down)


def test_the_svg_replaces_an_existing_file_whole_and_json_names_it(tmp_path: Path) -> None:
    grid, unseen = EXAMPLE
    target = tmp_path / "old.svg"
    target.write_text("x" * 100_000, encoding="utf-8")
    result = dekal("solve", grid, "--unknown", "--unseen", unseen, "--svg", str(target), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["svg"] == str(target)
    text = target.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "x" * 10 not in text
    assert "reveal b2 first" in text


def test_svg_without_unknown_is_refused_naming_the_field() -> None:
    result = dekal("solve", "1112/3131/1435/2435", "--svg", "x.svg", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["field"] == "--svg"


def test_an_svg_into_a_missing_folder_is_refused_before_the_work(tmp_path: Path) -> None:
    grid, unseen = EXAMPLE
    missing = tmp_path / "no" / "such" / "s.svg"
    result = dekal("solve", grid, "--unknown", "--unseen", unseen, "--svg", str(missing), "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["field"] == "--svg"
