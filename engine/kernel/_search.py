"""The puzzle search compiled: depth-first branch and bound on grid words (T1, T4, P1, P2, S1–S3).

The algorithm of proofs.search (its docstring), run by numba over an explicit stack, so that
it works in slices: `advance` expands at most `budget` nodes and returns, and its caller
reads the clock and calls again (compiled code can read no clock and hear no Ctrl-C). Between
two slices the whole search lives in a `Stack` of arrays. Step for step it is proofs.search,
with a better order and one bound more:

* the children of a node are every (face-down hole, legal push) in dekal.tables order; they
  are tried lowest lower bound first, then (above the last two levels) closest to cancelling
  (`spread`), then lowest current score (points, then cards), the order stable (the Python
  search orders by the score alone: the order changes how soon good leaves come, never the
  optimum);
* a (grid, face-down) state already expanded at the same depth is skipped (the memo is a
  fixed hash table: a state it has no room for is simply expanded again, which is sound);
* a node whose `lower_key` (proofs.bounds' argument, on 16-bit sets) cannot beat the best leaf is
  pruned; a leaf below `stop_below` ends the search at once;
* the children of a node one step from the end are leaves, scored where they are made;
* one step from the end, `last_slide_key` or `last_eject_key` (bounds of their own, checked
  against the leaves) prune before `lower_key` is computed.

Only the symmetry merging of proofs.symmetry is left out (it is an optimisation; the states
it merges are expanded twice here). tests/solver/test_solver_kernel.py pins `lower_key` to
proofs.bounds.lower_key on random states and every answer to the Python search's and to plain
exhaustive search.

Keys are S3's order in one number: points·KEY_CARDS + cards left.
"""

from __future__ import annotations

from dekal.bits import CELLS
from dekal.extras import needed
from dekal.kernel._bits import (
    U,
    cancelled_and_occupied,
    cell_count,
    cell_value,
    nibble_sum,
    push_face_down,
    push_grid,
    score,
)
from dekal.kernel._cache import compiled
from dekal.kernel._tables import MOST_PUSHES, PUSH_COUNT, STEPS, VARIANT_CODE

with needed("the compiled game kernel (dekal.kernel)"):
    import numpy as np
    from numpy.typing import NDArray

KEY_CARDS = 32  # proofs.answer.KEY_CARDS: cards left (0..16) < 32
INFINITE = 1 << 30  # proofs.bounds.INFINITE
VALUES = 16  # a cell holds a nibble: values 1..15 (0 is a hole)
MOST_CHILDREN = CELLS * MOST_PUSHES  # every hole, every push
SLIDE = VARIANT_CODE["slide"]
ORDER_SPAN = 1 << 13  # above any key (160·32 + 16) and spread (16·16): one int sorts by all three

# Fields of Stack.at, the search's scalars.
DEPTH, BEST_KEY, STOP_BELOW, TURNS, VARIANT, FIRST_HOLE, FIRST_INDEX, SOLO, STATUS = range(9)
FIELDS = 9
# Stack.at[STATUS]
RUNNING, FINISHED, STOPPED = 0, 1, 2
# Fields of Stack.counters.
NODES, LEAVES, PRUNED, MEMO = range(4)

MEMO_BITS = 22  # 4M entries, 64 MB: tens of millions of nodes before the table fills
PROBES = 8  # slots tried per state before it is not remembered
MIX_GRID = U(0x9E3779B97F4A7C15)  # odd multipliers spread the bits of a state over the hash
MIX_META = U(0xC2B2AE3D27D4EB4F)
OCCUPIED = 1 << 40  # set in every stored meta word: an empty slot's meta is 0

_ROW = np.arange(CELLS) // 4
_COLUMN = np.arange(CELLS) % 4
DISTANCE = np.abs(_ROW[:, None] - _ROW[None, :]) + np.abs(_COLUMN[:, None] - _COLUMN[None, :])
"""proofs.bounds.DISTANCE: rows plus columns apart."""


def _near() -> NDArray[np.int64]:
    near = np.zeros((CELLS + 2, CELLS), np.int64)
    for reach in range(CELLS + 2):
        for cell in range(CELLS):
            for other in range(CELLS):
                if other != cell and DISTANCE[cell, other] <= reach:
                    near[reach, cell] |= 1 << other
    return near


NEAR = _near()
"""NEAR[reach, cell]: the other cells at most `reach` apart from `cell`, as a 16-bit set."""

# Rows of the scratch array lower_key works in, one entry per value.
UP, HIDDEN, LONELY_UP, LONELY_HIDDEN = range(4)
SCRATCH_ROWS = 4


@compiled
def _count(cells: int) -> int:
    """How many cells a 16-bit set holds."""
    total = 0
    while cells:
        cells &= cells - 1
        total += 1
    return total


@compiled
def lower_key(
    grid: np.uint64, down: int, coming: NDArray[np.int64], steps: int, slide: bool, solo: bool
) -> int:
    """proofs.bounds.lower_key: a key no leaf `steps` steps below can beat.

    `coming[v]`: how many v cards are still to come (ignored in solo)."""
    scratch = np.zeros((SCRATCH_ROWS, VALUES), np.int64)
    reveals = np.zeros((2, CELLS + 1), np.int64)
    return bounded_key(grid, down, coming, steps, slide, solo, INFINITE, scratch, reveals)


@compiled
def bounded_key(
    grid: np.uint64,
    down: int,
    coming: NDArray[np.int64],
    steps: int,
    slide: bool,
    solo: bool,
    cutoff: int,
    scratch: NDArray[np.int64],
    reveals: NDArray[np.int64],
) -> int:
    """lower_key in scratch arrays, stopping early once the bound reaches `cutoff` (it then
    returns a number ≥ cutoff and ≤ the bound: enough to prune).

    The argument of proofs.bounds, on 16-bit sets of cells per value: a card is far when no
    other card of its value is within `reach` (NEAR); the values that have no face-down card
    add a fixed cost (counted first, for the early stop), the others share the reveals out
    (the knapsack of proofs.bounds._share_reveals)."""
    scratch[:] = 0
    for cell in range(CELLS):
        value = cell_value(grid, cell)
        if value:
            scratch[HIDDEN if (down >> cell) & 1 else UP, value] |= 1 << cell
    reach = min(steps + 1, CELLS + 1) if slide else (1 if steps == 0 else CELLS)
    if solo:
        return _solo(scratch, reach)
    for cell in range(CELLS):
        value = cell_value(grid, cell)
        same = scratch[UP, value] | scratch[HIDDEN, value]
        if value and coming[value] == 0 and not NEAR[reach, cell] & same:
            scratch[LONELY_HIDDEN if (down >> cell) & 1 else LONELY_UP, value] += 1
    fixed = 0  # the values with no face-down card: one way each, whatever the reveals
    for value in range(1, VALUES):
        if scratch[HIDDEN, value] == 0:
            count = _count(scratch[UP, value]) + coming[value]
            weight = KEY_CARDS * value + 1
            fixed += weight * count if count <= 1 else weight * scratch[LONELY_UP, value]
    if fixed >= cutoff:
        return fixed
    best, following = reveals[0], reveals[1]  # best[r]: least cost so far with r reveals
    best[: steps + 1] = INFINITE
    best[0] = fixed
    for value in range(1, VALUES):
        hidden = _count(scratch[HIDDEN, value])
        if hidden == 0:
            continue
        total = _count(scratch[UP, value]) + hidden
        to_come = coming[value]
        weight = KEY_CARDS * value + 1
        lonely_up, lonely_hidden = scratch[LONELY_UP, value], scratch[LONELY_HIDDEN, value]
        following[: steps + 1] = INFINITE
        for used in range(steps + 1):
            so_far = best[used]
            if so_far >= INFINITE:
                continue
            for revealed in range(min(hidden, steps - used) + 1):
                count = total - revealed + to_come
                if count <= 1:
                    cost = weight * count
                else:  # the reveals take the lonely face-down cards first
                    cost = weight * (lonely_up + max(0, lonely_hidden - revealed))
                if so_far + cost < following[used + revealed]:
                    following[used + revealed] = so_far + cost
        best[: steps + 1] = following[: steps + 1]
    return int(best[steps])


@compiled
def _solo(scratch: NDArray[np.int64], reach: int) -> int:
    """proofs.bounds._solo: a value with one card scores it; a face-up card with no v card
    near and no face-down v card scores."""
    total = 0
    for value in range(1, VALUES):
        ups, hiddens = scratch[UP, value], scratch[HIDDEN, value]
        weight = KEY_CARDS * value + 1
        if _count(ups) + _count(hiddens) == 1:
            total += weight
        elif hiddens == 0:
            for cell in range(CELLS):
                if (ups >> cell) & 1 and not NEAR[reach, cell] & ups:
                    total += weight
    return total


def _lines() -> tuple[NDArray[np.int64], NDArray[np.uint64]]:
    """LINE[l]: the cells of line l (rows 0–3, then columns 0–3) as a 16-bit set;
    UNTOUCHED[l]: the cells neither in line l nor beside it, in nibble form (bit 4·cell)."""
    line = np.zeros(8, np.int64)
    untouched = np.zeros(8, np.uint64)
    for number in range(8):
        cells = [c for c in range(CELLS) if (c // 4 if number < 4 else c % 4) == number % 4]
        near = {o for c in cells for o in range(CELLS) if DISTANCE[c, o] <= 1}
        line[number] = sum(1 << c for c in cells)
        untouched[number] = sum(1 << (4 * c) for c in range(CELLS) if c not in near)
    return line, untouched


LINE, UNTOUCHED = _lines()


@compiled
def last_slide_key(grid: np.uint64, down: int) -> int:
    """A key no leaf one slide step below can beat (T1, P1, S1): the least, over the lines
    holding a face-down card, of what the cards left now weigh outside that line and its
    neighbours.

    One slide step changes only the cells of one line (the hole's row or column: the reveal,
    the shifted cards, the entry), so a card neither in that line nor beside it keeps its cell
    and its four neighbours: if no equal card touches it now, none touches it at the end.
    tests/solver/test_solver_kernel.py checks it against every one-step leaf."""
    gone, occupied = cancelled_and_occupied(grid)
    left = occupied ^ gone  # the cards no equal card touches now, in nibble form
    kept = grid & (left * U(0xF))
    least = INFINITE
    for number in range(8):
        if down & LINE[number]:
            outside = UNTOUCHED[number]
            weight = nibble_sum(kept & (outside * U(0xF))) * KEY_CARDS + cell_count(left & outside)
            least = min(least, weight)
    return least


def _beside_cells() -> NDArray[np.uint64]:
    """AWAY[h]: the cells neither h nor beside it, in nibble form (bit 4·cell)."""
    away = np.zeros(CELLS, np.uint64)
    for hole in range(CELLS):
        away[hole] = sum(1 << (4 * c) for c in range(CELLS) if DISTANCE[hole, c] > 1)
    return away


AWAY = _beside_cells()


@compiled
def last_eject_key(grid: np.uint64, down: int) -> int:
    """A key no leaf one eject step below can beat (T1, P2, S1): the least, over every
    face-down cell h and every line, of what the cards left now weigh away from both.

    One eject step changes the cells of one line (any line: its cards shift, the entry comes
    in) and the hole h (the revealed card leaves, the card pushed out or the pushed line's
    last card lands there), so a card neither in the line, nor h, nor beside either keeps its
    cell and its four neighbours. tests/solver/test_solver_kernel.py checks it against every
    one-step leaf."""
    gone, occupied = cancelled_and_occupied(grid)
    left = occupied ^ gone
    kept = grid & (left * U(0xF))
    least = INFINITE
    for number in range(8):
        base = left & UNTOUCHED[number]
        for hole in range(CELLS):
            if (down >> hole) & 1:
                outside = base & AWAY[hole]
                weight = nibble_sum(kept & (outside * U(0xF))) * KEY_CARDS + cell_count(outside)
                least = min(least, weight)
    return least


@compiled
def spread(grid: np.uint64) -> int:
    """How far the cards left now are from cancelling: over each card no equal card touches,
    the distance to the nearest equal card, less one (CELLS when it has none). Only an order
    for the search's children (closer first), never a bound."""
    gone, occupied = cancelled_and_occupied(grid)
    left = occupied ^ gone
    total = 0
    for cell in range(CELLS):
        if not (left >> U(4 * cell)) & U(1):
            continue
        value = cell_value(grid, cell)
        same = 0
        for other in range(CELLS):
            if other != cell and cell_value(grid, other) == value:
                same |= 1 << other
        gap = CELLS
        for reach in range(2, 7):
            if NEAR[reach, cell] & same:
                gap = reach - 1
                break
        total += gap
    return total


@compiled
def _key(grid: np.uint64) -> int:
    points, left = score(grid)
    return points * KEY_CARDS + left


@compiled
def _remembered(
    memo_grid: NDArray[np.uint64],
    memo_meta: NDArray[np.int64],
    grid: np.uint64,
    down: int,
    depth: int,
    counters: NDArray[np.int64],
) -> bool:
    """True if the state was already expanded at this depth; else it is remembered (when the
    table has room near its hash) and False."""
    meta = down | (depth << 16) | OCCUPIED
    mixed = grid * MIX_GRID ^ U(meta) * MIX_META
    mask = len(memo_meta) - 1  # a power of two
    slot = int(mixed >> U(64 - MEMO_BITS)) & mask
    for probe in range(PROBES):
        at = (slot + probe) & mask
        stored = memo_meta[at]
        if stored == 0:
            memo_grid[at] = grid
            memo_meta[at] = meta
            counters[MEMO] += 1
            return False
        if stored == meta and memo_grid[at] == grid:
            return True
    return False


@compiled
def _expand(
    depth: int,
    grids: NDArray[np.uint64],
    downs: NDArray[np.int64],
    child_grid: NDArray[np.uint64],
    child_down: NDArray[np.int64],
    child_move: NDArray[np.int64],
    child_count: NDArray[np.int64],
    child_next: NDArray[np.int64],
    path: NDArray[np.int64],
    best_path: NDArray[np.int64],
    cards: NDArray[np.int64],
    coming: NDArray[np.int64],
    child_bound: NDArray[np.int64],
    at: NDArray[np.int64],
    counters: NDArray[np.int64],
    scratch: NDArray[np.int64],
    reveals: NDArray[np.int64],
) -> bool:
    """List the children of the node at `depth`, best current score first; one step from the
    end they are leaves, scored here instead. True when a leaf ends the search (stop_below)."""
    grid, down = grids[depth], downs[depth]
    variant, turns = at[VARIANT], at[TURNS]
    slide, solo = variant == SLIDE, at[SOLO] != 0
    restricted = depth == 0 and at[FIRST_HOLE] >= 0
    last = depth == turns - 1
    count = 0
    sort_keys = np.empty(MOST_CHILDREN, np.int64)
    for hole in range(CELLS):
        if not (down >> hole) & 1:
            continue
        if restricted and hole != at[FIRST_HOLE]:
            continue
        card = cell_value(grid, hole) if at[SOLO] else cards[depth]
        holed = grid & ~(U(0xF) << U(4 * hole))
        for index in range(PUSH_COUNT[variant, hole]):
            if restricted and index != at[FIRST_INDEX]:
                continue
            pushed = push_grid(holed, STEPS, variant, hole, index, card)
            move = hole * MOST_PUSHES + index
            if last:
                key = _key(pushed)
                counters[LEAVES] += 1
                if key < at[BEST_KEY]:
                    at[BEST_KEY] = key
                    best_path[:depth] = path[:depth]
                    best_path[depth] = move
                    if key < at[STOP_BELOW]:
                        return True
                continue
            pushed_down = push_face_down(down, STEPS, variant, hole, index)
            cutoff = at[BEST_KEY]
            counters[NODES] += 1
            near_end = 0  # one step left: the line argument, cheaper, often stronger
            if depth + 1 == turns - 1:
                if slide:
                    near_end = last_slide_key(pushed, pushed_down)
                else:
                    near_end = last_eject_key(pushed, pushed_down)
                if near_end >= cutoff:
                    counters[PRUNED] += 1
                    continue
            bound = bounded_key(
                pushed, pushed_down, coming[depth + 1], turns - depth - 1, slide, solo, cutoff,
                scratch, reveals,
            )  # fmt: skip
            bound = max(bound, near_end)
            if bound >= cutoff:
                counters[PRUNED] += 1  # nothing below can beat the best leaf
                continue
            # scored only once it survives the bounds: most children one step from the end don't
            key = _key(pushed)
            # one step from the end the leaves are near: the current score orders well enough
            gap = spread(pushed) if depth + 1 < turns - 1 else 0
            order = (bound * ORDER_SPAN + gap) * ORDER_SPAN + key
            # insertion sort on (bound, spread, score, order made): stable
            spot = count
            while spot > 0 and sort_keys[spot - 1] > order:
                sort_keys[spot] = sort_keys[spot - 1]
                child_grid[depth, spot] = child_grid[depth, spot - 1]
                child_down[depth, spot] = child_down[depth, spot - 1]
                child_move[depth, spot] = child_move[depth, spot - 1]
                child_bound[depth, spot] = child_bound[depth, spot - 1]
                spot -= 1
            sort_keys[spot] = order
            child_grid[depth, spot] = pushed
            child_down[depth, spot] = pushed_down
            child_move[depth, spot] = move
            child_bound[depth, spot] = bound
            count += 1
    child_count[depth] = count
    child_next[depth] = 0
    return False


@compiled
def advance(
    grids: NDArray[np.uint64],
    downs: NDArray[np.int64],
    child_grid: NDArray[np.uint64],
    child_down: NDArray[np.int64],
    child_move: NDArray[np.int64],
    child_count: NDArray[np.int64],
    child_next: NDArray[np.int64],
    path: NDArray[np.int64],
    best_path: NDArray[np.int64],
    cards: NDArray[np.int64],
    coming: NDArray[np.int64],
    memo_grid: NDArray[np.uint64],
    memo_meta: NDArray[np.int64],
    child_bound: NDArray[np.int64],
    at: NDArray[np.int64],
    counters: NDArray[np.int64],
    scratch: NDArray[np.int64],
    reveals: NDArray[np.int64],
    budget: int,
) -> int:
    """Go on with the search for at most `budget` node expansions; the new STATUS."""
    turns = at[TURNS]
    while budget > 0:
        depth = at[DEPTH]
        if child_next[depth] >= child_count[depth]:  # every child of this node is done
            if depth == 0:
                at[STATUS] = FINISHED
                return FINISHED
            at[DEPTH] = depth - 1
            continue
        index = child_next[depth]
        child_next[depth] = index + 1
        grid, down = child_grid[depth, index], child_down[depth, index]
        path[depth] = child_move[depth, index]
        below = depth + 1  # < turns: a node one step from the end lists no children
        if child_bound[depth, index] >= at[BEST_KEY]:  # the best leaf improved since
            counters[PRUNED] += 1
            continue
        # one step from the end a node's leaves cost less to score again than to remember
        if below < turns - 1 and _remembered(memo_grid, memo_meta, grid, down, below, counters):
            continue
        grids[below], downs[below] = grid, down
        budget -= 1
        if _expand(
            below, grids, downs, child_grid, child_down, child_move, child_count, child_next,
            path, best_path, cards, coming, child_bound, at, counters, scratch, reveals,
        ):  # fmt: skip
            at[STATUS] = STOPPED
            return STOPPED
        at[DEPTH] = below
    return RUNNING


class Stack:
    """One search's whole state between slices: the path of nodes, each node's children and
    which is next, the best leaf, the memo and the counters."""

    def __init__(
        self,
        grid: int,
        down: int,
        cards: tuple[int, ...] | None,
        turns: int,
        variant: str,
        *,
        best_key: int,
        best_path: tuple[tuple[int, int], ...] | None,
        stop_below: int,
        first: tuple[int, int] | None = None,
        memo_bits: int = MEMO_BITS,
    ) -> None:
        depths = turns + 1
        self.grids = np.zeros(depths, np.uint64)
        self.downs = np.zeros(depths, np.int64)
        self.child_grid = np.zeros((depths, MOST_CHILDREN), np.uint64)
        self.child_down = np.zeros((depths, MOST_CHILDREN), np.int64)
        self.child_move = np.zeros((depths, MOST_CHILDREN), np.int64)
        self.child_bound = np.zeros((depths, MOST_CHILDREN), np.int64)
        self.child_count = np.zeros(depths, np.int64)
        self.child_next = np.zeros(depths, np.int64)
        self.path = np.zeros(depths, np.int64)
        self.best_path = np.full(depths, -1, np.int64)
        if best_path is not None:
            for step, (hole, index) in enumerate(best_path):
                self.best_path[step] = hole * MOST_PUSHES + index
        self.cards = np.array(cards if cards is not None else (0,) * turns, np.int64)
        self.coming = np.zeros((depths, VALUES), np.int64)  # coming[d, v]: v cards from step d
        for depth in range(turns):
            for value in (cards or ())[depth:]:
                self.coming[depth, value] += 1
        self.memo_grid = np.zeros(1 << memo_bits, np.uint64)
        self.memo_meta = np.zeros(1 << memo_bits, np.int64)
        self.at = np.zeros(FIELDS, np.int64)
        self.at[BEST_KEY], self.at[STOP_BELOW], self.at[TURNS] = best_key, stop_below, turns
        self.at[VARIANT], self.at[SOLO] = VARIANT_CODE[variant], cards is None
        self.at[FIRST_HOLE], self.at[FIRST_INDEX] = first if first is not None else (-1, -1)
        self.counters = np.zeros(4, np.int64)
        self.scratch = np.zeros((SCRATCH_ROWS, VALUES), np.int64)
        self.reveals = np.zeros((2, CELLS + 2), np.int64)
        self.grids[0], self.downs[0] = np.uint64(grid), down
        self.counters[NODES] = 1
        stopped = _expand(
            0, self.grids, self.downs, self.child_grid, self.child_down, self.child_move,
            self.child_count, self.child_next, self.path, self.best_path, self.cards,
            self.coming, self.child_bound, self.at, self.counters, self.scratch, self.reveals,
        )  # fmt: skip
        self.at[STATUS] = STOPPED if stopped else RUNNING
        if not stopped and self.child_count[0] == 0:
            self.at[STATUS] = FINISHED  # a one-step puzzle: the root's children were leaves

    def advance(self, budget: int) -> int:
        """Expand at most `budget` more nodes; the status (RUNNING, FINISHED or STOPPED)."""
        if self.at[STATUS] != RUNNING:
            return int(self.at[STATUS])
        return int(
            advance(
                self.grids,
                self.downs,
                self.child_grid,
                self.child_down,
                self.child_move,
                self.child_count,
                self.child_next,
                self.path,
                self.best_path,
                self.cards,
                self.coming,
                self.memo_grid,
                self.memo_meta,
                self.child_bound,
                self.at,
                self.counters,
                self.scratch,
                self.reveals,
                budget,
            )
        )

    @property
    def best_key(self) -> int:
        return int(self.at[BEST_KEY])

    def best_moves(self) -> tuple[tuple[int, int], ...] | None:
        """The best leaf's (hole, index in tables.LEGAL[variant][hole]) per step, if any."""
        turns = int(self.at[TURNS])
        if self.best_path[turns - 1] < 0:
            return None
        return tuple(divmod(int(code), MOST_PUSHES) for code in self.best_path[:turns])

    def count(self, field: int) -> int:
        return int(self.counters[field])
