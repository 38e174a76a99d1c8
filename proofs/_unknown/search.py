"""The guaranteed (minimax) and expected (expectimax) values of a solo position with unknown
face-down cards, by memoised exhaustive search (spec/solo-unknown.md, U4–U7).

A state is a grid word (`dekal.bits`: the face-down cells hold 0) and its 16-bit face-down
mask. The unseen multiset is not part of the key: every revealed card comes back in (U3),
so the unseen cards of a state are the start's less the face-up cards it gained, which the
grid word determines. A step reveals a face-down cell, a value v comes with probability
count(v)/N (U2) or adversarially (U5), and the card enters by a `dekal.tables.LEGAL` push.

    guaranteed(s) = min over cells c of  max over values v of  min over pushes p of guaranteed(s')
    expected(s)   = min over cells c of  sum over v of count(v)/N · min over p of expected(s')

`expected` is computed in integers: W(s) = expected(s) · N·(N−1)·…·(N−k+1) for N unseen
cards and k face-down cells, so W(s) = min_c Σ_v count(v) · min_p W(s') exactly, and the
fraction is W over that falling factorial (U6). Pruning (U8), each rule pinned by
tests/solver/unknown/test_unknown_search.py against the unpruned search and the brute force:

* G1: a reveal is abandoned as soon as one value gives it a guarantee ≥ the best reveal's
  (a maximum only grows);
* G2: for one value, the pushes stop as soon as one reaches a guarantee ≤ the worst value
  so far of this reveal (the minimum can only fall, and cannot raise that maximum);
* E1: a reveal is abandoned as soon as its partial sum Σ count(v)·W(s'), over the values
  seen so far, is ≥ the best reveal's W (every term is ≥ 0: scores are never negative).

Each rule only skips children whose exact value cannot change the node's, so every value
the search returns (and memoises) is exact. The compiled kernel carries the bounds down
(G3, E2: windows, fail-soft); its drivers ask it for exact values only, or, in the first
step's search, below a ceiling that says whether a reveal or push reaches the optimum.
Ties (U7): the lowest cell in reading order (a1, b1, …, d4), then the first push in
notation order (`dekal_ref.push.legal_pushes`). The memo merges a state with its images
under the start's own symmetries (`proofs.symmetry`, as the puzzle search does).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from dekal import bits, tables
from dekal.extras import available
from dekal.proofs import _symmetry as symmetry
from dekal.proofs._unknown.position import VALUES, UnknownPosition
from dekal.proofs.limits import Deadline
from dekal_ref.notation import Push

CLOCK_EVERY = 1024
"""Nodes between two looks at the deadline."""
COMPILED_FROM = {"slide": 4, "eject": 3}
"""Unknown cells from which `solve` uses the compiled kernel: below, the Python search is
done before numba would have loaded (≈0.5 s)."""


class OutOfTime(Exception):
    """The deadline passed before the search could finish: no exact value."""


def falling(n: int, k: int) -> int:
    """n·(n−1)·…·(n−k+1): the number of ordered draws of k cards out of n (U6)."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass(frozen=True)
class FirstStep:
    """The first step of an optimal strategy (U7): the cell to reveal, and for each value
    that can come the push to play and the value of the position after it."""

    reveal: int
    push_by_value: tuple[tuple[int, Push, Fraction], ...]
    """(value, push, value after the push) for every value with an unseen card, ascending."""


class _Game:
    """One position's search: the mutable unseen counts follow the recursion."""

    def __init__(self, position: UnknownPosition, deadline: Deadline, *, prune: bool) -> None:
        self.position = position
        self.legal = tables.LEGAL[position.variant]
        self.counts = list(position.unseen)
        self.deadline = deadline
        self.prune = prune
        self.start = bits.pack(position.grid)
        self.start_down = position.face_down_mask
        self.group = symmetry.stabiliser(self.start, self.start_down)
        self.guaranteed_memo: dict[int, int] = {}
        self.expected_memo: dict[int, int] = {}
        self.last_memo: dict[int, tuple[int, ...]] = {}
        self.nodes = 0

    def memo_states(self) -> int:
        return len(self.guaranteed_memo) + len(self.expected_memo) + len(self.last_memo)

    def key(self, grid: int, down: int) -> int:
        if self.group:
            return symmetry.canonical(grid, down, self.group)
        return grid | (down << 64)

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 1 and self.deadline.expired():  # the first node too
            raise OutOfTime

    def last(self, grid: int, down: int) -> tuple[int, ...]:
        """One face-down cell left: for each value 1..10, the least final points over the
        pushes that bring it back. It does not depend on the counts, so `guaranteed` and
        `expected` share it (one memo)."""
        key = self.key(grid, down)
        known = self.last_memo.get(key)
        if known is not None:
            return known
        self.tick()
        cell = down.bit_length() - 1
        points, push_grid = bits.score_points, bits.push_grid
        steps = [step for _, step in self.legal[cell]]
        least = tuple(
            min(int(points(push_grid(grid, step, value))) for step in steps) for value in VALUES
        )
        self.last_memo[key] = least
        return least

    def values(self) -> list[int]:
        return [v for v in VALUES if self.counts[v - 1] > 0]

    def children(self, grid: int, down: int, cell: int, value: int) -> list[tuple[int, int]]:
        """The states after `cell` is revealed, `value` comes, and each legal push brings it
        back in (U3), in notation order. The face-down cell's nibble is 0 already: the hole."""
        push_grid, push_down = bits.push_grid, bits.push_face_down
        return [
            (push_grid(grid, step, value), push_down(down, step)) for _, step in self.legal[cell]
        ]

    # guaranteed: min over cells, max over values, min over pushes (U5)

    def guaranteed(self, grid: int, down: int) -> int:
        if down == 0:
            return int(bits.score_points(grid))
        if down & (down - 1) == 0:
            least = self.last(grid, down)
            return max(least[v - 1] for v in VALUES if self.counts[v - 1] > 0)
        key = self.key(grid, down)
        known = self.guaranteed_memo.get(key)
        if known is not None:
            return known
        self.tick()
        best = 1 << 30
        for cell in _cells(down):
            worst = self.guaranteed_after(grid, down, cell, best)
            if worst < best:
                best = worst
        self.guaranteed_memo[key] = best
        return best

    def guaranteed_below(self, grid: int, down: int, high: int) -> int:
        """guaranteed(s) when it is below `high`; else some number ≥ high (fail-soft). This
        exhaustive search is always exact; the compiled one searches the window (−1, high)."""
        del high
        return self.guaranteed(grid, down)

    def guaranteed_reaches(self, grid: int, down: int, cell: int, bound: int) -> bool:
        """Is max over values of min over pushes, after revealing `cell`, ≤ `bound`? Each
        value needs one push whose guarantee is ≤ bound: a child is searched only as far as
        that (below bound + 1), and the values stop at the first one without such a push."""
        for value in self.values():
            self.counts[value - 1] -= 1
            try:
                reached = any(
                    self.guaranteed_below(child, child_down, bound + 1) <= bound
                    for child, child_down in self.children(grid, down, cell, value)
                )
            finally:
                self.counts[value - 1] += 1
            if not reached:
                return False
        return True

    def guaranteed_after(self, grid: int, down: int, cell: int, best: int) -> int:
        """max over values of min over pushes, after revealing `cell`; with G1 on, any
        number ≥ `best` once it is known to be ≥ best."""
        worst = -1
        for value in reversed(self.values()):  # high values first: they tend to be worst
            self.counts[value - 1] -= 1
            least = 1 << 30
            for child, child_down in self.children(grid, down, cell, value):
                least = min(least, self.guaranteed(child, child_down))
                if self.prune and least <= worst:  # G2
                    break
            self.counts[value - 1] += 1
            worst = max(worst, least)
            if self.prune and worst >= best:  # G1
                break
        return worst

    # expected, scaled by the falling factorial: min over cells of Σ count · min (U6)

    def expected(self, grid: int, down: int, high: int | None = None) -> int:
        """W(s); `high` lets a search stop early (fail-soft: a result ≥ high may be a bound
        from below); this exhaustive search ignores it and is always exact."""
        if down == 0:
            return int(bits.score_points(grid))
        if down & (down - 1) == 0:
            least = self.last(grid, down)
            return sum(n * m for n, m in zip(self.counts, least, strict=True))
        key = self.key(grid, down)
        known = self.expected_memo.get(key)
        if known is not None:
            return known
        self.tick()
        best: int | None = None
        for cell in _cells(down):
            total = self.expected_after(grid, down, cell, best)
            if best is None or total < best:
                best = total
        assert best is not None
        self.expected_memo[key] = best
        return best

    def expected_after(self, grid: int, down: int, cell: int, best: int | None) -> int:
        """Σ over values of count · min over pushes of W, after revealing `cell`; with E1 on,
        any number ≥ `best` once the partial sum reaches it."""
        total = 0
        for value in self.values():
            count = self.counts[value - 1]
            self.counts[value - 1] -= 1
            # E2: a child at or above `enough` would take the sum to `best`
            enough = None if best is None else max(0, -((total - best) // count))
            least: int | None = None
            for c, d in self.children(grid, down, cell, value):
                window = (
                    enough if least is None else least if enough is None else min(least, enough)
                )
                found = self.expected(c, d, window)
                least = found if least is None else min(least, found)
            assert least is not None
            self.counts[value - 1] += 1
            total += count * least
            if self.prune and best is not None and total >= best:  # E1
                break
        return total


SLICE_SECONDS = 0.05  # the compiled search reads the clock this often
FIRST_BUDGET = 500  # new nodes in the compiled search's first slice


class CompiledGame(_Game):
    """The same search with `guaranteed` and `expected` run by the compiled kernel
    (`proofs._unknown.kernel`), in slices of new nodes between which the deadline is read.
    The Python methods around them (the reveals' loops at the root, the first step) are
    _Game's."""

    def __init__(
        self, position: UnknownPosition, deadline: Deadline, *, prune: bool, singles: bool = True
    ) -> None:
        """`singles=False`: every rule of U8 but E5 (the tests' yardstick for it)."""
        super().__init__(position, deadline, prune=prune)
        self.prune_code = 0 if not prune else 1 if singles else 2
        from dekal.extras import needed

        with needed("the compiled unknown-card search"):
            import numpy as np

        from dekal.kernel import _tables as kernel_tables
        from dekal.proofs._unknown import kernel as kernel
        from dekal.proofs._unknown.tables import FAR

        self.kernel = kernel
        self.far = FAR
        self.np = np
        self.steps = kernel_tables.STEPS
        self.pushes = kernel_tables.PUSH_COUNT
        self.variant = kernel_tables.VARIANT_CODE[position.variant]
        self.memos = {"guaranteed": kernel.new_memo(), "expected": kernel.new_memo()}
        self.budget = FIRST_BUDGET

    def _run(self, which: str, grid: int, high: int | None) -> int:
        """The kernel's value of `grid` (exact; with `high`, fail-soft: below it exact, at or
        above it a bound from below), slice after slice of new nodes."""
        function = getattr(self.kernel, which)
        counts = self.np.array(self.counts, dtype=self.np.int64)
        word = self.np.uint64(grid)
        while True:
            if self.deadline.expired():
                raise OutOfTime
            state = self.np.array([0, self.budget, 0, self.prune_code], dtype=self.np.int64)
            began = time.perf_counter()
            ceiling = self.far if high is None else high
            window = (-1, ceiling) if which == "guaranteed" else (ceiling,)
            found = function(
                word,
                counts,
                self.steps,
                self.pushes,
                self.variant,
                self.memos[which],
                state,
                *window,
            )
            took = time.perf_counter() - began
            self.nodes += int(state[0])
            if not state[2]:
                return int(found)
            self.budget = int(min(self.budget * 4, self.budget * SLICE_SECONDS / max(took, 1e-6)))
            self.budget = max(FIRST_BUDGET, self.budget)

    def guaranteed(self, grid: int, down: int) -> int:
        return self._run("guaranteed", grid, None)

    def guaranteed_below(self, grid: int, down: int, high: int) -> int:
        return self._run("guaranteed", grid, high)

    def expected(self, grid: int, down: int, high: int | None = None) -> int:
        return self._run("expected", grid, high)

    def memo_states(self) -> int:
        return sum(len(memo) for memo in self.memos.values())


def fits(position: UnknownPosition) -> bool:
    """Do the scaled expectations fit the kernel's 64-bit integers (below its FAR)?"""
    scale = falling(position.unseen_total, len(position.face_down))
    return scale * 160 < (1 << 58)


def _cells(down: int) -> list[int]:
    return [cell for cell in range(16) if (down >> cell) & 1]


@dataclass(frozen=True)
class Exact:
    """The exact values of a position (U5, U6) and the first step of each optimal strategy."""

    guaranteed: int
    expected: Fraction
    guaranteed_first: FirstStep
    expected_first: FirstStep
    nodes: int
    memo_states: int


def solve(
    position: UnknownPosition,
    *,
    deadline: Deadline | None = None,
    prune: bool = True,
    compiled: bool | None = None,
    guarantee: tuple[int, FirstStep] | None = None,
) -> Exact:
    """The guaranteed and expected values with their first steps (OutOfTime if the deadline
    passes first). `prune=False`: every child searched (the tests' yardstick for G1, G2, E1).
    `compiled`: the kernel searches (None: from COMPILED_FROM unknown cells when numba is
    installed and the numbers fit). `guarantee`: U5's value and first step when another
    method has proved them already (the race's winner): only U6 is searched."""
    game = _game(position, deadline or Deadline(3600.0), prune=prune, compiled=compiled)
    grid, down = game.start, game.start_down
    scale = falling(position.unseen_total, len(position.face_down))
    if guarantee is None:
        guarantee = _guarantee(game)
    expected = game.expected(grid, down)
    return Exact(
        guaranteed=guarantee[0],
        expected=Fraction(expected, scale),
        guaranteed_first=guarantee[1],
        expected_first=_first(game, expected, scaled=True),
        nodes=game.nodes,
        memo_states=game.memo_states(),
    )


def solve_guaranteed(
    position: UnknownPosition, *, deadline: Deadline | None = None, compiled: bool | None = None
) -> tuple[int, FirstStep]:
    """U5's value and first step alone (OutOfTime if the deadline passes first): the
    search's half of the race against Z3 (`proofs._unknown.race`)."""
    return _guarantee(_game(position, deadline or Deadline(3600.0), prune=True, compiled=compiled))


def _guarantee(game: _Game) -> tuple[int, FirstStep]:
    value = game.guaranteed(game.start, game.start_down)
    return value, _first(game, value, scaled=False)


def _game(
    position: UnknownPosition, deadline: Deadline, *, prune: bool, compiled: bool | None
) -> _Game:
    if compiled is None:
        compiled = (
            len(position.face_down) >= COMPILED_FROM[position.variant]
            and fits(position)
            and available("numba")
        )
    if compiled:
        return CompiledGame(position, deadline, prune=prune)
    return _Game(position, deadline, prune=prune)


def _first(game: _Game, optimum: int, *, scaled: bool) -> FirstStep:
    """U7's witness: the lowest cell whose value is the optimum, then per value the first
    push (notation order) that keeps it; every number here is exact (G1/E1 off at the root)."""
    grid, down = game.start, game.start_down
    position = game.position
    children_scale = falling(position.unseen_total - 1, len(position.face_down) - 1)
    for cell in _cells(down):
        if scaled:  # a reveal's sum at or above optimum + 1 is not the optimum (E1)
            if game.expected_after(grid, down, cell, optimum + 1) != optimum:
                continue
        elif not game.guaranteed_reaches(grid, down, cell, optimum):
            continue  # no reveal guarantees less than the optimum: ≤ it is = it
        table: list[tuple[int, Push, Fraction]] = []
        for value in game.values():
            game.counts[value - 1] -= 1
            after: list[int] = []
            for c, d in game.children(grid, down, cell, value):
                # a child at or above the least so far is not the first best push: searched
                # below it, its value is exact when it is less (fail-soft, G3 and E2)
                if scaled:
                    high = min(after) + 1 if after else None
                    after.append(game.expected(c, d, high))
                elif after:
                    after.append(game.guaranteed_below(c, d, min(after)))
                else:
                    after.append(game.guaranteed(c, d))
            game.counts[value - 1] += 1
            index = after.index(min(after))
            push = game.legal[cell][index][0]
            table.append((value, push, Fraction(after[index], children_scale if scaled else 1)))
        return FirstStep(reveal=cell, push_by_value=tuple(table))
    raise AssertionError("no first step reaches the optimum")  # the optimum is one of them
