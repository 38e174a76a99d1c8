"""Rules P1 and P2 (spec/rules.md): the two ways a taken card is pushed into a grid, each
checked against an independent implementation written with list slicing.

The rest of the rules are stated in tests/rules/test_rules.py, one or more tests per rule ID.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal_ref.errors import IllegalAction
from dekal_ref.notation import HOLE, Grid, Push
from dekal_ref.push import legal_pushes, push_card

values = st.integers(1, 10)
full_grids = st.lists(values, min_size=16, max_size=16).map(tuple)


# --- P: pushes ----------------------------------------------------------------------------


def slide_oracle(grid: Grid, side: str, card: int) -> Grid:
    """P1 written another way: cut the hole out of its line and add the card at the entry end."""
    rows = [list(grid[4 * r : 4 * r + 4]) for r in range(4)]
    hole = grid.index(HOLE)
    r, c = divmod(hole, 4)
    if side in ("T", "B"):
        rows = [list(col) for col in zip(*rows, strict=True)]  # transpose: columns become rows
        r, c = c, r
    line = rows[r][:c] + rows[r][c + 1 :]
    rows[r] = [card, *line] if side in ("L", "T") else [*line, card]
    if side in ("T", "B"):
        rows = [list(col) for col in zip(*rows, strict=True)]
    return tuple(v for row in rows for v in row)


def eject_oracle(grid: Grid, push: Push, card: int) -> Grid:
    """P2 on a full line written another way: shift the line, drop the far card in the hole."""
    assert push.line is not None
    cells = list(grid)
    index = push.line - 1
    line = (
        [4 * index + k for k in range(4)]
        if push.side in ("L", "R")
        else [4 * k + index for k in range(4)]
    )
    if push.side in ("R", "B"):
        line.reverse()
    out = cells[line[-1]]
    moved = [card] + [cells[c] for c in line[:-1]]
    for cell, value in zip(line, moved, strict=True):
        cells[cell] = value
    cells[grid.index(HOLE)] = out
    return tuple(cells)


@st.composite
def holed_grids(draw: st.DrawFn) -> Grid:
    grid = list(draw(full_grids))
    grid[draw(st.integers(0, 15))] = HOLE
    return tuple(grid)


def test_P1_corner_hole_allows_two_pushes_edge_three_inner_four() -> None:
    for hole in range(16):
        r, c = divmod(hole, 4)
        edges = (r in (0, 3)) + (c in (0, 3))
        assert len(legal_pushes(hole, "slide")) == 4 - edges
    assert [str(p) for p in legal_pushes(0, "slide")] == ["R", "B"]


@given(holed_grids(), values)
def test_P1_slide_matches_an_independent_implementation(grid: Grid, card: int) -> None:
    allowed = {p.side for p in legal_pushes(grid.index(HOLE), "slide")}
    for side in "LRTB":
        if side in allowed:
            assert push_card(grid, Push(side), card) == slide_oracle(grid, side, card)
        else:  # the hole touches this edge: the card would drop straight in
            with pytest.raises(IllegalAction) as caught:
                push_card(grid, Push(side), card)
            assert caught.value.rule == "P1"


@given(holed_grids(), values, st.sampled_from("LRTB"), st.integers(1, 4))
def test_P1_slide_refuses_a_line_that_is_not_the_holes(
    grid: Grid, card: int, side: str, line: int
) -> None:
    hole = grid.index(HOLE)
    own = hole // 4 + 1 if side in "LR" else hole % 4 + 1
    if line == own:
        return
    with pytest.raises(IllegalAction) as caught:
        push_card(grid, Push(side, line), card)
    assert caught.value.rule == "P1"


@given(holed_grids(), values)
def test_P2_eject_a_full_line_pushes_its_far_card_into_the_hole(grid: Grid, card: int) -> None:
    hole = grid.index(HOLE)
    pushes = legal_pushes(hole, "eject")
    r, c = divmod(hole, 4)
    assert len(pushes) == 16 - (r in (0, 3)) - (c in (0, 3))
    for push in pushes:
        after = push_card(grid, push, card, "eject")
        assert Counter(after) == Counter(grid) - Counter([HOLE]) + Counter([card])
        own = r + 1 if push.side in "LR" else c + 1
        if push.line == own:
            assert after == slide_oracle(grid, push.side, card)
        else:
            assert after == eject_oracle(grid, push, card)
    with pytest.raises(IllegalAction) as caught:
        push_card(grid, Push("L"), card, "eject")
    assert caught.value.rule == "P2"
