"""A state of the --unknown search with two `?` left (spec/solo-unknown.md, U6, U8: E3, E4),
compiled by numba: `two_terms` pushes and scores each pair of pushes once with the two cards
as marks, for every pair of values at once; `two_least` reads one value's least points off
that table; `two_expected` is U6's recursion at such a state on it. Pinned to pushing and
scoring every grid by tests/solver/unknown/test_unknown_kernel.py. Importing this module loads
numba.
"""

from __future__ import annotations

from dekal.extras import needed
from dekal.kernel._bits import cancelled_and_occupied, equal_cells, nibble_sum, push_grid
from dekal.kernel._cache import compiled
from dekal.proofs._unknown.tables import (
    ADJACENT,
    BIT_INDEX,
    COMMON,
    DE_BRUIJN,
    FAR,
    NEIGHBOURS,
    refresh_cache,
)

with needed("the compiled search of --unknown"):
    import numpy as np
    from numpy.typing import NDArray

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
    scoring every grid by tests/solver/unknown/test_unknown_kernel.py."""
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
def _falling(n: np.int64, k: int) -> np.int64:
    """n·(n−1)·…·(n−k+1): the ordered draws of k cards out of n (0 when k > n ≥ 0)."""
    out = np.int64(1)
    for i in range(k):
        out *= n - i
    return out


@compiled
def face_up(grid: np.uint64, held: NDArray[np.int64]) -> None:
    """held[x] = how many face-up cards of value x the grid has (x = 1..10; held[0]: `?`)."""
    for value in range(11):
        held[value] = 0
    for cell in range(16):
        held[int((grid >> np.uint64(4 * cell)) & np.uint64(0xF))] += 1


@compiled
def singles_floor(held: NDArray[np.int64], counts: NDArray[np.int64], unknown: int) -> np.int64:
    """E5 (U8): a number ≤ W(s) for a state whose face-up cards hold held[x] of each value x,
    with `unknown` `?` cells and counts[x − 1] unseen cards of x, scaled as W (Σ over the
    ordered draws of the `?` cards). Every card stays in the grid (P1, P2, U3), so the final
    grid holds the face-up cards and the drawn ones whatever is played; a card whose value no
    other final card has is never cancelled (S1) and scores its value (S2). Summed over the
    draws: a value with one face-up card scores in the draws that bring no other, one with
    none in the draws that bring exactly one; every other card scores ≥ 0."""
    total = np.int64(0)
    unseen = np.int64(0)
    for value in range(10):
        unseen += counts[value]
    for value in range(1, 11):
        count = counts[value - 1]
        if held[value] == 1:
            total += value * _falling(unseen - count, unknown)
        elif held[value] == 0 and count > 0 and unknown > 0:
            total += value * unknown * count * _falling(unseen - count, unknown - 1)
    return total


@compiled
def revealed_floors(
    held: NDArray[np.int64], counts: NDArray[np.int64], floors: NDArray[np.int64]
) -> None:
    """E5 (U8) one reveal ahead: floors[v] = singles_floor of the state after a `?` shows v
    (held and counts as `singles_floor` reads them, restored on return; 0 for a value no
    unseen card has). The same for every reveal and push: the final cards do not depend on
    them."""
    for value in range(11):
        floors[value] = 0
    for value in range(1, 11):
        if counts[value - 1] == 0:
            continue
        counts[value - 1] -= 1
        held[value] += 1
        floors[value] = singles_floor(held, counts, held[0] - 1)
        held[value] -= 1
        counts[value - 1] += 1


@compiled
def singles_worst(held: NDArray[np.int64], counts: NDArray[np.int64], unknown: int) -> np.int64:
    """G4 (U8): a number ≤ U5's guarantee of a state (face-up cards held[x] of each value x,
    `unknown` `?` cells, counts[x − 1] unseen cards of x): the most points the cards nothing
    can cancel (E5's singles) reach over the draws the unseen cards allow. Whatever is played
    they score, so the adversary who names those values in advance is held to at least that
    (the max over the draws of a bound every line of play meets). A value scores when its
    final copies are one: the best number of draws per value, by a sum over the values of at
    most `unknown` draws (dynamic programming, ≤ 10 · 6 · 6 steps)."""
    best = np.full(unknown + 1, -1, dtype=np.int64)
    after = np.empty(unknown + 1, dtype=np.int64)
    best[0] = 0
    for value in range(1, 11):
        for d in range(unknown + 1):
            after[d] = -1
        most = min(counts[value - 1], unknown)
        for d in range(unknown + 1):
            if best[d] < 0:
                continue
            for t in range(min(most, unknown - d) + 1):
                scored = best[d] + (value if held[value] + t == 1 else 0)
                if scored > after[d + t]:
                    after[d + t] = scored
        for d in range(unknown + 1):
            best[d] = after[d]
    return max(best[unknown], np.int64(0))


@compiled
def two_expected(
    grid: np.uint64,
    down: int,
    counts: NDArray[np.int64],
    steps: NDArray[np.uint64],
    pushes: NDArray[np.int64],
    variant: int,
    high: np.int64,
    singles: bool,
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
    # E5: the cards nothing can cancel bound each value's term from below (0 when off)
    singles_floors = np.zeros(11, dtype=np.int64)
    if singles:
        held = np.empty(11, dtype=np.int64)
        face_up(grid, held)
        revealed_floors(held, counts, singles_floors)
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
            bounds[v] = max(
                (unseen - 1) * floors[v],
                (unseen - 1) * starts[v] + spread - most,
                singles_floors[v],
            )
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
                floor = max(
                    (unseen - 1) * push_starts[index, v] + weighed[index] - seconds_least[index, v],
                    singles_floors[v],
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


refresh_cache(two_terms, __file__)
