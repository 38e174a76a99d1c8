"""A strong first witness, fast: beam searches over the puzzle's steps (no proof).

Level by level, every state one step further is built on the optimized engine's words
(`dekal.bits`, `dekal.tables`), equal (grid, face-down) states are merged, and only the
`width` states with the lowest current score go on. The outcome is a real reachable one (the
moves are kept and replayed like any witness): the search starts from it as its best leaf,
Z3 starts its descent from it, and it is the answer of last resort when the deadline passes
before a method holds a witness of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal import bits, tables
from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import Move, Puzzle


@dataclass(frozen=True)
class Guess:
    """An outcome some move sequence reaches (no proof that it is the best)."""

    points: int
    remaining: int
    moves: tuple[Move, ...]

    @property
    def key(self) -> int:
        """S3's order in one number (answer.KEY_CARDS = 32)."""
        return self.points * 32 + self.remaining


BEAM_WIDTHS = {"slide": (1, 64, 512), "eject": (1, 32, 128)}
"""The beams tried in turn by `quick_bound` until one reaches 0 points (eject steps are 5× more).
The first, of width 1 (greedy), takes about a millisecond and always runs to its end."""


def quick_bound(
    puzzle: Puzzle, *, first: Move | None = None, deadline: Deadline | None = None
) -> Guess:
    """The best outcome of the beams of BEAM_WIDTHS, tried in turn until one reaches 0 points
    or the deadline passes (the greedy beam always runs: there is always an outcome)."""
    best: Guess | None = None
    for width in BEAM_WIDTHS[puzzle.variant]:
        found = beam(puzzle, width=width, first=first, deadline=deadline if best else None)
        if found is None:  # the deadline passed
            break
        if best is None or found.key < best.key:
            best = found
        if best.points == 0:
            break
    assert best is not None
    return best


def beam(
    puzzle: Puzzle, *, width: int, first: Move | None = None, deadline: Deadline | None = None
) -> Guess | None:
    """Level by level, expand only the `width` states with the lowest current score (None
    when the deadline passes first)."""
    legal = tables.LEGAL[puzzle.variant]
    level: dict[tuple[int, int], tuple[Move, ...]] = {
        (bits.pack(puzzle.grid), puzzle.face_down_mask): ()
    }
    for depth in range(puzzle.turns):
        children: dict[tuple[int, int], tuple[Move, ...]] = {}
        for (grid, down), path in level.items():
            if deadline is not None and deadline.expired():
                return None
            for hole in range(16):
                if not (down >> hole) & 1 or (depth == 0 and first and hole != first.reveal):
                    continue
                shift = 4 * hole
                card = puzzle.incoming[depth] if puzzle.incoming else (grid >> shift) & 0xF
                holed = grid & ~(0xF << shift)
                for push, step in legal[hole]:
                    if depth == 0 and first and push != first.push:
                        continue
                    state = (bits.push_grid(holed, step, card), bits.push_face_down(down, step))
                    children.setdefault(state, (*path, Move(hole, push)))
        ranked = sorted(children, key=lambda state: bits.score(state[0]))
        level = {
            state: children[state] for state in ranked[: width if depth < puzzle.turns - 1 else 1]
        }
    ((grid, _), moves), *_ = level.items()
    points, remaining = bits.score(grid)
    return Guess(points, remaining, moves)
