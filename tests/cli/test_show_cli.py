"""`dekal show` and `dekal replay --svg`: the pictures from the command line (text, SVG, JSON)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree as ET

from typer.testing import CliRunner, Result

import dekal_ref
from dekal.cli._app import app
from dekal.cli._pictures import grid_picture, seat_picture, side_by_side
from dekal_ref.notation import CELL_NAMES

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"
GRID = "5T32/1444/9999/TT11"
DEAL = dekal_ref.new_game(dekal_ref.Rules(players=2), dekal_ref.seeded_deal(42, 2))
AFTER_TAKE = dekal_ref.format_position(
    dekal_ref.apply(
        dekal_ref.apply(
            dekal_ref.apply(DEAL, dekal_ref.parse_action("reveal 0 c1")),
            dekal_ref.parse_action("reveal 1 a1"),
        ),
        dekal_ref.parse_action("take 0 1"),
    )
)


def dekal(*args: str) -> Result:
    return runner.invoke(app, list(args))


def test_show_draws_a_grid_as_text_with_its_cancelled_cards_in_brackets() -> None:
    shown = dekal("show", GRID)
    assert shown.exit_code == 0
    assert "  3 [9] [9] [9] [9]" in shown.output.splitlines()
    assert "score 21, 5 cards left" in shown.output


def test_show_svg_to_stdout_is_the_picture_titled_with_the_grid() -> None:
    shown = dekal("show", GRID, "--svg", "-")
    root = ET.fromstring(shown.output)
    assert root.findtext(f"{SVG}title") == f"grid {GRID}"


def test_show_svg_to_a_file_writes_it_and_says_so(tmp_path: Path) -> None:
    target = tmp_path / "grid.svg"
    shown = dekal("show", GRID, "--svg", str(target))
    assert shown.exit_code == 0 and shown.output.strip() == f"wrote {target}"
    assert ET.parse(target).getroot().findtext(f"{SVG}title") == f"grid {GRID}"


def test_show_json_lists_every_cell_with_the_state_s1_gives_it() -> None:
    payload = json.loads(dekal("show", GRID, "--json").output)
    cancelled = {cell["cell"] for cell in payload["cells"] if cell["state"] == "cancelled"}
    grid = dekal_ref.parse_grid(GRID)
    assert cancelled == {CELL_NAMES[c] for c in dekal_ref.cancelled_cells(grid)}
    assert [cell["value"] for cell in payload["cells"]] == list(grid)


def test_m3_show_public_draws_a_position_without_its_face_down_values() -> None:
    shown = dekal("show", AFTER_TAKE, "--public")
    assert shown.exit_code == 0
    assert re.findall(r"\(\w\)", shown.output) == []  # no (x): a face-down value
    assert "?" in shown.output
    payload = json.loads(dekal("show", AFTER_TAKE, "--public", "--json").output)
    for seat in payload["seats"]:
        for cell in seat["cells"]:
            assert cell["state"] != "face-down" or "value" not in cell


def test_show_full_view_marks_face_down_cards_and_the_hole() -> None:
    shown = dekal("show", AFTER_TAKE).output
    assert "(x) face down" in shown and ". the hole" in shown


def test_public_applies_to_positions_only_one_line_error() -> None:
    shown = dekal("show", GRID, "--public")
    assert shown.exit_code == 2
    assert shown.stderr.strip().splitlines() == [
        "error: --public hides face-down cards: it applies to a position, and a grid has none"
    ]


def test_a_malformed_grid_is_refused_naming_the_field() -> None:
    shown = dekal("show", "5T32/1444/9999")
    assert shown.exit_code == 2 and "malformed grid" in shown.stderr


def test_replay_svg_writes_one_picture_per_step(tmp_path: Path) -> None:
    folder = tmp_path / "steps"
    shown = dekal("replay", "two-players-first-tie", "--quiet", "--svg", str(folder))
    assert shown.exit_code == 0
    summary = json.loads(dekal("replay", "two-players-first-tie", "--json").output)
    pictures = sorted(folder.glob("step-*.svg"))
    titles = [ET.parse(p).getroot().findtext(f"{SVG}title") or "" for p in pictures]
    assert titles[0].startswith("step deal: position ")
    assert titles[-1].endswith(summary["position"])
    assert all(" position " in title for title in titles)


def test_pictures_go_side_by_side_when_they_fit_else_one_under_another() -> None:
    one = grid_picture(dekal_ref.parse_grid("1111/2222/3333/4444"), title="  seat 0")
    two = grid_picture(dekal_ref.parse_grid("5T32/1444/9999/TT11"), title="  seat 1")
    wide = side_by_side([one, two], width=80).plain.splitlines()
    assert wide[0].split() == ["seat", "0", "seat", "1"]
    rows = zip(wide, one.plain.splitlines(), two.plain.splitlines(), strict=True)
    for joined, left, right in rows:
        assert joined.startswith(left) and joined.endswith(right.strip())
    narrow = side_by_side([one, two], width=30).plain
    assert narrow == one.plain + "\n" + two.plain


def test_svg_to_a_folder_that_does_not_exist_is_one_line_error(tmp_path: Path) -> None:
    shown = dekal("show", GRID, "--svg", str(tmp_path / "missing" / "grid.svg"))
    assert shown.exit_code == 2
    assert shown.stderr.startswith("error: ") and len(shown.stderr.splitlines()) == 1
    assert "'--svg'" in shown.stderr and "does not exist" in shown.stderr


def test_svg_to_stdout_and_json_cannot_share_standard_output() -> None:
    shown = dekal("show", GRID, "--svg", "-", "--json")
    # under --json the refusal is itself the one JSON object on standard output
    assert shown.exit_code == 2 and "choose one" in json.loads(shown.stdout)["error"]["message"]


def test_six_seats_fill_rows_as_wide_as_the_terminal() -> None:
    state = dekal_ref.new_game(dekal_ref.Rules(players=6), dekal_ref.seeded_deal(3, 6))
    seats = [seat_picture(state, seat, public=True) for seat in range(6)]
    titles = [
        line.split()
        for line in side_by_side(seats, width=80).plain.splitlines()
        if line.strip().startswith("seat")
    ]
    assert titles == [
        ["seat", "0", "seat", "1", "seat", "2"],
        ["seat", "3", "seat", "4", "seat", "5"],
    ]
