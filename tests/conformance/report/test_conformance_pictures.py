"""Pictures of a divergence (conformance/report/_pictures.py): only what differs is drawn, a cell
that differs carries a `*`, a cancelled cell is bracketed, a result is a table of seats."""

from __future__ import annotations

import json

from dekal.conformance.report._pictures import (
    grids_picture,
    positions_picture,
    result_picture,
)

PILE = "196841T3124437198489619715735T6224431664T72T552675887783T13856159643"
GRIDS = "eidh/.cbj/dbhb/bigi|ebfc/.gje/gjaj/fcji"


def position(phase: str = "take@0", grids: str = GRIDS) -> str:
    return f"slide/lowest/single 1.1 {phase} 0 {grids} -,- 89 {PILE} - 0,0"


def test_a_position_that_differs_only_in_its_phase_draws_no_grid() -> None:
    picture = positions_picture(position("take@0"), position("take@1"))
    assert "phase  take@0 | take@1" in picture and "grids: the same on both sides" in picture
    assert "seat 0, expected" not in picture


def test_a_grid_that_differs_is_drawn_with_the_differing_cells_starred() -> None:
    moved = GRIDS.replace("eidh/.cbj", ".idh/ecbj")
    picture = positions_picture(position(), position(grids=moved))
    assert "seat 0, expected" in picture
    starred = [line for line in picture.splitlines() if "*" in line and not line.startswith("(")]
    assert len(starred) == 2  # rows 1 and 2: a1 and a2 swapped
    assert "(* a cell that differs; ·7 a face-down 7; . the hole)" in picture.splitlines()


def test_cancelled_cells_are_bracketed_on_each_side() -> None:
    picture = grids_picture("1212/2121/1212/2121", "1212/2121/1212/2121", ((), ("a1",)))
    first_row = picture.splitlines()[2]
    assert first_row.count("[") == 1 and "[1]" in first_row


def test_a_result_is_a_table_of_every_seat_with_the_ranking_both_ways() -> None:
    score = {"points": 31, "remaining": 7, "cancelled": []}
    expected = {
        "scores": [score, {**score, "remaining": 8}],
        "totals": [31, 31],
        "ranking": [[1, 0], [2, 1]],
    }
    actual = {**expected, "ranking": [[1, 1], [2, 0]]}
    lines = result_picture(json.dumps(expected), json.dumps(actual)).splitlines()
    assert lines[1].split() == ["seat", "points", "cards", "total", "points", "cards", "total"]
    assert lines[2].split() == ["0", "31", "7", "31", "31", "7", "31"]
    assert lines[3].split() == ["1", "31", "8", "31", "31", "8", "31"]  # same scores: no star
    assert lines[4] == "ranking, expected: 1. seat 0, 2. seat 1"
    assert lines[5] == "ranking, engine:   1. seat 1, 2. seat 0"
