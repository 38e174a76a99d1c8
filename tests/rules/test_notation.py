"""Specification of the grid, cell and push notation (spec/notation.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal_ref.errors import NotationError
from dekal_ref.notation import (
    CELL_NAMES,
    Push,
    format_grid,
    parse_cell,
    parse_grid,
    parse_push,
)

values = st.integers(min_value=1, max_value=10)
full_grids = st.lists(values, min_size=16, max_size=16).map(tuple)


def test_a1_is_the_top_left_cell_and_d4_the_bottom_right() -> None:
    assert parse_cell("a1") == 0
    assert parse_cell("d1") == 3
    assert parse_cell("a2") == 4
    assert parse_cell("d4") == 15
    assert CELL_NAMES[9] == "b3"


def test_ten_is_written_T_and_the_hole_a_dot() -> None:
    assert parse_grid("T...".replace("...", "123") + "/1111/1111/1111")[0] == 10
    assert parse_grid("5T32/1.44/9999/TT11")[5] == 0


@given(full_grids)
def test_grid_notation_round_trips(grid: tuple[int, ...]) -> None:
    assert parse_grid(format_grid(grid)) == grid


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("5T32/1444/9999", "3 rows"),
        ("5T32/14444/9999/TT11", "row 2"),
        ("5T32/1404/9999/TT11", "cell c2"),
        ("5T32/1..4/9999/TT11", "2 holes"),
        ("", "rows"),
    ],
)
def test_malformed_grids_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_grid(text)
    assert caught.value.field == "grid"
    assert fragment in str(caught.value)


def test_pushes_are_a_side_and_an_optional_line() -> None:
    assert parse_push("L") == Push("L")
    assert parse_push("t4") == Push("T", 4)
    assert str(Push("B", 2)) == "B2"


@pytest.mark.parametrize("text", ["", "X", "L5", "L22", "D"])
def test_malformed_pushes_are_refused(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_push(text)
    assert caught.value.field == "push"


@pytest.mark.parametrize("text", ["e1", "a5", "a0", "b", "11"])
def test_cells_off_the_grid_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_cell(text)
