"""`proofs._unknown.perfect`'s layouts and known-values optima compiled by numba
(spec/solo-unknown.md, U9): the same layouts and the same least score per deal, on the fast
engine's push tables (`dekal.kernel._tables.STEPS`) and scoring (`dekal.kernel._bits`).

A layout is two words (`_unknown.perfect.Layout`): the face-up cards' final grid, holes
(0) where the k cards of the start's face-down cells end, and the word of their numbers
1..k. While the lines are played each number nibble also carries, in its bit 3, whether
that card is still face down (numbers ≤ 7 leave it free: `MOST_CARDS` here), so a state
is a pair of words and `distinct` merges equal ones level by level (`expand`).

A deal's optimum is the least score over the layouts with its values put on their cards
(`least_scores`). The layouts are sorted by `fixed`, a bound from below that holds for
every deal: the face-up cards no card touches score what they score whatever the deal is
(a card cancels only its four neighbours, S1), and every other term is ≥ 0 (S2); so once a
layout's `fixed` reaches the best score found for a deal, no later layout can beat it. The
kernel cannot read the clock: the driver gives it the deals in slices.
"""

from __future__ import annotations

from dekal.extras import needed
from dekal.kernel._bits import points, push_grid
from dekal.kernel._cache import compiled
from dekal.proofs._unknown.tables import NEIGHBOURS, refresh_cache

with needed("the compiled perfect-information figure of --unknown"):
    import numpy as np
    from numpy.typing import NDArray

MOST_CARDS = 7
"""Card numbers 1..7 leave each nibble's bit 3 free for the face-down flag."""
DOWN_FLAG = 8
"""The bit of a number nibble that says its card is still face down."""


@compiled
def expand(
    faces: NDArray[np.uint64],
    numbers: NDArray[np.uint64],
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
    out_faces: NDArray[np.uint64],
    out_numbers: NDArray[np.uint64],
) -> int:
    """One step of every state: each face-down card (flag set) revealed, its hole filled by
    each legal push, the card itself coming back face up (flag cleared: U3, U9). Returns how
    many states were written (out_* must hold Σ over states of their pushes)."""
    written = 0
    for row in range(len(faces)):
        face, number = faces[row], numbers[row]
        for cell in range(16):
            shift = np.uint64(4 * cell)
            nibble = int((number >> shift) & np.uint64(0xF))
            if not nibble & DOWN_FLAG:
                continue
            holed = number & ~(np.uint64(0xF) << shift)
            for index in range(pushes[variant, cell]):
                out_faces[written] = push_grid(face, steps, variant, cell, index, 0)
                out_numbers[written] = push_grid(
                    holed, steps, variant, cell, index, nibble & ~DOWN_FLAG
                )
                written += 1
    return written


@compiled
def distinct(faces: NDArray[np.uint64], numbers: NDArray[np.uint64], count: int) -> int:
    """Moves the distinct pairs (faces[i], numbers[i]) among the first `count` to the front,
    each once, in the order they first come; returns how many. On an open-addressing hash
    table (linear probing, at most half full), not NumPy's unique: a sort of 30M pairs
    (measured 40–60 s of CPU with numpy 2.4's unique) for what one pass does. A slot is
    empty when its number word is 0: every state has a card, so its number word is not 0."""
    size = 1
    while size < 2 * count:
        size *= 2
    mask = np.uint64(size - 1)
    table_faces = np.zeros(size, dtype=np.uint64)
    table_numbers = np.zeros(size, dtype=np.uint64)
    written = 0
    for row in range(count):
        face, number = faces[row], numbers[row]
        mixed = (face * np.uint64(0x9E3779B97F4A7C15)) ^ (number * np.uint64(0xC2B2AE3D27D4EB4F))
        slot = (mixed ^ (mixed >> np.uint64(29))) & mask
        while table_numbers[slot] != 0 and not (
            table_numbers[slot] == number and table_faces[slot] == face
        ):
            slot = (slot + np.uint64(1)) & mask
        if table_numbers[slot] == 0:  # first time: kept, at the front (written ≤ row)
            table_faces[slot], table_numbers[slot] = face, number
            faces[written], numbers[written] = face, number
            written += 1
    return written


@compiled
def fixed_and_shifts(
    faces: NDArray[np.uint64], numbers: NDArray[np.uint64], k: int
) -> tuple[NDArray[np.int64], NDArray[np.uint64]]:
    """Per layout: `fixed` (the points of the face-up cards that no card's cell touches,
    cancelled among themselves as S1 says: they score that under every deal) and 4 · the
    cell of each card 1..k (where its value goes in the grid word)."""
    count = len(faces)
    fixed = np.zeros(count, dtype=np.int64)
    shifts = np.zeros((count, k), dtype=np.uint64)
    for row in range(count):
        face, number = faces[row], numbers[row]
        touched = 0
        for cell in range(16):
            card = int((number >> np.uint64(4 * cell)) & np.uint64(0xF))
            if card:
                shifts[row, card - 1] = 4 * cell
                touched |= 1 << cell
                for side in range(4):
                    near = NEIGHBOURS[cell, side]
                    if near >= 0:
                        touched |= 1 << near
        total = 0
        for cell in range(16):
            if (touched >> cell) & 1:
                continue
            value = int((face >> np.uint64(4 * cell)) & np.uint64(0xF))
            cancelled = False
            for side in range(4):
                near = NEIGHBOURS[cell, side]
                if near >= 0 and int((face >> np.uint64(4 * near)) & np.uint64(0xF)) == value:
                    cancelled = True
            if not cancelled:
                total += value
        fixed[row] = total
    return fixed, shifts


@compiled
def loose_sums(faces: NDArray[np.uint64], numbers: NDArray[np.uint64]) -> NDArray[np.int8]:
    """Per layout and value v = 1..10: the points of its face-up cards of value v that stand
    next to a card and have no equal face-up neighbour. Whatever the deal, such a card is
    cancelled only by a card of its value (S1): under a deal that holds no v they score
    (`group_bounds`). At most 11 cells of 10 points: an int8 holds it."""
    count = len(faces)
    sums = np.zeros((count, 11), dtype=np.int8)
    for row in range(count):
        face, number = faces[row], numbers[row]
        cards = 0
        for cell in range(16):
            if (number >> np.uint64(4 * cell)) & np.uint64(0xF):
                cards |= 1 << cell
        for cell in range(16):
            if (cards >> cell) & 1:
                continue
            value = int((face >> np.uint64(4 * cell)) & np.uint64(0xF))
            near_card, cancelled = False, False
            for side in range(4):
                near = NEIGHBOURS[cell, side]
                if near < 0:
                    continue
                if (cards >> near) & 1:
                    near_card = True
                elif int((face >> np.uint64(4 * near)) & np.uint64(0xF)) == value:
                    cancelled = True
            if near_card and not cancelled:
                sums[row, value] += value
    return sums


@compiled
def group_bounds(
    fixed: NDArray[np.int64], sums: NDArray[np.int8], present: int, bounds: NDArray[np.int64]
) -> None:
    """bounds[layout] = fixed + the loose cards (`loose_sums`) of the values not in `present`
    (bit v): a bound from below of the layout's points under every deal whose values 1..10
    are among `present` (markers hold none), as `fixed` is under every deal."""
    for row in range(len(fixed)):
        bound = fixed[row]
        for value in range(1, 11):
            if not (present >> value) & 1:
                bound += sums[row, value]
        bounds[row] = bound


@compiled
def least_scores(
    faces: NDArray[np.uint64],
    shifts: NDArray[np.uint64],
    fixed: NDArray[np.int64],
    deals: NDArray[np.int64],
    marks: NDArray[np.int64],
) -> NDArray[np.int64]:
    """For each deal (a row of k values; the layouts sorted by `fixed`, ascending), the least
    points over the layouts of the grid with the deal's values on its cards, less `marks`
    (the row's marker values, which score but never cancel: `_unknown.perfect`'s reduced
    deals). A layout whose `fixed` is ≥ the best so far ends the scan: it and every later
    one score at least that (`fixed` bounds every deal's points from below)."""
    count, k = shifts.shape
    out = np.empty(len(deals), dtype=np.int64)
    for row in range(len(deals)):
        best = np.int64(1 << 30)
        for layout in range(count):
            if fixed[layout] >= best:
                break
            word = faces[layout]
            for card in range(k):
                word |= np.uint64(deals[row, card]) << shifts[layout, card]
            found = np.int64(points(word)) - marks[row]
            if found < best:
                best = found
        out[row] = best
    return out


refresh_cache(least_scores, __file__)
