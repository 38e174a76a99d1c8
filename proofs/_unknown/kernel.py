"""`proofs._unknown.search`'s recursions compiled by numba (spec/solo-unknown.md, U5–U8): the
same moves and integer-scaled expectation, on the fast engine's push tables
(`dekal.kernel._tables.STEPS`) and scoring (`dekal.kernel._bits`), with the pruning rules
carried down the tree: each position is searched in a window (G3: alpha-beta over G1, G2;
E2: the ceiling ⌈(b − t)/n⌉ a push must stay below for its reveal to matter, over E1),
fail-soft, and the pushes of a value are tried lowest immediate score first. A state with two
`?` left is searched by `_unknown.two.two_expected` (each pair of pushes scored once for
every pair of values, E3, E4); the shared tables are `_unknown.tables`'.

A state is its grid word alone: between two steps every face-up cell holds a value 1..10,
so the cells whose nibble is 0 are exactly the face-down ones (U3: no hole is left). The
memo is a numba typed dict per recursion from grid word to value << 2 | EXACT, LOWER or
UPPER (a bound a windowed search found); a state with one `?` left is computed directly
(`last_least`: its ten per-value minima serve both recursions) and not remembered: a dict
entry costs more than the four-update scoring (measured: 3× slower with a leaf memo).

The kernel cannot read the clock: each call gets a budget of new nodes, and a call that
runs out sets ABORTED and unwinds without remembering anything from then on (every entry in
the memo is exact). The driver (`_unknown.search.CompiledGame`) calls again with the same
memo until the root is answered or the deadline passes. Importing this module loads numba.
"""

from __future__ import annotations

from dekal.extras import needed
from dekal.kernel._bits import cancelled_and_occupied, nibble_sum, points, push_grid
from dekal.kernel._cache import compiled
from dekal.kernel._tables import ENTRY
from dekal.proofs._unknown.tables import FAR, NEIGHBOURS, refresh_cache
from dekal.proofs._unknown.two import (
    face_up,
    revealed_floors,
    singles_floor,
    singles_worst,
    two_expected,
)

with needed("the compiled search of --unknown"):
    import numpy as np
    from numba import types
    from numba.typed import Dict
    from numpy.typing import NDArray

NODES, BUDGET, ABORTED, PRUNE = range(4)
"""Fields of the `state` array: new nodes so far, the budget, the abort flag, pruning (0: every
child searched; 1: every rule of U8; 2: every rule but E5, the tests' yardstick for it)."""
EXACT, LOWER, UPPER = 0, 1, 2
"""What a memo entry holds (its two low bits): the value, a bound from below, from above."""


def new_memo() -> Dict:
    """An empty memo: grid word -> value << 2 | EXACT, LOWER or UPPER."""
    return Dict.empty(key_type=types.uint64, value_type=types.int64)


@compiled
def _unknown_cells(grid: np.uint64) -> int:
    """The 16-bit set of the cells whose nibble is 0: the face-down ones (U3)."""
    down = 0
    for cell in range(16):
        if (grid >> np.uint64(4 * cell)) & np.uint64(0xF) == 0:
            down |= 1 << cell
    return down


@compiled
def last_least(
    grid: np.uint64, down: int, steps: NDArray[np.uint64], pushes: NDArray[np.int64], variant: int
) -> NDArray[np.int64]:
    """One `?` left: for each value 1..10, the least final points over the pushes that bring
    it back in.

    Per push the grid is pushed and scored once with an empty entry cell (card 0: no card,
    nothing cancels with it, S1). A value v entering there changes only the entry and its
    neighbours: the entry is cancelled iff a neighbour holds v, and each neighbour holding v
    that was left is cancelled with it; a value no neighbour holds scores the base points
    plus v. So the least over the pushes is min(least base + v, the least of the pushes where
    a neighbour holds v): four updates per push, not ten scorings (pinned to the plain
    scoring by tests/solver/unknown/test_unknown_kernel.py)."""
    cell = 0
    while not (down >> cell) & 1:
        cell += 1
    special = np.full(11, FAR, dtype=np.int64)
    least_base = np.int64(FAR)
    for index in range(pushes[variant, cell]):
        base = push_grid(grid, steps, variant, cell, index, 0)
        gone, _ = cancelled_and_occupied(base)
        base_points = np.int64(nibble_sum(base & ~(gone * np.uint64(0xF))))
        if base_points < least_base:
            least_base = base_points
        entry = int(steps[variant, cell, index, ENTRY])
        for side in range(4):
            near = NEIGHBOURS[entry, side]
            if near < 0:
                continue
            shift = np.uint64(4 * near)
            value = int((base >> shift) & np.uint64(0xF))
            scored = base_points  # the entered card cancels with this neighbour
            for other in range(4):  # and every neighbour of that value left before
                far = NEIGHBOURS[entry, other]
                if far < 0:
                    continue
                far_shift = np.uint64(4 * far)
                if (base >> far_shift) & np.uint64(0xF) == value and (
                    gone >> far_shift
                ) & np.uint64(1) == 0:
                    scored -= value
            if scored < special[value]:
                special[value] = scored
    least = np.empty(10, dtype=np.int64)
    for value in range(1, 11):
        least[value - 1] = min(least_base + value, special[value])
    return least


@compiled
def _last(
    grid: np.uint64,
    down: int,
    counts: NDArray[np.int64],
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
) -> tuple[np.int64, np.int64]:
    """One `?` left: (max over the unseen values, Σ count · value) of `last_least`."""
    least = last_least(grid, down, steps, pushes, variant)
    worst, total = np.int64(-1), np.int64(0)
    for value in range(1, 11):
        if counts[value - 1] == 0:
            continue
        if least[value - 1] > worst:
            worst = least[value - 1]
        total += counts[value - 1] * least[value - 1]
    return worst, total


@compiled
def _ordered(
    grid: np.uint64,
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
    cell: int,
    value: int,
    children: NDArray[np.uint64],
) -> int:
    """The grids after each push of `value` into `cell`, into `children`, the lowest points
    at once first (the face-down cells count nothing; ties in notation order): the child
    most likely best is searched first, so the others are searched in a narrower window.
    The order changes no value (every child is still searched or cut by a bound, G1–G3,
    E1–E2); it returns how many there are."""
    count = pushes[variant, cell]
    keys = np.empty(count, dtype=np.int64)
    for index in range(count):
        child = push_grid(grid, steps, variant, cell, index, value)
        key = np.int64(points(child)) * 16 + index
        place = index
        while place > 0 and keys[place - 1] > key:
            keys[place] = keys[place - 1]
            children[place] = children[place - 1]
            place -= 1
        keys[place] = key
        children[place] = child
    return int(count)


@compiled
def _recall(memo: Dict, grid: np.uint64, low: np.int64, high: np.int64) -> np.int64:
    """The memo's value for `grid` when it answers a search in the window (low, high): an
    exact value, or a bound that already lies outside the window on its own side; else -1."""
    code = memo.get(grid, np.int64(-1))
    if code < 0:
        return np.int64(-1)
    value, kind = code >> 2, code & 3
    if kind == EXACT or (kind == LOWER and value >= high) or (kind == UPPER and value <= low):
        return np.int64(value)
    return np.int64(-1)


@compiled
def _open(
    memo: Dict, grid: np.uint64, low: np.int64, high: np.int64, state: NDArray[np.int64]
) -> np.int64:
    """A node's start, shared by both recursions: the memo's answer if it has one (≥ 0);
    else -2 when the budget is spent (ABORTED set), -1 when the node is to be searched (one
    more new node)."""
    known = _recall(memo, grid, low, high)
    if known >= 0:
        return known
    if state[ABORTED] or state[NODES] >= state[BUDGET]:
        state[ABORTED] = 1
        return np.int64(-2)
    state[NODES] += 1
    return np.int64(-1)


@compiled
def _close(
    memo: Dict,
    grid: np.uint64,
    best: np.int64,
    low: np.int64,
    high: np.int64,
    state: NDArray[np.int64],
) -> np.int64:
    """A node's end: nothing is remembered past an abort (0 returned); else its value is
    remembered as exact, or as the bound it is when it fell outside the window."""
    if state[ABORTED]:
        return np.int64(0)
    kind = EXACT
    if best >= high:
        kind = LOWER
    elif best <= low:
        kind = UPPER
    memo[grid] = (best << 2) | kind
    return best


@compiled
def guaranteed(
    grid: np.uint64,
    counts: NDArray[np.int64],
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
    memo: Dict,
    state: NDArray[np.int64],
    low: np.int64,
    high: np.int64,
) -> np.int64:
    """U5 below this state, searched in the window (low, high) (U8, G1–G3; the root's window
    is (−1, FAR): exact). Fail-soft: a result r with low < r < high is exact; r ≤ low says
    the value is ≤ r, r ≥ high that it is ≥ r. 0 and ABORTED set when the budget ran out."""
    down = _unknown_cells(grid)
    if down == 0:
        return np.int64(points(grid))
    if down & (down - 1) == 0:
        worst, _ = _last(grid, down, counts, steps, pushes, variant)
        return worst
    if state[PRUNE] == 1:
        # G4: the cards nothing can cancel already score `high` on some draw: cut
        held = np.empty(11, dtype=np.int64)
        face_up(grid, held)
        floor = singles_worst(held, counts, held[0])
        if floor >= high:
            return floor
    opened = _open(memo, grid, low, high, state)
    if opened != -1:
        return max(opened, np.int64(0))
    prune = state[PRUNE] != 0
    ordered = prune and (down & (down - 1)) & ((down & (down - 1)) - 1) != 0  # 3 or more `?`
    children = np.empty(16 if ordered else 0, dtype=np.uint64)
    if not prune:
        low, high = np.int64(-1), np.int64(FAR)
    best = np.int64(FAR)
    for cell in range(16):
        if not (down >> cell) & 1:
            continue
        ceiling = min(best, high)  # G1: a reveal at or above it cannot lower the minimum
        worst = np.int64(-1)
        for value in range(10, 0, -1):  # high values first: they tend to be the worst
            if counts[value - 1] == 0:
                continue
            counts[value - 1] -= 1
            floor = max(low, worst)  # G2: a value at or below it cannot raise the maximum
            least = np.int64(FAR)
            count_pushes = pushes[variant, cell]
            if ordered:
                _ordered(grid, steps, pushes, variant, cell, value, children)
            for index in range(count_pushes):
                if ordered:
                    child = children[index]
                else:
                    child = push_grid(grid, steps, variant, cell, index, value)
                found = guaranteed(
                    child, counts, steps, pushes, variant, memo, state, floor, min(least, ceiling)
                )
                if found < least:
                    least = found
                if prune and least <= floor:
                    break
            counts[value - 1] += 1
            if least > worst:
                worst = least
            if prune and worst >= ceiling:
                break
        if worst < best:
            best = worst
        if prune and best <= low:
            break
    return _close(memo, grid, best, low, high, state)


@compiled
def expected(
    grid: np.uint64,
    counts: NDArray[np.int64],
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
    memo: Dict,
    state: NDArray[np.int64],
    high: np.int64,
) -> np.int64:
    """U6 below this state, scaled by the falling factorial, searched below `high` (U8, E1,
    E2; the root's `high` is FAR: exact). Fail-soft: a result r < high is exact, r ≥ high
    says the value is ≥ r. 0 and ABORTED set when the budget ran out."""
    down = _unknown_cells(grid)
    if down == 0:
        return np.int64(points(grid))
    if down & (down - 1) == 0:
        _, total = _last(grid, down, counts, steps, pushes, variant)
        return total
    singles = state[PRUNE] == 1
    held = np.empty(11, dtype=np.int64)
    if singles:
        # E5: the cards nothing can cancel already score `high`: the node cannot matter
        face_up(grid, held)
        floor = singles_floor(held, counts, held[0])
        if floor >= high:
            return floor
    opened = _open(memo, grid, np.int64(-1), high, state)
    if opened != -1:
        return max(opened, np.int64(0))
    if (down & (down - 1)) & ((down & (down - 1)) - 1) == 0 and state[PRUNE] != 0:
        # two `?` left: every pair of pushes scored once for all pairs of values
        found = two_expected(grid, down, counts, steps, pushes, variant, high, singles)
        return _close(memo, grid, found, np.int64(-1), high, state)
    prune = state[PRUNE] != 0
    ordered = prune and (down & (down - 1)) & ((down & (down - 1)) - 1) != 0  # 3 or more `?`
    children = np.empty(16 if ordered else 0, dtype=np.uint64)
    if not prune:
        high = np.int64(FAR)
    # E5: each value's least over its pushes is ≥ floors[v] (the same for every reveal and
    # push: the final cards do not depend on them); 0 when E5 is off
    floors = np.zeros(11, dtype=np.int64)
    if singles:
        revealed_floors(held, counts, floors)
    floors_sum = np.int64(0)  # E5: Σ count · floor over the values, where a reveal's sum starts
    for value in range(1, 11):
        floors_sum += counts[value - 1] * floors[value]
    order = np.empty(10, dtype=np.int64)
    keys = np.empty(10, dtype=np.int64)
    # the values' order (U8: it changes no value): those no face-up card holds first (E5's
    # floors miss the most of them: 5–18% fewer nodes on three eject k=4), then the largest
    # count · value; an insertion sort
    for slot in range(10):
        value = 10 - slot
        key = counts[value - 1] * value + (1000 if singles and held[value] == 0 else 0)
        place = slot
        while place > 0 and keys[place - 1] < key:
            keys[place] = keys[place - 1]
            order[place] = order[place - 1]
            place -= 1
        keys[place] = key
        order[place] = value
    best = np.int64(FAR)
    for cell in range(16):
        if not (down >> cell) & 1:
            continue
        ceiling = min(best, high)  # E1: a reveal whose sum reaches it cannot lower the minimum
        total = np.int64(0)
        rest = floors_sum  # E5: the floors of the values not summed yet
        for slot in range(10):
            value = order[slot]
            count = counts[value - 1]
            if count == 0:
                continue
            if singles and total + rest >= ceiling:  # E5: the values left take it there
                break
            rest -= count * floors[value]
            counts[value - 1] -= 1
            # E2: a push whose value reaches `enough` makes the sum reach the ceiling (every
            # term left is ≥ its floor, E5): the children are searched below it
            enough = (ceiling - total - rest + count - 1) // count if prune else np.int64(FAR)
            least = np.int64(FAR)
            count_pushes = pushes[variant, cell]
            if ordered:
                _ordered(grid, steps, pushes, variant, cell, value, children)
            for index in range(count_pushes):
                if ordered:
                    child = children[index]
                else:
                    child = push_grid(grid, steps, variant, cell, index, value)
                found = expected(
                    child, counts, steps, pushes, variant, memo, state, min(least, enough)
                )
                if found < least:
                    least = found
            counts[value - 1] += 1
            if least < floors[value]:  # a bound from below (fail-soft), and so is the floor
                least = floors[value]
            total += count * least
            if prune and total + rest >= ceiling:
                break
        total += rest  # a bound from below of the whole sum (exact when every v was summed)
        if total < best:
            best = total
    return _close(memo, grid, best, np.int64(-1), high, state)


refresh_cache(guaranteed, __file__)
