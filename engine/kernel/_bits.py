"""The compiled kernel's primitives: SplitMix64, seeded shuffles, grid words (M3, P1, P2, S1, S2).

The same algorithms as dekal_ref.deal, dekal.draws and dekal.bits, compiled by numba. Every
word is a NumPy uint64 and every constant a uint64 made from the Python module's constant
(numba turns int64 op uint64 into float64, which would silently lose bits): a shift by a
literal keeps uint64, `word & 0xF` (a literal) gives a small int64, which is what cell values
want. Grid words and face-down masks are laid out as in dekal.bits.

numba over the alternatives: Cython and cffi need a compiler and a build step at install
time, and pure NumPy cannot vectorise a game whose every decision depends on the last one.
"""

from __future__ import annotations

from dekal import bits, draws
from dekal.extras import needed
from dekal.kernel._cache import compiled
from dekal.kernel._tables import (
    DROP,
    DROP16,
    DROP_DOWN,
    DROP_DOWN16,
    DROP_UP,
    DROP_UP16,
    ENTRY,
    KEEP,
    KEEP16,
    MOVE,
    MOVE16,
    MOVE_DOWN,
    MOVE_DOWN16,
    MOVE_UP,
    MOVE_UP16,
)
from dekal_ref.deal import DECK

with needed("the compiled game kernel (dekal.kernel)"):
    import numpy as np
    from numpy.typing import NDArray

U = np.uint64
GOLDEN_GAMMA = U(draws.GOLDEN_GAMMA)  # SplitMix64's increment (dekal_ref.deal)
MIX_1 = U(0xBF58476D1CE4E5B9)  # SplitMix64's two multipliers (spec/rules.md, Seeded deals)
MIX_2 = U(0x94D049BB133111EB)
SEAT_GAMMA = U(draws.SEAT_GAMMA)
UNIT_53 = 2.0**-53  # Draws.below: the top 53 bits of an output as a fraction of 1
DRAWS_PER_DEAL = len(DECK) - 1  # Fisher–Yates over 100 cards: one draw for i = 99 … 1
SORTED_DECK = np.array(DECK, np.int64)

NIBBLE_LOW = U(bits.NIBBLE_LOW)
NOT_LAST_COLUMN = U(bits.NOT_LAST_COLUMN)
NOT_LAST_ROW = U(bits.NOT_LAST_ROW)
BYTE_LOW = U(bits.BYTE_LOW)
BYTE_ONES = U(bits.BYTE_ONES)
NIBBLE_SPREAD = U(bits.NIBBLE_SPREAD)
PAIRS = U(bits.PAIRS)
QUADS = U(bits.QUADS)
OCTETS = U(bits.OCTETS)
CELL_MASK = U(0xF)


@compiled
def mixed(state: np.uint64) -> np.uint64:
    """SplitMix64's output for a generator state already advanced by the gamma (scalars only:
    the game loop keeps no array reference for it, so no reference count per draw)."""
    z = (state ^ (state >> 30)) * MIX_1
    z = (z ^ (z >> 27)) * MIX_2
    return U(z ^ (z >> 31))


@compiled
def next_output(streams: NDArray[np.uint64], which: int) -> np.uint64:
    """SplitMix64.next() on the generator state streams[which] (advanced in place)."""
    state = streams[which] + GOLDEN_GAMMA  # uint64 + uint64 wraps mod 2**64, as the spec says
    streams[which] = state
    return mixed(state)


@compiled
def scaled(output: np.uint64, k: int) -> int:
    """Draws.below(k) of one SplitMix64 output: int(top 53 bits * 2**-53 * k).

    One multiply where Draws.below has two: top * 2**-53 and k * 2**-53 are both exact (an
    integer below 2**53 scaled by a power of two), so (top * 2**-53) * k and top * (k * 2**-53)
    are the same real product rounded once, to the same double; it takes one multiply off
    every draw's chain of latencies."""
    top = np.float64(output >> 11)  # < 2**53: converts exactly
    return int(top * (k * UNIT_53))


@compiled
def below(streams: NDArray[np.uint64], which: int, k: int) -> int:
    """Draws.below(k) on stream `which`."""
    return scaled(next_output(streams, which), k)


@compiled
def seat_seed(seed: np.uint64, seat: int) -> np.uint64:
    """dekal.draws.seat_seed: the seed xor (seat + 1) * SEAT_GAMMA, wrapping mod 2**64."""
    return seed ^ (U(seat + 1) * SEAT_GAMMA)


@compiled
def seed_streams(streams: NDArray[np.uint64], seed: np.uint64, players: int, dealt: int) -> None:
    """The streams of a game seeded `seed` after `dealt` rounds were dealt: streams[0] the deal
    stream, streams[1 + s] seat s's draws (dekal.draws)."""
    streams[0] = seed + U(DRAWS_PER_DEAL * dealt) * GOLDEN_GAMMA  # m next() calls add m * gamma
    for seat in range(players):
        streams[1 + seat] = seat_seed(seed, seat)


@compiled
def shuffle(deck: NDArray[np.int64], streams: NDArray[np.uint64], which: int) -> None:
    """dekal_ref.deal.shuffled_deck into `deck`: Fisher–Yates of the sorted deck (M3)."""
    deck[:] = SORTED_DECK
    for i in range(len(deck) - 1, 0, -1):
        j = int(next_output(streams, which) % U(i + 1))  # uint64 % uint64: no float detour
        deck[i], deck[j] = deck[j], deck[i]


@compiled
def pack(deck: NDArray[np.int64], first: int) -> np.uint64:
    """The grid word of the sixteen cards deck[first : first + 16], in reading order (M3)."""
    word = U(0)
    for cell in range(16):
        word |= U(deck[first + cell]) << U(4 * cell)
    return word


@compiled
def cell_value(word: np.uint64, cell: int) -> int:
    """The value in `cell` of a grid word (0: the hole)."""
    return int((word >> U(4 * cell)) & CELL_MASK)


@compiled
def cleared(word: np.uint64, cell: int) -> np.uint64:
    """The word with `cell` emptied (the hole a reveal leaves, T1)."""
    return word & ~(CELL_MASK << U(4 * cell))


LOWEST_BIT_CELL = np.zeros(32, np.int64)
for _cell in range(32):  # de Bruijn: (2**c * B) mod 2**32 >> 27 differs for every c < 32
    LOWEST_BIT_CELL[((1 << _cell) * 0x077CB531 & 0xFFFFFFFF) >> 27] = _cell


@compiled
def first_cell(mask16: int) -> int:
    """The lowest cell of a non-empty compact-form set (de Bruijn multiply of its lowest bit)."""
    lowest = mask16 & -mask16
    return int(LOWEST_BIT_CELL[((lowest * 0x077CB531) & 0xFFFFFFFF) >> 27])


BYTE_CELLS = np.array([bin(byte).count("1") for byte in range(256)], np.int64)
"""BYTE_CELLS[b]: how many cells the 8-cell set b holds."""
BYTE_SELECT = np.array(
    [
        [([c for c in range(8) if byte >> c & 1] + [0] * 8)[k] for k in range(8)]
        for byte in range(256)
    ],
    np.int64,
)
"""BYTE_SELECT[b, k]: the k-th cell (ascending) of the 8-cell set b (0 past its last)."""


@compiled
def nth_cell(mask16: int, index: int) -> int:
    """The index-th cell (from 0, ascending) of a compact-form set: two table reads in place
    of a loop (the low byte's cells come first: index below their count picks among them,
    else it picks among the high byte's, counted from 8)."""
    low = mask16 & 0xFF
    below_ = BYTE_CELLS[low]
    # Branch-free (the index is a random draw, so a branch on it is mispredicted half the
    # time): both reads are made in range, `high` is 0 or 1 and picks one by arithmetic.
    high = int(index >= below_)
    in_low = int(BYTE_SELECT[low, index & 7])  # past the low byte's count: unused
    in_high = 8 + int(BYTE_SELECT[(mask16 >> 8) & 0xFF, (index - below_) & 7])
    return in_low + high * (in_high - in_low)


@compiled
def cell_total(mask16: int) -> int:
    """How many cells a compact-form set holds (SWAR popcount of 16 bits: pairs, nibbles,
    bytes, then the two bytes added)."""
    x = mask16 - ((mask16 >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@compiled
def cancelled_and_occupied(grid: np.uint64) -> tuple[np.uint64, np.uint64]:
    """dekal.bits.cancelled_and_occupied (S1), line for line; see its invariants."""
    across = grid ^ (grid >> 4)
    across = across | (across >> 1)
    across = across | (across >> 2)
    down = grid ^ (grid >> 16)
    down = down | (down >> 1)
    down = down | (down >> 2)
    filled = grid | (grid >> 1)
    filled = filled | (filled >> 2)
    has_right = filled & NOT_LAST_COLUMN
    right = has_right ^ (across & has_right)
    has_below = filled & NOT_LAST_ROW
    below_ = has_below ^ (down & has_below)
    gone = right | (right << 4) | below_ | (below_ << 16)
    return gone, filled & NIBBLE_LOW


@compiled
def nibble_sum(x: np.uint64) -> int:
    """dekal.bits.nibble_sum: byte sums, then one multiply gathers them in the top byte."""
    pairs = (x & BYTE_LOW) + ((x >> 4) & BYTE_LOW)
    return int((pairs * BYTE_ONES) >> 56)


@compiled
def cell_count(cells: np.uint64) -> int:
    """dekal.bits.cell_count of a nibble-form set."""
    pairs = (cells + (cells >> 4)) & BYTE_LOW
    return int((pairs * BYTE_ONES) >> 56)


@compiled
def points(grid: np.uint64) -> int:
    """S1 then S2: the sum of the values left."""
    gone, _ = cancelled_and_occupied(grid)
    return nibble_sum(grid & ~(gone * NIBBLE_SPREAD))  # gone ⊆ NIBBLE_LOW: * 0xF never carries


@compiled
def score(grid: np.uint64) -> tuple[int, int]:
    """S1 then S2: (points, cards left); cancelled ⊆ occupied, so XOR leaves the kept cards."""
    gone, cards = cancelled_and_occupied(grid)
    return nibble_sum(grid & ~(gone * NIBBLE_SPREAD)), cell_count(cards ^ gone)


@compiled
def equal_cells(word: np.uint64, value: int) -> np.uint64:
    """The cells of `word` holding `value` (1–15), in nibble form: XOR with the value in every
    nibble zeroes exactly those nibbles, and OR-folding a nibble into its low bit finds them."""
    x = word ^ (U(value) * NIBBLE_LOW)
    x = x | (x >> 1)  # bits move down within a nibble or into the one below's high bits,
    x = x | (x >> 2)  # which the final mask drops: bit 4c is the OR of nibble c's four bits
    return ~x & NIBBLE_LOW


def _neighbours() -> NDArray[np.uint64]:
    near = np.zeros(16, np.uint64)
    for cell in range(16):
        row, column = divmod(cell, 4)
        for other in range(16):
            if abs(other // 4 - row) + abs(other % 4 - column) == 1:
                near[cell] |= np.uint64(1 << (4 * other))
    return near


NEIGHBOURS = _neighbours()
"""NEIGHBOURS[c]: the cells orthogonally beside c (S1's neighbours), in nibble form."""


@compiled
def expand(cells16: int) -> np.uint64:
    """dekal.bits.expand: compact form (bit i) -> nibble form (bit 4i)."""
    x = U(cells16)
    x = (x | (x << 24)) & OCTETS
    x = (x | (x << 12)) & QUADS
    x = (x | (x << 6)) & PAIRS
    return (x | (x << 3)) & NIBBLE_LOW


@compiled
def visible(grid: np.uint64, down: int) -> np.uint64:
    """The grid with its face-down cards emptied: what the greedy policy may score."""
    return grid & ~(expand(down) * NIBBLE_SPREAD)


@compiled
def push_grid(
    grid: np.uint64, steps: NDArray[np.uint64], variant: int, hole: int, index: int, card: int
) -> np.uint64:
    """dekal.bits.push_grid by STEPS[variant, hole, index]: keep, move's image, drop's image and
    the entry cell are disjoint and cover the grid. (Scalar reads, not a view of the step: a
    view would cost a reference count per push.)"""
    v, h, i = variant, hole, index
    moved = ((grid & steps[v, h, i, MOVE]) >> steps[v, h, i, MOVE_DOWN]) << steps[v, h, i, MOVE_UP]
    dropped = ((grid & steps[v, h, i, DROP]) >> steps[v, h, i, DROP_DOWN]) << steps[
        v, h, i, DROP_UP
    ]
    entered = U(card) << (U(4) * steps[v, h, i, ENTRY])
    return U((grid & steps[v, h, i, KEEP]) | moved | dropped | entered)


@compiled
def push_face_down(
    down: int, steps: NDArray[np.uint64], variant: int, hole: int, index: int
) -> int:
    """dekal.bits.push_face_down: the same permutation on one bit per cell; the entry ends up."""
    v, h, i = variant, hole, index
    mask = U(down)
    moved = ((mask & steps[v, h, i, MOVE16]) >> steps[v, h, i, MOVE_DOWN16]) << steps[
        v, h, i, MOVE_UP16
    ]
    dropped = ((mask & steps[v, h, i, DROP16]) >> steps[v, h, i, DROP_DOWN16]) << steps[
        v, h, i, DROP_UP16
    ]
    return int((mask & steps[v, h, i, KEEP16]) | moved | dropped)
