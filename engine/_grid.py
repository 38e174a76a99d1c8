"""One grid at a time, on tuples, through the grid words: score (S1, S2) and push (P1, P2).

These take and return the reference's types (a Grid is sixteen values, hole = 0; a Score;
a Push), so either engine can be called on the same input. The work is done by the bit
kernels (dekal.bits) and the push tables (dekal.tables).
"""

from __future__ import annotations

from dekal import bits
from dekal._game import forbidden_push, hole_of
from dekal.tables import LEGAL, STEP
from dekal_ref.errors import IllegalAction
from dekal_ref.notation import Grid, Push
from dekal_ref.scoring import Score

_BYTE_CELLS = tuple(tuple(cell for cell in range(8) if byte >> cell & 1) for byte in range(256))


def cells_of(mask16: int) -> tuple[int, ...]:
    """The cells of a compact-form set, ascending (two byte-table reads)."""
    return _BYTE_CELLS[mask16 & 0xFF] + tuple(8 + cell for cell in _BYTE_CELLS[mask16 >> 8])


def nth_cell(mask16: int, index: int) -> int:
    """The index-th cell (0-based, ascending) of a compact-form set; index < popcount."""
    low = _BYTE_CELLS[mask16 & 0xFF]
    if index < len(low):
        return low[index]
    return 8 + _BYTE_CELLS[mask16 >> 8][index - len(low)]


def cancelled_cells(grid: Grid) -> frozenset[int]:
    """S1: the cells whose card has an orthogonal neighbour of the same value."""
    return frozenset(cells_of(bits.compact(bits.cancelled(bits.pack(grid)))))


def score_grid(grid: Grid) -> Score:
    """S1 then S2 on a grid of sixteen values (a hole counts as no card)."""
    word = bits.pack(grid)
    gone = bits.cancelled(word)
    points, remaining = bits.score(word)
    return Score(
        points=points, remaining=remaining, cancelled=frozenset(cells_of(bits.compact(gone)))
    )


def push_card(grid: Grid, push: Push, card: int, variant: str = "slide") -> Grid:
    """The grid after `card` enters by `push` (P1, or P2 for the eject variant)."""
    if not 1 <= card <= 10:
        raise IllegalAction("M1", f"{card} is not a card: values are 1 to 10")
    word = bits.pack(grid)
    hole = hole_of(word)
    step = STEP[variant][hole].get(push)
    if step is None:
        raise forbidden_push(variant, hole, push)
    return bits.unpack(bits.push_grid(word, step, card))


def legal_pushes(hole: int, variant: str = "slide") -> list[Push]:
    """Every push the rules allow into a grid whose hole is `hole`, in notation order."""
    return [push for push, _ in LEGAL[variant][hole]]
