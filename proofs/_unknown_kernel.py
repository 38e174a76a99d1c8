"""`proofs._unknown_search`'s recursions compiled by numba (spec/solo-unknown.md, U5–U8): the
same moves and integer-scaled expectation, on the fast engine's push tables
(`dekal.kernel._tables.STEPS`) and scoring (`dekal.kernel._bits`), with the pruning rules
carried down the tree: each position is searched in a window (G3: alpha-beta over G1, G2;
E2: the ceiling ⌈(b − t)/n⌉ a push must stay below for its reveal to matter, over E1),
fail-soft, and the pushes of a value are tried lowest immediate score first. A state with two
`?` left is searched on `two_terms` (each pair of pushes scored once for every pair of
values) with E3: the values not yet summed are bounded from below, and the reveal stops
when the sum and those bounds reach the ceiling.

A state is its grid word alone: between two steps every face-up cell holds a value 1..10,
so the cells whose nibble is 0 are exactly the face-down ones (U3: no hole is left). The
memo is a numba typed dict per recursion from grid word to value << 2 | EXACT, LOWER or
UPPER (a bound a windowed search found); a state with one `?` left is computed directly
(`last_least`: its ten per-value minima serve both recursions) and not remembered: a dict
entry costs more than the four-update scoring (measured: 3× slower with a leaf memo).

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
from dekal.kernel._bits import (
    cancelled_and_occupied,
    equal_cells,
    nibble_sum,
    points,
    push_grid,
)
from dekal.kernel._cache import compiled
from dekal.kernel._tables import ENTRY

with needed("the compiled search of --unknown"):
    import numpy as np
    from numba import types
    from numba.typed import Dict
    from numpy.typing import NDArray

NODES, BUDGET, ABORTED, PRUNE = range(4)
"""Fields of the `state` array: new nodes so far, the budget, the abort flag, pruning on."""
FAR = 1 << 58
"""Above every value: the driver keeps scaled expectations below it (`fits`)."""
EXACT, LOWER, UPPER = 0, 1, 2
"""What a memo entry holds (its two low bits): the value, a bound from below, from above."""
NEIGHBOURS = np.full((16, 4), -1, dtype=np.int64)
"""The cells next to each cell (up, down, left, right), -1 past the edge."""
for _cell in range(16):
    _row, _column = divmod(_cell, 4)
    for _side, (_r, _c) in enumerate(
        ((_row - 1, _column), (_row + 1, _column), (_row, _column - 1), (_row, _column + 1))
    ):
        if 0 <= _r < 4 and 0 <= _c < 4:
            NEIGHBOURS[_cell, _side] = 4 * _r + _c


ADJACENT = np.zeros((16, 16), dtype=np.int64)
"""ADJACENT[a, b]: 1 when the cells are neighbours."""
COMMON = np.zeros((16, 16), dtype=np.int64)
"""COMMON[a, b]: the 16-bit set of the cells next to both (none when a, b are neighbours:
the grid has no triangles)."""
for _a in range(16):
    for _b in NEIGHBOURS[_a]:
        if _b >= 0:
            ADJACENT[_a, _b] = 1
for _a in range(16):
    for _b in range(16):
        if _a != _b:
            for _near in NEIGHBOURS[_a]:
                if _near >= 0 and ADJACENT[_near, _b]:
                    COMMON[_a, _b] |= 1 << int(_near)
DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
BIT_INDEX = np.zeros(64, dtype=np.int64)
"""BIT_INDEX[(2^i · DE_BRUIJN) >> 58] = i: a single bit's index in two operations."""
for _i in range(64):
    BIT_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 & ((1 << 64) - 1)) >> 58] = _i


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
    scoring by tests/solver/test_unknown_kernel.py)."""
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


MARK_A, MARK_B = 15, 14
"""Two nibbles no card holds (values are 1..10): the places of the two cards still to come
are tracked through the pushes by writing these there; each is unique, so never cancelled."""
TERMS = 32
"""Entries per pair of pushes in `two_terms`' table. The table is int32: every entry is a
grid's points or a card's term (|x| ≤ 16 · 10) or a count, so it fits, and the 16 · 16 · 32
table is 32 KB, not 64 (measured ~10% faster on eject k=4: it stays in the L1 cache)."""


@compiled
def _mark_cell(grid: np.uint64, mark: int) -> int:
    """The cell holding `mark` (exactly one does)."""
    found = equal_cells(grid, mark)
    return int(BIT_INDEX[(found * DE_BRUIJN) >> np.uint64(58)]) >> 2


@compiled
def _slot_changes(grid: np.uint64, gone: np.uint64, slot: int, changes: NDArray[np.int64]) -> int:
    """changes[v] for v = 1..10: what a card v in `slot` adds to the points of `grid` (the
    slot scored as nothing): v when no face-up neighbour holds v, else 0 for the card
    (cancelled, S1) less each neighbour holding v not cancelled already; so changes[v] ≤ v.
    Returns the set of values a neighbour holds (bit v): there the card is cancelled
    whatever else comes."""
    for value in range(1, 11):
        changes[value] = value
    held = 0
    for side in range(4):
        near = NEIGHBOURS[slot, side]
        if near < 0:
            continue
        shift = np.uint64(4 * near)
        value = int((grid >> shift) & np.uint64(0xF))
        if value > 10:  # the other mark
            continue
        if not (held >> value) & 1:
            held |= 1 << value
            changes[value] = 0
        if (gone >> shift) & np.uint64(1) == 0:
            changes[value] -= value
    return held


@compiled
def two_terms(
    grid: np.uint64,
    cell: int,
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
    terms: NDArray[np.int32],
    floors: NDArray[np.int64],
    starts: NDArray[np.int64],
    seconds_least: NDArray[np.int64],
    push_starts: NDArray[np.int64],
) -> int:
    """Two `?` left, `cell` revealed first: for each push p of its card and q of the other's,
    the final points as a function of the two values v and w (U3, S1, S2):

        points(v, w) = terms[p, q, 0] + terms[p, q, v] + B(w)     (v ≠ w)
        points(v, v) = terms[p, q, 20 + v]

    where B(w) = w, except for the (at most four) values w = terms[p, q, 11 + j] a face-up
    neighbour of the second card holds, where B(w) = terms[p, q, 15 + j] ≤ w (0 ends the
    list). Each (p, q) is pushed and scored once with the cards as marks (MARK_A, MARK_B),
    not once per pair of values: [0] is the marked grid's points, [v] what v adds at A's
    cell (`_slot_changes`). v = w is the one case where the two cards meet: adjacent, each
    cancels the other (no card term of its own); with common neighbours, one holding v is
    cancelled once, not twice (adjacent cells have none: the grid has no triangles).
    terms[p, 0, 31] holds how many q; returns how many p. floors[v] (E3 of U8): a number
    ≤ points(v, w) for every p, q and w, ≥ 0 (the least of the formula above with B's
    least term, or the v = w points where less); starts[v] = min over p, q of
    terms[p, q, 0] + terms[p, q, v], seconds_least[p, w] = min over q of B(w) and of the
    w = v points less that start (so points(v, w) ≥ starts[v] + seconds_least[p, w] for
    every q and w, v = w included); push_starts[p, v] = min over q of terms[p, q, 0] +
    terms[p, q, v] (≥ starts[v]: the same bound push by push, E4). Pinned to pushing and
    scoring every grid by tests/solver/test_unknown_kernel.py."""
    changes_a = np.empty(11, dtype=np.int64)
    changes_b = np.empty(11, dtype=np.int64)
    twice = np.zeros(11, dtype=np.int64)
    for value in range(11):
        floors[value] = FAR
        starts[value] = FAR
    count = pushes[variant, cell]
    for index in range(count):
        for value in range(11):
            seconds_least[index, value] = FAR
            push_starts[index, value] = FAR
        first = push_grid(grid, steps, variant, cell, index, MARK_A)
        other = int(BIT_INDEX[(equal_cells(first, 0) * DE_BRUIJN) >> np.uint64(58)]) >> 2
        seconds = pushes[variant, other]
        terms[index, 0, 31] = seconds
        for second in range(seconds):
            final = push_grid(first, steps, variant, other, second, MARK_B)
            gone, _ = cancelled_and_occupied(final)
            base = np.int64(nibble_sum(final & ~(gone * np.uint64(0xF)))) - MARK_A - MARK_B
            a, b = _mark_cell(final, MARK_A), _mark_cell(final, MARK_B)
            held_a = _slot_changes(final, gone, a, changes_a)
            held_b = _slot_changes(final, gone, b, changes_b)
            terms[index, second, 0] = base
            special = 0
            # B's least term: a held value's is ≤ 0, every other value w's is w ≥ 1
            least_b = np.int64(1)
            held = held_b
            while held:  # the values B's neighbours hold, in increasing order
                value = int(BIT_INDEX[(np.uint64(held & -held) * DE_BRUIJN) >> np.uint64(58)])
                held &= held - 1
                terms[index, second, 11 + special] = value
                terms[index, second, 15 + special] = changes_b[value]
                special += 1
                if changes_b[value] < least_b:
                    least_b = changes_b[value]
            if special < 4:
                terms[index, second, 11 + special] = 0
            # a common neighbour left holding v is taken off by both A and B when v = w:
            # added back once (at most two cells, COMMON's bits; none when adjacent)
            common = COMMON[a, b]
            while common:
                near = int(BIT_INDEX[(np.uint64(common & -common) * DE_BRUIJN) >> np.uint64(58)])
                common &= common - 1
                shift = np.uint64(4 * near)
                value = int((final >> shift) & np.uint64(0xF))
                if value <= 10 and (gone >> shift) & np.uint64(1) == 0:
                    twice[value] += value
            adjacent = ADJACENT[a, b] != 0
            for value in range(1, 11):
                change_a, change_b = changes_a[value], changes_b[value]
                start = base + change_a
                if adjacent:  # v = w: the two cancel each other, no card term left
                    meet = base
                    if (held_a >> value) & 1:
                        meet += change_a
                    if (held_b >> value) & 1:
                        meet += change_b
                else:
                    meet = start + change_b + twice[value]
                    twice[value] = 0
                terms[index, second, value] = change_a
                terms[index, second, 20 + value] = meet
                # E3's and E4's bounds: B's least term, or for v = w the meeting's points
                if start < starts[value]:
                    starts[value] = start
                if start < push_starts[index, value]:
                    push_starts[index, value] = start
                second_term = min(change_b, meet - start)  # ≤ B(w), ≤ v = w's excess
                if second_term < seconds_least[index, value]:
                    seconds_least[index, value] = second_term
                found = min(start + least_b, meet)
                if found < floors[value]:
                    floors[value] = found
    for value in range(11):
        floors[value] = max(floors[value], np.int64(0))  # no grid scores below 0 (S2)
    return int(count)


@compiled
def two_least(terms: NDArray[np.int32], index: int, v: int, least: NDArray[np.int64]) -> None:
    """least[w - 1] = min over the second card's pushes q of points(v, w) (`two_terms`), the
    first card v having entered by push `index`. As in `last_least`: B(w) ≤ w, so the
    minimum is min(the least start over every q + w, the least over the q where w is
    special), four updates per q at most, not ten."""
    anywhere = np.int64(FAR)
    meet = np.int64(FAR)
    for w in range(10):
        least[w] = FAR
    for second in range(terms[index, 0, 31]):
        start = terms[index, second, 0] + terms[index, second, v]
        if start < anywhere:
            anywhere = start
        for j in range(4):
            w = terms[index, second, 11 + j]
            if w == 0:
                break
            found = start + terms[index, second, 15 + j]
            if found < least[w - 1]:
                least[w - 1] = found
        if terms[index, second, 20 + v] < meet:
            meet = terms[index, second, 20 + v]
    for w in range(1, 11):
        if anywhere + w < least[w - 1]:
            least[w - 1] = anywhere + w
    least[v - 1] = meet


@compiled
def _two_expected(
    grid: np.uint64,
    down: int,
    counts: NDArray[np.int64],
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
    high: np.int64,
) -> np.int64:
    """U6 scaled for a state with two `?` left, below `high` (fail-soft, as `expected`), on
    `two_terms`: per reveal, Σ over v (largest terms first) of count(v) · min over the
    pushes p of Σ_w count'(w) · min_q points(v, w); a reveal stops once its sum reaches the
    best reveal's or `high` (E1, and E2's ceiling handed down)."""
    terms = np.empty((16, 16, TERMS), dtype=np.int32)
    floors = np.empty(11, dtype=np.int64)
    starts = np.empty(11, dtype=np.int64)
    seconds_least = np.empty((16, 11), dtype=np.int64)
    push_starts = np.empty((16, 11), dtype=np.int64)
    weighed = np.empty(16, dtype=np.int64)
    bounds = np.empty(11, dtype=np.int64)
    least = np.empty(10, dtype=np.int64)
    unseen = np.int64(0)
    for w in range(10):
        unseen += counts[w]
    best = np.int64(FAR)
    for cell in range(16):
        if not (down >> cell) & 1:
            continue
        ceiling = min(best, high)
        count_pushes = two_terms(
            grid, cell, steps, pushes, variant, terms, floors, starts, seconds_least, push_starts
        )
        # E3: each value's min_p Σ_w count'(w) · least is ≥ bounds[v], the larger of
        # (N − 1) · floors[v] (Σ_w count'(w) = N − 1) and (N − 1) · starts[v] + the least
        # over p of Σ_w count(w) · seconds_least[p, w], less the most seconds_least[p, v]
        # (count'(v) = count(v) − 1); `rest` bounds the terms not yet summed
        spread = np.int64(FAR)
        for index in range(count_pushes):
            weighed[index] = 0
            for w in range(1, 11):
                weighed[index] += counts[w - 1] * seconds_least[index, w]
            if weighed[index] < spread:
                spread = weighed[index]
        rest = np.int64(0)
        for v in range(1, 11):
            most = np.int64(-FAR)
            for index in range(count_pushes):
                if seconds_least[index, v] > most:
                    most = seconds_least[index, v]
            bounds[v] = max((unseen - 1) * floors[v], (unseen - 1) * starts[v] + spread - most)
            rest += counts[v - 1] * bounds[v]
        total = np.int64(0)
        for v in range(10, 0, -1):
            count = counts[v - 1]
            if count == 0:
                continue
            if total + rest >= ceiling:  # E3: the terms left cannot keep the sum below it
                break
            rest -= count * bounds[v]
            counts[v - 1] -= 1
            # a least mean at or above `enough` makes the sum reach the ceiling (E2's rule)
            enough = (ceiling - total - rest + count - 1) // count
            smallest = np.int64(FAR)
            for index in range(count_pushes):
                # E4: push p's mean ≥ (N − 1) · push_starts[p, v] + Σ_w count'(w) ·
                # seconds_least[p, w]; a push whose bound reaches min(smallest, enough) can
                # neither lower an exact minimum below `enough` nor be it: its bound stands in
                floor = (
                    (unseen - 1) * push_starts[index, v] + weighed[index] - seconds_least[index, v]
                )
                if floor >= min(smallest, enough):
                    if floor < smallest:
                        smallest = floor
                    continue
                two_least(terms, index, v, least)
                mean = np.int64(0)
                for w in range(10):
                    mean += counts[w] * least[w]
                if mean < smallest:
                    smallest = mean
            counts[v - 1] += 1
            total += count * smallest
            if total >= ceiling:  # E1: this reveal can lower neither the minimum nor high
                break
        total += rest  # a bound from below of the whole sum (exact when every v was summed)
        if total < best:
            best = total
    return best


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
    opened = _open(memo, grid, np.int64(-1), high, state)
    if opened != -1:
        return max(opened, np.int64(0))
    if (down & (down - 1)) & ((down & (down - 1)) - 1) == 0 and state[PRUNE] != 0:
        # two `?` left: every pair of pushes scored once for all pairs of values
        found = _two_expected(grid, down, counts, steps, pushes, variant, high)
        return _close(memo, grid, found, np.int64(-1), high, state)
    prune = state[PRUNE] != 0
    ordered = prune and (down & (down - 1)) & ((down & (down - 1)) - 1) != 0  # 3 or more `?`
    children = np.empty(16 if ordered else 0, dtype=np.uint64)
    if not prune:
        high = np.int64(FAR)
    best = np.int64(FAR)
    for cell in range(16):
        if not (down >> cell) & 1:
            continue
        ceiling = min(best, high)  # E1: a reveal whose sum reaches it cannot lower the minimum
        total = np.int64(0)
        for value in range(10, 0, -1):  # the largest terms first: the sum reaches it sooner
            count = counts[value - 1]
            if count == 0:
                continue
            counts[value - 1] -= 1
            # E2: a push whose value reaches `enough` makes the sum reach the ceiling (every
            # term left is ≥ 0): the children are searched below it
            enough = (ceiling - total + count - 1) // count if prune else np.int64(FAR)
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
            total += count * least
            if prune and total >= ceiling:
                break
        if total < best:
            best = total
    return _close(memo, grid, best, np.int64(-1), high, state)


def refresh_cache(function: object, source: str) -> None:
    """numba caches a file's code keyed by that file alone, but compiles kernel_bits' and
    kernel_tables' functions into it: drop the file's cached code when any of them, or the
    file, changed (the kernel's own rule, dekal.kernel._cache). `function`: one of the
    file's compiled functions (numba says where it caches)."""
    cache_dir = Path(function.stats.cache_path)  # type: ignore[attr-defined]
    stem = Path(source).stem
    stamp = cache_dir / f"{stem}-sources.sha256"
    now = kernel_cache.digest() + hashlib.sha256(Path(source).read_bytes()).hexdigest()
    try:
        if stamp.read_text() == now:
            return
    except OSError:
        pass
    for cached in [*cache_dir.glob(f"{stem}.*.nbi"), *cache_dir.glob(f"{stem}.*.nbc")]:
        cached.unlink(missing_ok=True)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        stamp.write_text(now)
    except OSError:
        pass


refresh_cache(guaranteed, __file__)
