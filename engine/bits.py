"""The bit kernels of the optimized engine: a whole grid is one 64-bit word (rules S1, S2, P1, P2).

Layout of a *grid word*: cell i (0..15, reading order a1, b1, …, d4) is the nibble at bits
4i..4i+3, holding the card value 1..10, or 0 for the hole. Row r is bits 16r..16r+15, so the
right neighbour of a cell is 4 bits higher and the neighbour below is 16 bits higher.

Two ways to write a set of cells:
* *nibble form*: bit 4i is set for cell i, every other bit clear. The kernels produce this.
* *compact form*: bit i is set for cell i (16 bits). Face-down masks use this.

Every kernel is written ONCE, with plain operators, and runs unchanged on three kinds of word:
* a Python ``int`` (the scalar engine; always 0 <= word < 2**64, so ``>>`` is logical),
* a NumPy ``uint64`` array (the batch path; ``>>`` on unsigned arrays is logical),
* a z3 64-bit BitVec wrapped by :func:`sym` (``proofs/``): z3's own ``>>`` is an
  *arithmetic* shift, so :class:`Sym` maps ``>>`` to ``z3.LShR``. Wrap, call, read ``.bv``:
  ``bits.cancelled(bits.sym(z3.BitVec("g", 64))).bv``. Never pass a raw BitVecRef.
House rules that make this sound: every ``<<`` and ``*`` is masked with :data:`MASK64`
(a no-op on uint64 and BitVec64, a truncation on int); no Python ``if`` looks at a word's
value (only at table constants); every mask is a named module constant the proofs can import.
:func:`lshr` is the explicit logical shift for code that holds raw BitVecs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

CELLS = 16
NIBBLE = 4  # bits per cell
ROW_BITS = 16  # bits per row: four cells
MASK64 = (1 << 64) - 1
MASK16 = (1 << 16) - 1

NIBBLE_LOW = 0x1111_1111_1111_1111
"""Bit 0 of every nibble: the nibble form of the set of all 16 cells."""
NOT_LAST_COLUMN = 0x0111_0111_0111_0111
"""Nibble form of the cells of columns a–c: the cells that have a right neighbour."""
NOT_LAST_ROW = 0x0000_1111_1111_1111
"""Nibble form of the cells of rows 1–3: the cells that have a neighbour below."""
BYTE_LOW = 0x0F0F_0F0F_0F0F_0F0F
"""The low nibble of every byte."""
BYTE_ONES = 0x0101_0101_0101_0101
"""Multiplying by this adds all eight bytes into the top byte (when the sum stays < 256)."""
TOP_BYTE_SHIFT = 56  # the top byte of a word, where the BYTE_ONES multiply leaves the sum
NIBBLE_SPREAD = 0xF  # cells * NIBBLE_SPREAD turns a nibble-form set into full nibble masks
PAIRS = 0x0303_0303_0303_0303  # compact(): two cells per byte
QUADS = 0x000F_000F_000F_000F  # compact(): four cells per 16 bits
OCTETS = 0x0000_00FF_0000_00FF  # compact(): eight cells per 32 bits


class Sym:
    """A z3 64-bit BitVec with the operators the kernels use; ``>>`` is logical (z3.LShR).

    Only proofs/ and tests use it; the engine itself never imports z3.
    """

    __slots__ = ("bv",)

    def __init__(self, bv: Any) -> None:
        self.bv = bv

    def __and__(self, other: Sym | int) -> Sym:
        return Sym(self.bv & _raw(other))

    def __or__(self, other: Sym | int) -> Sym:
        return Sym(self.bv | _raw(other))

    def __xor__(self, other: Sym | int) -> Sym:
        return Sym(self.bv ^ _raw(other))

    def __add__(self, other: Sym | int) -> Sym:
        return Sym(self.bv + _raw(other))

    def __mul__(self, other: Sym | int) -> Sym:
        return Sym(self.bv * _raw(other))

    __rand__, __ror__, __rxor__, __radd__, __rmul__ = __and__, __or__, __xor__, __add__, __mul__

    def __lshift__(self, other: int) -> Sym:
        return Sym(self.bv << other)

    def __rshift__(self, other: int) -> Sym:
        import z3  # type: ignore[import-untyped]

        return Sym(z3.LShR(self.bv, other))

    def __invert__(self) -> Sym:
        return Sym(~self.bv)


def _raw(value: Sym | int) -> Any:
    return value.bv if isinstance(value, Sym) else value


def sym(bv: Any) -> Sym:
    """Wrap a z3 BitVec of width 64 so that the kernels below run on it."""
    return Sym(bv)


def lshr(x: Any, n: int) -> Any:
    """Logical right shift of a raw word: ``>>`` on int / uint64, z3.LShR on a raw BitVec."""
    if isinstance(x, int | Sym) or hasattr(x, "dtype"):  # int, Sym, numpy: >> is logical
        return x >> n
    import z3

    return z3.LShR(x, n)


Word = TypeVar("Word", int, Sym)
"""What a kernel computes on: a Python int or a Sym. A uint64 array works too at run time
(dekal.batch calls the same kernels through array-typed aliases); each kernel maps words of
one kind to words of the same kind."""


def cancelled(grid: Word) -> Word:
    """S1: nibble form of every card that shares a side with a card of equal value."""
    return cancelled_and_occupied(grid)[0]


def cancelled_and_occupied(grid: Word) -> tuple[Word, Word]:
    """(cancelled cells, cells holding a card), both in nibble form: S1 and its by-product.

    Invariants, line by line:
    * nibble i of `across` is cell i XOR cell i+1 (zero iff equal); of `down`, cell i XOR cell
      i+4. Folding each nibble onto its bit 0 (x | x>>1, then | x>>2) ORs that nibble's four
      bits into bit 4i; bits dragged down from nibble i+1 only reach bits 4i+2..4i+3.
    * `has_right` / `has_below` (bit 4i: cell i holds a card and has a right / lower
      neighbour) XOR the folded difference restricted to them keeps exactly the cards whose
      difference is zero (x ^ (d & x) is "x and not d"). Column d and row 4 are left out
      because their "neighbours" wrap to the next row / fall off the word.
    * A card is cancelled iff it equals its right, left, lower or upper neighbour: "left" is
      `right` moved one cell up (<< 4), "upper" is `below` moved one row up (<< 16); neither
      crosses a row or the top, since column d and row 4 are clear in those sets.
    * `filled` masked with NIBBLE_LOW is occupied(grid): the same fold on the grid itself.
    """
    across = grid ^ (grid >> NIBBLE)
    across = across | (across >> 1)
    across = across | (across >> 2)
    down = grid ^ (grid >> ROW_BITS)
    down = down | (down >> 1)
    down = down | (down >> 2)
    filled = grid | (grid >> 1)
    filled = filled | (filled >> 2)
    has_right = filled & NOT_LAST_COLUMN
    right = has_right ^ (across & has_right)
    has_below = filled & NOT_LAST_ROW
    below = has_below ^ (down & has_below)
    # No MASK64 needed: right ⊆ NOT_LAST_COLUMN (< bit 60) and below ⊆ NOT_LAST_ROW (< bit 48).
    return right | (right << NIBBLE) | below | (below << ROW_BITS), filled & NIBBLE_LOW


def occupied(grid: Word) -> Word:
    """Nibble form of the cells holding a card, i.e. every cell but the hole.

    Invariant: folding a nibble onto its bit 0 (as in cancelled) ORs its four bits there.
    """
    filled = grid | (grid >> 1)
    filled = filled | (filled >> 2)
    return filled & NIBBLE_LOW


def kept(grid: Word, gone: Word) -> Word:
    """The grid with the cells of `gone` (nibble form) emptied: the cards left after S1.

    Invariant: each nibble of `gone` is 0 or 1, so gone * 0xF is 0xF exactly on its cells
    (no carry crosses a nibble), and its complement keeps every other cell.
    """
    return grid & ((gone * NIBBLE_SPREAD) ^ MASK64)  # gone ⊆ NIBBLE_LOW: gone * 0xF < 2**64


def nibble_sum(x: Word) -> Word:
    """The sum of the sixteen nibbles of x: S2's points when x is a kept grid.

    Invariant: stage 1 leaves in each byte the sum of its two nibbles (≤ 30); the multiply
    by BYTE_ONES adds all eight bytes into the top byte, whose total (≤ 240) never carries out.
    """
    pairs = (x & BYTE_LOW) + ((x >> NIBBLE) & BYTE_LOW)
    return ((pairs * BYTE_ONES) & MASK64) >> TOP_BYTE_SHIFT


def cell_count(cells: Word) -> Word:
    """How many cells a nibble-form set holds (0..16); on an int, cells.bit_count() agrees.

    Invariant: adding each byte's two nibbles leaves 0..2 in the byte's low nibble; the
    BYTE_ONES multiply sums the eight bytes (≤ 16) into the top byte.
    """
    pairs = (cells + (cells >> NIBBLE)) & BYTE_LOW
    return ((pairs * BYTE_ONES) & MASK64) >> TOP_BYTE_SHIFT


def score_points(grid: Word) -> Word:
    """S1 then S2: the sum of the values left."""
    return nibble_sum(kept(grid, cancelled(grid)))


def score_remaining(grid: Word) -> Word:
    """S1 then S2: how many cards are left (cards are occupied cells; cancelled ⊆ occupied)."""
    return cell_count(occupied(grid) ^ cancelled(grid))


def score(grid: int) -> tuple[int, int]:
    """The scalar hot path: (points, cards left) of one grid word (S1, S2).

    Same kernels as score_points / score_remaining, sharing one cancellation pass; the count
    uses int.bit_count (equal to cell_count on a nibble-form set; cancelled ⊆ occupied).
    """
    gone, cards = cancelled_and_occupied(grid)
    return nibble_sum(kept(grid, gone)), (cards ^ gone).bit_count()


def compact(cells: Word) -> Word:
    """Nibble form (bit 4i) -> compact form (bit i), by four halving stages.

    Invariant: after each stage every group of 2, 4, 8, 16 cells sits contiguous at the
    bottom of its 8-, 16-, 32-, 64-bit field; a stage ORs each field's upper group down
    next to its lower group and masks away the stray copies.
    """
    x = (cells | (cells >> 3)) & PAIRS
    x = (x | (x >> 6)) & QUADS
    x = (x | (x >> 12)) & OCTETS
    return (x | (x >> 24)) & MASK16


def expand(cells16: Word) -> Word:
    """Compact form (bit i) -> nibble form (bit 4i): the exact inverse of :func:`compact`.

    Invariant: each stage moves the upper group of every field back up by the distance
    compact() moved it down, and the mask drops the unmoved copy.
    """
    x = (cells16 | ((cells16 << 24) & MASK64)) & OCTETS
    x = (x | ((x << 12) & MASK64)) & QUADS
    x = (x | ((x << 6) & MASK64)) & PAIRS
    return (x | ((x << 3) & MASK64)) & NIBBLE_LOW


@dataclass(frozen=True, slots=True)
class PushStep:
    """One push into one hole, as masks and constant shifts (P1, P2); dekal.tables builds them.

    A push moves the cards of a *chain* (entry cell first, hole last) one step along it and
    puts the new card on the entry cell. On a grid word that is:
    * `keep`: nibble masks (0xF) of the cells off the chain, which do not change;
    * `move`: nibble masks of the chain cells that step along the line, all by the same
      distance: `move_up` bits to the left or `move_down` bits to the right (the other is 0);
    * `drop`: eject's card pushed out at the far end, which goes into the hole
      (`drop_up` / `drop_down`; all 0 for a push along the hole's line);
    * `entry`: the entry cell, which receives the new card.
    `keep16`, `move16`, `drop16` are the same sets in compact form, for the face-down mask,
    and `move_up16` … `drop_down16` the same shifts in cells (the bit shifts divided by 4).
    """

    entry: int
    keep: int
    move: int
    move_up: int
    move_down: int
    drop: int
    drop_up: int
    drop_down: int
    keep16: int
    move16: int
    drop16: int
    move_up16: int
    move_down16: int
    drop_up16: int
    drop_down16: int


def push_grid(grid: Word, step: PushStep, card: Word | int) -> Word:
    """The grid word after `card` (1..10) enters by `step`.

    Invariant: keep, move's image, drop's image and the entry cell are disjoint and cover all
    sixteen nibbles (the hole, 0, is overwritten), so OR assembles the new grid exactly.
    """
    moved = (((grid & step.move) >> step.move_down) << step.move_up) & MASK64
    dropped = (((grid & step.drop) >> step.drop_down) << step.drop_up) & MASK64
    entered = (card << (NIBBLE * step.entry)) & MASK64
    return (grid & step.keep) | moved | dropped | entered


def push_face_down(down: Word, step: PushStep) -> Word:
    """The 16-bit face-down mask after the push: cards keep their face, the new one is up.

    Invariant: the permutation of push_grid on one bit per cell (shifts in cells, not bits); the
    entry cell's bit is in none of keep16, move's image, drop's image, so it ends 0 (face up).
    """
    moved = ((down & step.move16) >> step.move_down16) << step.move_up16
    dropped = ((down & step.drop16) >> step.drop_down16) << step.drop_up16
    return (down & step.keep16) | moved | dropped


_BYTE_NIBBLES = tuple((byte & 0xF, byte >> 4) for byte in range(256))


def pack(values: Sequence[int]) -> int:
    """Sixteen values 0..15 in reading order (hole = 0) -> a grid word.

    Invariant: byte k of the word holds cells 2k (low nibble) and 2k+1 (high nibble), so the
    word is the little-endian reading of those eight bytes.
    """
    v = values
    return int.from_bytes(
        bytes(
            (
                v[0] | v[1] << 4, v[2] | v[3] << 4, v[4] | v[5] << 4, v[6] | v[7] << 4,
                v[8] | v[9] << 4, v[10] | v[11] << 4, v[12] | v[13] << 4, v[14] | v[15] << 4,
            )
        ),
        "little",
    )  # fmt: skip


def unpack(word: int) -> tuple[int, ...]:
    """A grid word -> sixteen values in reading order (two nibbles per byte, by table)."""
    b0, b1, b2, b3, b4, b5, b6, b7 = map(_BYTE_NIBBLES.__getitem__, word.to_bytes(8, "little"))
    return b0 + b1 + b2 + b3 + b4 + b5 + b6 + b7
