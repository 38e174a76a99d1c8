"""End-of-round scoring of one grid (rules S1, S2).

S1: every card that shares a side with a card of equal value is removed (corners do not
count). That is the same as removing every orthogonally connected group of two or more equal
cards. S2: the score is the sum of the values left; cards left is how many remain.
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal_ref.notation import HOLE, SIZE, Grid, cell_at, column_of, row_of


def neighbours(cell: int) -> list[int]:
    """The cells that share a side with `cell` (no diagonals)."""
    row, column = row_of(cell), column_of(cell)
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    return [
        cell_at(row + dr, column + dc)
        for dr, dc in steps
        if 0 <= row + dr < SIZE and 0 <= column + dc < SIZE
    ]


def cancelled_cells(grid: Grid) -> frozenset[int]:
    """S1: the cells whose card has an orthogonal neighbour of the same value."""
    return frozenset(
        cell
        for cell, value in enumerate(grid)
        if value != HOLE and any(grid[other] == value for other in neighbours(cell))
    )


@dataclass(frozen=True)
class Score:
    """The result of scoring one grid: points (S2), cards left (S2), cells removed (S1)."""

    points: int
    remaining: int
    cancelled: frozenset[int]


def score_grid(grid: Grid) -> Score:
    """S1 then S2. A hole (only in a grid that is not final) counts as no card."""
    cancelled = cancelled_cells(grid)
    left = [value for cell, value in enumerate(grid) if value != HOLE and cell not in cancelled]
    return Score(points=sum(left), remaining=len(left), cancelled=cancelled)
