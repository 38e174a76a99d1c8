"""The puzzle queries answered by exhaustive search on the optimized engine's grid words.

Independent of the Z3 path: the grid is a `dekal.bits` 64-bit word and the face-down cells
a 16-bit mask; a step is one `dekal.tables.LEGAL` entry applied by `bits.push_grid` and
`bits.push_face_down` (or, for the last steps, `dekal.batch` on arrays, see
`proofs.leaves`); final grids are scored by the engine's kernels. None of it reads
`dekal_ref` or `proofs.encoding`; only the witness is replayed on `dekal_ref` at the end.

The search is depth-first with
* memoisation: a (grid, face-down) state already expanded at the same depth is skipped —
  sound with branch and bound, because a state is expanded under a bound at least as loose
  as any later one, so a second visit can never find a better leaf; when the start has
  symmetries of its own, a state and its images under them are one entry (`proofs.symmetry`);
* branch and bound on the objective key points·32 + cards left (S3's order), from a strong
  first witness (`proofs.beam`: the beam's outcome is the first best leaf);
* an admissible lower bound (`proofs.bounds`): a state whose bound cannot beat the best
  leaf is pruned, and a leaf that meets the bound at the start ends the search, proved;
* move ordering: the children of a node are tried best current score first, so a good
  bound arrives early;
* the last two steps below a node evaluated at once on arrays (`proofs.leaves`); without
  NumPy (the `fast` extra), the last step leaf by leaf in Python: the same leaves.

A finished search is a proof by exhaustion; when the time limit cuts it short the best leaf
so far is returned with `proved_optimal` false.

Two engines run this algorithm. Puzzles of COMPILED_FROM steps or more are searched by the
compiled kernel (`dekal.kernel._search`: the same moves, order, memo rule and bound, compiled
by numba, run in slices between which the clock is read), 10–50 times faster; smaller ones by
the Python search here, which answers them before the kernel would have loaded. Without
numba (the `fast` extra: dekal.extras) every puzzle is searched here, to the same answers.
`minimum(..., compiled=False)` forces the Python search: tests/solver/test_solver_kernel.py compares
the two.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dekal import bits, tables
from dekal.extras import available
from dekal.proofs import _bounds as bounds
from dekal.proofs import _symmetry as symmetry
from dekal.proofs._answer import (
    ZERO,
    Answer,
    Board,
    GaveUp,
    Progress,
    RankedMove,
    certified,
    quiet,
    rank_first_moves,
    score_bound,
)
from dekal.proofs._beam import Guess, quick_bound
from dekal.proofs._replay import replay
from dekal.proofs._smallest import smallest_witness
from dekal.proofs._steps import Step, moves_of, steps_of
from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import KEY_CARDS, Move, Puzzle
from dekal_ref.notation import Grid

if TYPE_CHECKING:  # the compiled search loads numba: imported only when it runs
    from dekal.proofs._compiled_search import CompiledSearch

METHOD = "search"
COMPILED_FROM = {"slide": 4, "eject": 3}
"""Steps from which `minimum` and `at_most` use the compiled kernel: below, the Python search
exhausts a puzzle (48³ or 240² leaves) in less time than loading the kernel takes (≈0.5 s)."""
SLICE_SECONDS = 0.02  # the compiled search reads the clock (and the cancel flag) this often
MEMO_LIMIT = 3_000_000  # states remembered per search (memory stays a few hundred MB at most)


class _Stop(Exception):
    """Unwinds the search: the goal was met, or the time ran out."""


class _Search:
    """One depth-first search over a puzzle, keeping the best leaf below `bound`."""

    def __init__(
        self,
        puzzle: Puzzle,
        deadline: Deadline,
        *,
        bound: int,
        stop_below: int = 1,
        target: int | None = None,
        first: Move | None = None,
        nodes: int | None = None,
    ) -> None:
        self.puzzle = puzzle
        self.deadline = deadline
        self.most_nodes = nodes  # None: the deadline alone stops the search
        self.stop_below = stop_below  # a leaf whose key is below this ends the search at once
        self.target = target  # reach: the only leaf wanted (None: score the leaves)
        self.first = first
        self.best: tuple[Step, ...] | None = None  # the best leaf's steps
        self.best_key = bound  # only leaves with a smaller key are wanted
        self.best_grid = 0
        self.legal = tables.LEGAL[puzzle.variant]
        self.variant = puzzle.variant
        self.cards = puzzle.incoming
        self.turns = puzzle.turns
        self.seen: list[set[int]] = [set() for _ in range(self.turns)]
        self.memo_size = 0
        self.nodes = 0
        self.leaves = 0
        self.path: list[tuple[int, int]] = []  # (hole, index in legal[hole]) per step
        self.timed_out = False
        self.arrays = available("numpy")
        """The last steps on arrays (proofs.leaves), or without NumPy the last one leaf by leaf."""
        self.at_once = 1
        if self.arrays:
            from dekal.proofs import _leaves as leaves

            self.at_once = leaves.steps_at_once(puzzle.variant)
        self.pruned = 0
        start = bits.pack(puzzle.grid)
        self.floor = bounds.start_key(puzzle) if target is None else 0
        """No leaf beats this key (bounds.lower_key at the start): a leaf that meets it ends
        the search, proved."""
        self.group = () if target is not None else symmetry.stabiliser(start, puzzle.face_down_mask)
        """The start's own symmetries: a state and its images under them are one memo entry."""
        self.stop_below = max(stop_below, self.floor + 1)

    def warm_start(self, guess: Guess) -> None:
        """Take a known outcome (the beam's) as the best leaf so far: only better ones are
        looked for, and the search can end at once when it meets the lower bound."""
        key = guess.points * KEY_CARDS + guess.remaining
        if key >= self.best_key or self.target is not None:
            return
        self.best_key = key
        self.best = steps_of(self.legal, guess.moves)

    def run(self) -> None:
        if self.best is not None and self.best_key < self.stop_below:
            return  # the warm start already meets the lower bound
        grid = bits.pack(self.puzzle.grid)
        try:
            self._node(0, grid, self.puzzle.face_down_mask)
        except _Stop:
            return

    def _children(self, depth: int, grid: int, down: int) -> list[tuple[int, int, int, int]]:
        """Every (child grid, child face-down, hole, index) one step away."""
        out: list[tuple[int, int, int, int]] = []
        push_grid, push_face_down = bits.push_grid, bits.push_face_down
        first = self.first if depth == 0 else None
        for hole in range(16):
            if not (down >> hole) & 1:
                continue
            if first is not None and hole != first.reveal:
                continue
            shift = 4 * hole
            card = self.cards[depth] if self.cards is not None else (grid >> shift) & 0xF
            holed = grid & ~(0xF << shift)
            for index, (push, step) in enumerate(self.legal[hole]):
                if first is not None and push != first.push:
                    continue
                out.append((push_grid(holed, step, card), push_face_down(down, step), hole, index))
        return out

    def _node(self, depth: int, grid: int, down: int) -> None:
        self.nodes += 1
        # every node: a node's last steps on arrays can take milliseconds, the clock 0.1 µs
        if self.deadline.expired() or (
            self.most_nodes is not None and self.nodes > self.most_nodes
        ):
            self.timed_out = True
            raise _Stop
        if self.target is None and depth > 0:
            coming = self.cards[depth:] if self.cards is not None else None
            steps = self.turns - depth
            if bounds.lower_key(grid, down, coming, steps, self.variant) >= self.best_key:
                self.pruned += 1  # nothing below can beat the best leaf: skip the subtree
                return
        if self.turns - depth <= self.at_once:
            self._last_steps(depth, grid, down)
            return
        children = self._children(depth, grid, down)
        score = bits.score
        ranked = sorted(children, key=lambda c: score(c[0]))
        seen = self.seen[depth + 1] if depth + 1 < self.turns else None
        for child, child_down, hole, index in ranked:
            if seen is not None:
                state = child | (child_down << 64)
                if self.group:
                    state = symmetry.canonical(child, child_down, self.group)
                if state in seen:
                    continue
                if self.memo_size < MEMO_LIMIT:
                    seen.add(state)
                    self.memo_size += 1
            self.path.append((hole, index))
            self._node(depth + 1, child, child_down)
            self.path.pop()

    def _last_steps(self, depth: int, grid: int, down: int) -> None:
        """The last one or two steps below this node, evaluated at once on arrays."""
        if not self.arrays:
            self._last_step_leaf_by_leaf(depth, grid, down)
            return
        from dekal.proofs import _leaves as leaves

        cards = tuple(
            self.cards[step] if self.cards is not None else None
            for step in range(depth, self.turns)
        )
        found = leaves.best_leaf(
            grid,
            down,
            variant=self.puzzle.variant,
            cards=cards,
            first=self.first if depth == 0 else None,
            target=self.target,
        )
        self.leaves += found.leaves
        if found.key < 0 or found.key >= self.best_key:
            return
        self.best_key = found.key
        self.best_grid = found.grid
        shapes = leaves.shapes_of(self.puzzle.variant)
        tail = tuple((int(shapes.hole[s]), int(shapes.index[s])) for s in found.shapes)
        self.best = (*self.path, *tail)
        if self.target is not None or found.key < self.stop_below:
            raise _Stop

    def _last_step_leaf_by_leaf(self, depth: int, grid: int, down: int) -> None:
        """The leaves one step below this node (or the node itself at the last depth), one
        Python call each: what `_last_steps` does on arrays, for an install without NumPy."""
        if depth == self.turns:
            tails: list[tuple[int, tuple[Step, ...]]] = [(grid, ())]
        else:
            children = self._children(depth, grid, down)
            tails = [(child, ((hole, index),)) for child, _, hole, index in children]
        for leaf, tail in tails:
            self.leaves += 1
            if self.target is not None and leaf != self.target:
                continue
            points, left = bits.score(leaf)
            key = points * KEY_CARDS + left
            if key >= self.best_key:
                continue
            self.best_key, self.best_grid = key, leaf
            self.best = (*self.path, *tail)
            if self.target is not None or key < self.stop_below:
                raise _Stop

    def moves(self) -> list[Move]:
        return [] if self.best is None else moves_of(self.legal, self.best)


def _searcher(
    puzzle: Puzzle,
    deadline: Deadline,
    *,
    bound: int,
    stop_below: int = 1,
    first: Move | None = None,
    compiled: bool | None = None,
    nodes: int | None = None,
) -> _Search | CompiledSearch:
    """The search for this puzzle: the compiled one from COMPILED_FROM steps on when numba is
    installed (or as `compiled` says), else the Python one; `nodes`: at most this many node
    expansions (None: no limit but the deadline)."""
    steps = puzzle.turns - (1 if first is not None else 0)
    if compiled is None:
        compiled = steps >= COMPILED_FROM[puzzle.variant] and available("numba")
    if not compiled:
        return _Search(
            puzzle, deadline, bound=bound, stop_below=stop_below, first=first, nodes=nodes
        )
    from dekal.proofs._compiled_search import CompiledSearch

    return CompiledSearch(
        puzzle,
        deadline,
        bound=bound,
        stop_below=stop_below,
        first=first,
        slice_seconds=SLICE_SECONDS,
        nodes=nodes,
    )


def _answer(search: _Search | CompiledSearch, started: float, proof: str) -> Answer:
    points, left = divmod(search.best_key, KEY_CARDS)
    stats = {
        "nodes": float(search.nodes),
        "leaves": float(search.leaves),
        "memo_states": float(search.memo_size),
        "pruned": float(search.pruned),
        "symmetries": float(len(search.group)),
        "lower_bound": float(search.floor // KEY_CARDS),
        "search_seconds": time.perf_counter() - started,
        "compiled": float(not isinstance(search, _Search)),
    }
    return certified(
        search.puzzle,
        search.moves(),
        points,
        left,
        started=started,
        method=METHOD,
        proof=proof,
        stats=stats,
        first=search.first,
        deadline=search.deadline,
    )


def minimum(
    puzzle: Puzzle,
    *,
    timeout: float = 60.0,
    progress: Progress = quiet,
    first: Move | None = None,
    deadline: Deadline | None = None,
    warm: Guess | None = None,
    compiled: bool | None = None,
    nodes: int | None = None,
) -> Answer:
    """The lowest score, then fewest cards (S3), by exhaustive search with branch and bound.

    The beam's outcome (`beam.quick_bound`) is the first best leaf; the search then looks only
    for better ones, prunes every state whose lower bound (`bounds.lower_key`) cannot beat the
    best leaf, and ends at once when a leaf meets the bound at the start (proved: nothing
    scores lower). Within `deadline` (or `timeout` seconds): when the time runs out, the best
    leaf so far is the answer, unproved. `warm`: the beam's outcome when the caller has it.
    `compiled`: which engine searches (None: the compiled one from COMPILED_FROM steps on).
    `nodes`: at most this many node expansions, a limit that, unlike the clock's, stops the
    search at the same place on every machine (past it the answer is unproved, as at the
    deadline).
    """
    started = time.perf_counter()
    deadline = deadline or Deadline(timeout)
    search = _searcher(puzzle, deadline, bound=1 << 30, first=first, compiled=compiled, nodes=nodes)
    guess = warm or quick_bound(puzzle, first=first, deadline=deadline)
    search.warm_start(guess)
    progress(
        f"search: {puzzle.turns} steps, beam {guess.points}/{guess.remaining}, "
        f"lower bound {search.floor // KEY_CARDS}"
    )
    search.run()
    progress(
        f"search: {search.nodes} nodes, {search.leaves} leaves, {search.pruned} pruned, "
        f"{search.memo_size} states memoised"
    )
    if search.best is None:  # only the deadline stops a search before its first leaf
        return _guessed(puzzle, guess, started, first)
    if search.best_key == 0:
        proof = ZERO
    elif search.best_key <= search.floor:
        proof = bounds.PROOF
    else:
        proof = "" if search.timed_out else "exhaustive search"
    return _answer(search, started, proof)


def _guessed(puzzle: Puzzle, guess: Guess, started: float, first: Move | None) -> Answer:
    """The beam's outcome as an answer: unproved, unless it is the least outcome (S2)."""
    proof = ZERO if (guess.points, guess.remaining) == (0, 0) else ""
    return certified(
        puzzle,
        guess.moves,
        guess.points,
        guess.remaining,
        started=started,
        method=METHOD,
        proof=proof,
        stats={"search_seconds": time.perf_counter() - started},
        first=first,
    )


def at_most(
    puzzle: Puzzle,
    bound: int,
    *,
    timeout: float = 60.0,
    deadline: Deadline | None = None,
    compiled: bool | None = None,
) -> Answer | None:
    """A witness whose score is ≤ bound, or None when the exhaustive search found none
    (GaveUp when the deadline passed first). `compiled` as in `minimum`."""
    started = time.perf_counter()
    score_bound(bound)
    deadline = deadline or Deadline(timeout)
    search = _searcher(
        puzzle,
        deadline,
        bound=(bound + 1) * KEY_CARDS,
        stop_below=(bound + 1) * KEY_CARDS,
        compiled=compiled,
    )
    search.run()
    if search.best is not None:
        limit = (bound + 1) * KEY_CARDS - 1
        moves = smallest_witness(puzzle, search.moves(), limit=limit, deadline=deadline)
        return settled(puzzle, moves, started)
    if search.timed_out:
        raise GaveUp(f"the search ran out of time (limit {deadline.limit:g} s)")
    return None


def settled(puzzle: Puzzle, moves: Sequence[Move], started: float) -> Answer:
    """A yes of `at_most` or `reach`, its witness settled (proofs._smallest), certified."""
    found = replay(puzzle, moves)
    return certified(
        puzzle, moves, found.points, found.remaining, started=started, method=METHOD, proof=""
    )


def reach(
    puzzle: Puzzle, target: Grid, *, timeout: float = 60.0, deadline: Deadline | None = None
) -> Answer | None:
    """A witness that ends on exactly `target`, or None when the exhaustive search found none
    (GaveUp when the deadline passed first)."""
    started = time.perf_counter()
    deadline = deadline or Deadline(timeout)
    word = bits.pack(target)
    search = _Search(puzzle, deadline, bound=1 << 30, target=word)
    search.run()
    if search.best is not None and search.best_grid == word:
        moves = smallest_witness(puzzle, search.moves(), target=target, deadline=deadline)
        return settled(puzzle, moves, started)
    if search.timed_out:
        raise GaveUp(f"the search ran out of time (limit {deadline.limit:g} s)")
    return None


def first_moves(puzzle: Puzzle) -> list[Move]:
    """Every legal first step: a face-down cell to reveal and a push (T1, P1/P2)."""
    return [
        Move(hole, push)
        for hole in sorted(puzzle.face_down)
        for push, _ in tables.LEGAL[puzzle.variant][hole]
    ]


def rank(
    puzzle: Puzzle,
    *,
    timeout: float = 60.0,
    progress: Progress = quiet,
    deadline: Deadline | None = None,
    board: Board | None = None,
) -> list[RankedMove]:
    """Every legal first move with the best reachable (score, cards), best first
    (answer.rank_first_moves: one deadline shared out among the moves)."""

    def best_after(move: Move, share: Deadline) -> Answer:
        return minimum(puzzle, first=move, deadline=share)

    firsts = first_moves(puzzle)
    deadline = deadline or Deadline(timeout)
    return rank_first_moves(
        firsts, best_after, METHOD, deadline, progress, puzzle=puzzle, board=board
    )
