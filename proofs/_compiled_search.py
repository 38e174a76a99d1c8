"""proofs.search's depth-first search run by the compiled kernel, in slices under a Deadline.

`dekal.kernel._search` holds the search (the same moves, order, memo rule and lower bound as
the Python `search._Search`); this driver gives it the puzzle, the warm start and the bound,
and calls it again and again with a budget of nodes sized so that each slice takes about
`search.SLICE_SECONDS`: between two slices it reads the deadline (which the portfolio may
cancel) and Python may deliver a Ctrl-C. Importing this module loads numba (≈0.5 s).
"""

from __future__ import annotations

import time

from dekal import bits, tables
from dekal.kernel import _search as kernel_search
from dekal.proofs import _bounds as bounds
from dekal.proofs._beam import Guess
from dekal.proofs._steps import Step, moves_of, steps_of
from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import KEY_CARDS, Move, Puzzle

FIRST_BUDGET = 2_000  # nodes in the first slice, before the kernel's pace is known
MOST_BUDGET = 5_000_000


class CompiledSearch:
    """One search over a puzzle on the kernel, keeping the best leaf below `bound` (the
    attributes `search.minimum` and `search.at_most` read are those of `search._Search`)."""

    def __init__(
        self,
        puzzle: Puzzle,
        deadline: Deadline,
        *,
        bound: int,
        stop_below: int = 1,
        first: Move | None = None,
        slice_seconds: float = 0.02,
        nodes: int | None = None,
    ) -> None:
        self.puzzle = puzzle
        self.deadline = deadline
        self.most_nodes = nodes  # None: the deadline alone stops the search
        self.slice_seconds = slice_seconds
        self.legal = tables.LEGAL[puzzle.variant]
        self.first = first
        self.start = bits.pack(puzzle.grid)
        self.floor = bounds.start_key(puzzle)
        """No leaf beats this key: a leaf that meets it ends the search, proved."""
        self.stop_below = max(stop_below, self.floor + 1)
        self.best_key = bound
        self.best: tuple[Step, ...] | None = None
        self.timed_out = False
        self.group: tuple[object, ...] = ()  # the kernel merges no symmetric states
        self.nodes = self.leaves = self.pruned = self.memo_size = 0

    def warm_start(self, guess: Guess) -> None:
        """Take a known outcome (the beam's) as the best leaf so far."""
        key = guess.points * KEY_CARDS + guess.remaining
        if key >= self.best_key:
            return
        self.best_key = key
        self.best = steps_of(self.legal, guess.moves)

    def run(self) -> None:
        if self.best is not None and self.best_key < self.stop_below:
            return  # the warm start already meets the lower bound
        first = steps_of(self.legal, [self.first])[0] if self.first is not None else None
        stack = kernel_search.Stack(
            self.start,
            self.puzzle.face_down_mask,
            self.puzzle.incoming,
            self.puzzle.turns,
            self.puzzle.variant,
            best_key=self.best_key,
            best_path=self.best,
            stop_below=self.stop_below,
            first=first,
        )
        budget = FIRST_BUDGET
        spent = 0  # expansions so far: a RUNNING slice used its whole budget
        status = kernel_search.RUNNING
        while status == kernel_search.RUNNING:
            if self.most_nodes is not None:
                budget = min(budget, self.most_nodes - spent)
            if self.deadline.expired() or budget <= 0:
                self.timed_out = True
                break
            began = time.perf_counter()
            status = stack.advance(budget)
            spent += budget
            took = time.perf_counter() - began
            # aim each slice at slice_seconds, growing at most fourfold at a time
            budget = int(
                min(MOST_BUDGET, budget * 4, budget * self.slice_seconds / max(took, 1e-6))
            )
            budget = max(FIRST_BUDGET // 4, budget)
        self.best_key = stack.best_key
        self.best = stack.best_moves()
        self.nodes = stack.count(kernel_search.NODES)
        self.leaves = stack.count(kernel_search.LEAVES)
        self.pruned = stack.count(kernel_search.PRUNED)
        self.memo_size = stack.count(kernel_search.MEMO)

    def moves(self) -> list[Move]:
        return [] if self.best is None else moves_of(self.legal, self.best)
