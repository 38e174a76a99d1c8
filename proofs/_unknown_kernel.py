"""`proofs._unknown_search`'s recursions compiled by numba (spec/solo-unknown.md, U5–U8): the
same moves, value order, pruning rules (G1, G2, E1) and integer-scaled expectation, on the
fast engine's push tables (`dekal.kernel._tables.STEPS`) and scoring (`dekal.kernel._bits`).

A state is its grid word alone: between two steps every face-up cell holds a value 1..10,
so the cells whose nibble is 0 are exactly the face-down ones (U3: no hole is left). The
memo is a numba typed dict from grid word to value per recursion; a state with one `?` left
is computed directly (its ten per-value minima serve both recursions) and not remembered.

The kernel cannot read the clock: each call gets a budget of new nodes, and a call that
runs out sets ABORTED and unwinds without remembering anything from then on (every entry in
the memo is exact). The driver (`_unknown_search.CompiledGame`) calls again with the same
memo until the root is answered or the deadline passes. Importing this module loads numba.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from dekal.extras import needed
from dekal.kernel import _cache as kernel_cache
from dekal.kernel._bits import cancelled_and_occupied, nibble_sum, points, push_grid
from dekal.kernel._cache import compiled
from dekal.kernel._tables import ENTRY

with needed("the compiled search of --unknown"):
    import numpy as np
    from numba import types
    from numba.typed import Dict
    from numpy.typing import NDArray

NODES, BUDGET, ABORTED, PRUNE = range(4)
"""Fields of the `state` array: new nodes so far, the budget, the abort flag, G1/G2/E1 on."""
FAR = 1 << 62
"""Above every value: the driver keeps scaled expectations below it (`fits`)."""


def new_memo() -> Dict:
    """An empty memo: grid word -> value."""
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
def _last(
    grid: np.uint64,
    down: int,
    counts: NDArray[np.int64],
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
) -> tuple[np.int64, np.int64]:
    """One `?` left: (max over the unseen values, Σ count · value) of the least final points
    over the pushes that bring each value back in.

    Per push the grid is pushed and scored once with an empty entry cell (card 0: no card,
    nothing cancels with it, S1); a value v entering there changes only the entry and its
    neighbours: the entry is cancelled iff a neighbour holds v, and each neighbour holding v
    that was left is cancelled with it. So the ten values cost ten small updates, not ten
    scorings (`tests/solver/test_unknown_kernel.py` pins it to the plain scoring)."""
    cell = 0
    while not (down >> cell) & 1:
        cell += 1
    least = np.full(10, FAR, dtype=np.int64)
    for index in range(pushes[variant, cell]):
        base = push_grid(grid, steps, variant, cell, index, 0)
        gone, _ = cancelled_and_occupied(base)
        base_points = np.int64(nibble_sum(base & ~(gone * np.uint64(0xF))))
        entry = int(steps[variant, cell, index, ENTRY])
        row, column = entry // 4, entry % 4
        for value in range(1, 11):
            scored = base_points + value
            for step in range(4):
                r = row + (step == 0) - (step == 1)
                c = column + (step == 2) - (step == 3)
                if r < 0 or r > 3 or c < 0 or c > 3:
                    continue
                shift = np.uint64(4 * (4 * r + c))
                if (base >> shift) & np.uint64(0xF) != value:
                    continue
                if scored == base_points + value:
                    scored -= value  # the entered card cancels
                if (gone >> shift) & np.uint64(1) == 0:
                    scored -= value  # and so does its equal neighbour, left before
            if scored < least[value - 1]:
                least[value - 1] = scored
    worst, total = np.int64(-1), np.int64(0)
    for value in range(1, 11):
        if counts[value - 1] == 0:
            continue
        if least[value - 1] > worst:
            worst = least[value - 1]
        total += counts[value - 1] * least[value - 1]
    return worst, total


@compiled
def guaranteed(
    grid: np.uint64,
    counts: NDArray[np.int64],
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
    memo: Dict,
    state: NDArray[np.int64],
) -> np.int64:
    """U5 below this state (0 and ABORTED set when the budget ran out)."""
    down = _unknown_cells(grid)
    if down == 0:
        return np.int64(points(grid))
    if down & (down - 1) == 0:
        worst, _ = _last(grid, down, counts, steps, pushes, variant)
        return worst
    if grid in memo:
        return np.int64(memo[grid])
    if state[ABORTED] or state[NODES] >= state[BUDGET]:
        state[ABORTED] = 1
        return np.int64(0)
    state[NODES] += 1
    prune = state[PRUNE] != 0
    best = np.int64(FAR)
    for cell in range(16):
        if not (down >> cell) & 1:
            continue
        worst = np.int64(-1)
        for value in range(10, 0, -1):  # high values first, as the Python search
            if counts[value - 1] == 0:
                continue
            counts[value - 1] -= 1
            least = np.int64(FAR)
            for index in range(pushes[variant, cell]):
                child = push_grid(grid, steps, variant, cell, index, value)
                found = guaranteed(child, counts, steps, pushes, variant, memo, state)
                if found < least:
                    least = found
                if prune and least <= worst:  # G2
                    break
            counts[value - 1] += 1
            if least > worst:
                worst = least
            if prune and worst >= best:  # G1
                break
        if worst < best:
            best = worst
    if state[ABORTED]:
        return np.int64(0)
    memo[grid] = best
    return best


@compiled
def expected(
    grid: np.uint64,
    counts: NDArray[np.int64],
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
    memo: Dict,
    state: NDArray[np.int64],
) -> np.int64:
    """U6 below this state, scaled by the falling factorial (0 and ABORTED when out of budget)."""
    down = _unknown_cells(grid)
    if down == 0:
        return np.int64(points(grid))
    if down & (down - 1) == 0:
        _, total = _last(grid, down, counts, steps, pushes, variant)
        return total
    if grid in memo:
        return np.int64(memo[grid])
    if state[ABORTED] or state[NODES] >= state[BUDGET]:
        state[ABORTED] = 1
        return np.int64(0)
    state[NODES] += 1
    prune = state[PRUNE] != 0
    best = np.int64(-1)
    for cell in range(16):
        if not (down >> cell) & 1:
            continue
        total = np.int64(0)
        for value in range(1, 11):
            count = counts[value - 1]
            if count == 0:
                continue
            counts[value - 1] -= 1
            least = np.int64(FAR)
            for index in range(pushes[variant, cell]):
                child = push_grid(grid, steps, variant, cell, index, value)
                found = expected(child, counts, steps, pushes, variant, memo, state)
                if found < least:
                    least = found
            counts[value - 1] += 1
            total += count * least
            if prune and best >= 0 and total >= best:  # E1
                break
        if best < 0 or total < best:
            best = total
    if state[ABORTED]:
        return np.int64(0)
    memo[grid] = best
    return best


def _refresh_cache() -> None:
    """numba caches this file's code keyed by this file alone, but compiles kernel_bits' and
    kernel_tables' functions into it: drop the cached code when any of them changed (the
    kernel's own rule, dekal.kernel._cache)."""
    cache_dir = Path(guaranteed.stats.cache_path)  # type: ignore[attr-defined]
    stamp = cache_dir / "_unknown_kernel-sources.sha256"
    now = kernel_cache.digest() + hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    try:
        if stamp.read_text() == now:
            return
    except OSError:
        pass
    for cached in [
        *cache_dir.glob("_unknown_kernel*.nbi"),
        *cache_dir.glob("_unknown_kernel*.nbc"),
    ]:
        cached.unlink(missing_ok=True)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        stamp.write_text(now)
    except OSError:
        pass


_refresh_cache()
