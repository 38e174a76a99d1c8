"""The 8 symmetries of the square acting on grids, face-down masks, cells and pushes.

Scoring (S1, S2) looks only at which cells share a side, and the push rules (P1, P2) only at
rows, columns and their ends; a rotation or reflection preserves all three. So a grid and
its images score the same and have corresponding legal pushes: a grid has a canonical form,
the least of its 8 images, and positions a canonical key (each seat's grid canonical).

A symmetry moves cells, so on a grid word it is a nibble permutation: done here with one
256-entry table per (symmetry, byte of the word), i.e. 8 table reads OR-ed together.
"""

from __future__ import annotations

from collections.abc import Callable

from dekal.state import FastState
from dekal_ref.notation import Push

SIZE = 4

_MAPS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda r, c: (r, c),  # identity
    lambda r, c: (c, SIZE - 1 - r),  # quarter turn clockwise
    lambda r, c: (SIZE - 1 - r, SIZE - 1 - c),  # half turn
    lambda r, c: (SIZE - 1 - c, r),  # quarter turn counter-clockwise
    lambda r, c: (r, SIZE - 1 - c),  # mirror left-right
    lambda r, c: (SIZE - 1 - r, c),  # mirror top-bottom
    lambda r, c: (c, r),  # transpose (main diagonal)
    lambda r, c: (SIZE - 1 - c, SIZE - 1 - r),  # anti-transpose
)
SYMMETRIES = range(len(_MAPS))

CELL_MAP: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        SIZE * m(cell // SIZE, cell % SIZE)[0] + m(cell // SIZE, cell % SIZE)[1]
        for cell in range(16)
    )
    for m in _MAPS
)
"""CELL_MAP[s][cell]: where symmetry s sends a cell (a permutation of 0..15)."""

# _WORD_BYTE[s][k][b]: the image under s of byte k of a grid word holding b (cells 2k, 2k+1).
_WORD_BYTE = tuple(
    tuple(
        tuple(
            ((b & 0xF) << (4 * CELL_MAP[s][2 * k])) | ((b >> 4) << (4 * CELL_MAP[s][2 * k + 1]))
            for b in range(256)
        )
        for k in range(8)
    )
    for s in SYMMETRIES
)
# _MASK_BYTE[s][k][b]: the image under s of byte k of a face-down mask (cells 8k..8k+7).
_MASK_BYTE = tuple(
    tuple(
        tuple(sum(1 << CELL_MAP[s][8 * k + i] for i in range(8) if b >> i & 1) for b in range(256))
        for k in range(2)
    )
    for s in SYMMETRIES
)


def transform_word(word: int, s: int) -> int:
    """The grid word with its cards moved by symmetry s.

    Invariant: byte k holds cells 2k and 2k+1 only, and a permutation sends distinct cells to
    distinct nibbles, so the eight table images are disjoint and OR assembles the image.
    """
    t = _WORD_BYTE[s]
    return (
        t[0][word & 0xFF] | t[1][word >> 8 & 0xFF] | t[2][word >> 16 & 0xFF]
        | t[3][word >> 24 & 0xFF] | t[4][word >> 32 & 0xFF] | t[5][word >> 40 & 0xFF]
        | t[6][word >> 48 & 0xFF] | t[7][word >> 56]
    )  # fmt: skip


def transform_mask(mask: int, s: int) -> int:
    """A 16-bit cell set (face-down mask) moved by symmetry s."""
    t = _MASK_BYTE[s]
    return t[0][mask & 0xFF] | t[1][mask >> 8]


_DIRECTION = {"L": (0, 1), "R": (0, -1), "T": (1, 0), "B": (-1, 0)}  # where an entering card heads
_SIDE_OF = {v: k for k, v in _DIRECTION.items()}


def transform_push(push: Push, s: int) -> Push:
    """The push that symmetry s makes of `push` (an entry side and, for eject, a line).

    A push is an entry cell at the edge and a direction of travel; both are mapped, and the
    image's side is read from the mapped direction, its line from the mapped entry cell.
    """
    m = _MAPS[s]
    dr, dc = _DIRECTION[push.side]
    line = 1 if push.line is None else push.line
    entry = (
        (line - 1, 0 if dc > 0 else SIZE - 1) if dr == 0 else (0 if dr > 0 else SIZE - 1, line - 1)
    )
    (r0, c0), (r1, c1) = m(*entry), m(entry[0] + dr, entry[1] + dc)
    side = _SIDE_OF[(r1 - r0, c1 - c0)]
    if push.line is None:
        return Push(side)
    return Push(side, r0 + 1 if side in ("L", "R") else c0 + 1)


def canonical_grid(word: int, down: int = 0) -> tuple[int, int, int]:
    """(word, mask, symmetry): the least (word, mask) image of a grid over the 8 symmetries."""
    return min((transform_word(word, s), transform_mask(down, s), s) for s in SYMMETRIES)


def canonical_key(state: FastState) -> tuple[object, ...]:
    """A hashable key equal for positions that differ by symmetries of individual grids.

    Each seat's grid, face-down mask and pending pick are mapped by the symmetry that makes
    the least (word, mask, pick) image; every other field is kept as it is.
    """
    seats = []
    for word, down, pick in zip(state.grids, state.down, state.picks, strict=True):
        seats.append(
            min(
                (
                    transform_word(word, s),
                    transform_mask(down, s),
                    -1 if pick is None else CELL_MAP[s][pick],
                )
                for s in SYMMETRIES
            )
        )
    return (
        state.rules, state.round, state.turn, state.phase, state.start, tuple(seats),
        state.centre, state.hand, state.pile, state.removed, state.totals,
    )  # fmt: skip
