"""The witness every method prints: the smallest in move order among the equal ones (S3).

Many move sequences often reach the same optimum (3 points with 2 cards left by `b2:R d1:L`
or by `d3:B d1:L`). Which one a method finds depends on how it searches: the Python search
and the compiled kernel order their leaves differently, Z3 returns any model. So that every
method, on every install, prints the same answer, the witness is settled after the method
has found its outcome: a depth-first walk in move order (`Move`'s order: the cell revealed,
then the push, as `--rank` lists equal moves) returns the first sequence that does as well,
pruning every state whose lower bound (`proofs.bounds.lower_key`) cannot, and remembering
the states that cannot. The walk is bounded by a count of steps, not by a clock, so where it
finishes it finishes the same everywhere; past STEPS (a puzzle with few optimal lines deep
in move order) the method's own witness stands.
"""

from __future__ import annotations

from collections.abc import Sequence

from dekal import bits, tables
from dekal.bits import PushStep
from dekal.proofs import _bounds as bounds
from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import Move, Puzzle
from dekal_ref.notation import Grid

KEY_CARDS = 32  # proofs._answer.KEY_CARDS: points·32 + cards left is S3's order
STEPS = 10_000
"""Steps the walk may play, at most: a tenth of a second or so in Python. Measured on the 20
puzzles of bench/hard_puzzles.json (4-8 steps): it settles 3 within it (median walk 0.135 s,
slowest 0.41 s; 40,000 steps settled 7, slowest 0.93 s); it settles every puzzle of
docs/puzzles.md and tests/solver/test_solver_same_witness.py."""


class _OutOfSteps(Exception):
    """The walk reached STEPS: the method's witness stands."""


def smallest_witness(
    puzzle: Puzzle,
    found: Sequence[Move],
    *,
    limit: int | None = None,
    target: Grid | None = None,
    first: Move | None = None,
    deadline: Deadline | None = None,
) -> tuple[Move, ...]:
    """The smallest sequence in move order whose final grid has key ≤ `limit` (points·32 +
    cards left), or is exactly `target`, starting with `first` when given; `found` (a
    sequence that qualifies) when the walk runs out of STEPS first, or `deadline` passes
    (the query's own: settling never makes an answer late)."""
    walk = _Walk(puzzle, limit, bits.pack(target) if target is not None else None, first)
    walk.deadline = deadline
    try:
        settled = walk.below(0, bits.pack(puzzle.grid), puzzle.face_down_mask)
    except _OutOfSteps:
        return tuple(found)
    return tuple(found) if settled is None else tuple(settled)


class _Walk:
    """One depth-first walk in move order, for the first leaf that qualifies."""

    def __init__(
        self, puzzle: Puzzle, limit: int | None, target: int | None, first: Move | None
    ) -> None:
        self.puzzle = puzzle
        self.limit = limit
        self.target = target
        self.first = first
        self.legal = tables.LEGAL[puzzle.variant]
        self.steps = 0
        self.deadline: Deadline | None = None
        self.dead: set[tuple[int, int, int]] = set()

    def qualifies(self, grid: int) -> bool:
        if self.target is not None and grid != self.target:
            return False
        points, left = bits.score(grid)
        return self.limit is None or points * KEY_CARDS + left <= self.limit

    def below(self, depth: int, grid: int, down: int) -> list[Move] | None:
        """The first qualifying sequence of the steps left from this state, in move order."""
        turns = self.puzzle.turns
        if depth == turns:
            return [] if self.qualifies(grid) else None
        state = (depth, grid, down)
        if state in self.dead:
            return None
        cards = self.puzzle.incoming
        if self.limit is not None and depth > 0:
            coming = cards[depth:] if cards is not None else None
            least = bounds.lower_key(grid, down, coming, turns - depth, self.puzzle.variant)
            if least > self.limit:
                self.dead.add(state)
                return None
        for move, step in self.moves(depth, down):
            self.steps += 1
            if self.steps > STEPS or (
                self.steps % 256 == 0 and self.deadline is not None and self.deadline.expired()
            ):
                raise _OutOfSteps
            shift = 4 * move.reveal
            card = cards[depth] if cards is not None else (grid >> shift) & 0xF
            holed = grid & ~(0xF << shift)
            child = bits.push_grid(holed, step, card)
            rest = self.below(depth + 1, child, bits.push_face_down(down, step))
            if rest is not None:
                return [move, *rest]
        self.dead.add(state)
        return None

    def moves(self, depth: int, down: int) -> list[tuple[Move, PushStep]]:
        """Every legal step from here (T1, P1/P2) as (Move, table step), in move order."""
        steps = [
            (Move(hole, push), step)
            for hole in range(16)
            if (down >> hole) & 1
            for push, step in self.legal[hole]
        ]
        if depth == 0 and self.first is not None:
            steps = [(move, step) for move, step in steps if move == self.first]
        return sorted(steps, key=lambda item: item[0])
