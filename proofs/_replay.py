"""Replaying a puzzle answer on the reference engine: the gate every witness passes (T1, T4, S1–S2).

A solver's move sequence is trusted only after `replay` has played it with
`dekal_ref.push.push_card` and scored it with `dekal_ref.scoring.score_grid`. `certify` also
compares the outcome with what the solver claimed: a witness that does not replay, or replays
to another score, is a bug in the solver and raises `WitnessError` (it is never printed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dekal.proofs.puzzle import Move, Puzzle
from dekal_ref.errors import DekalError
from dekal_ref.notation import HOLE, Grid, cell_name
from dekal_ref.push import apply_chain, hole_of, push_card, push_chain
from dekal_ref.scoring import score_grid


class WitnessError(AssertionError):
    """A solver produced a move sequence that the reference engine refuses or scores otherwise."""


@dataclass(frozen=True)
class Frame:
    """The grid after a step, its face-down cells, and the step that led to it (None at start)."""

    grid: Grid
    face_down: frozenset[int]
    move: Move | None
    card: int | None


@dataclass(frozen=True)
class Outcome:
    """The final score (S2), cards left, and every frame from the start to the end."""

    points: int
    remaining: int
    frames: tuple[Frame, ...]

    @property
    def final(self) -> Grid:
        return self.frames[-1].grid


def replay(puzzle: Puzzle, moves: Sequence[Move]) -> Outcome:
    """Play `moves` on the reference engine. Raises DekalError on any illegal step."""
    if len(moves) != puzzle.turns:
        raise DekalError(f"{len(moves)} moves given for a puzzle of {puzzle.turns} steps")
    grid = puzzle.grid
    down = puzzle.face_down
    frames = [Frame(grid, down, None, None)]
    for step, move in enumerate(moves):
        if move.reveal not in down:
            raise DekalError(f"step {step + 1}: {cell_name(move.reveal)} is not face down (T1)")
        card = puzzle.card_for(step, grid[move.reveal])
        holed = grid[: move.reveal] + (HOLE,) + grid[move.reveal + 1 :]
        chain = push_chain(hole_of(holed), move.push, puzzle.variant)
        grid = push_card(holed, move.push, card, puzzle.variant)
        faces = apply_chain([cell in down for cell in range(16)], chain, False)
        down = frozenset(cell for cell, is_down in enumerate(faces) if is_down)
        frames.append(Frame(grid, down, move, card))
    result = score_grid(grid)
    return Outcome(result.points, result.remaining, tuple(frames))


def certify(puzzle: Puzzle, moves: Sequence[Move], points: int, remaining: int) -> Outcome:
    """Replay and check the claimed outcome; raise WitnessError on any difference."""
    try:
        outcome = replay(puzzle, moves)
    except DekalError as error:
        raise WitnessError(
            f"witness {[str(m) for m in moves]} does not replay on the reference engine: {error}"
        ) from error
    if (outcome.points, outcome.remaining) != (points, remaining):
        raise WitnessError(
            f"witness {[str(m) for m in moves]} replays to score {outcome.points} with "
            f"{outcome.remaining} cards, but the solver claimed {points} with {remaining}"
        )
    return outcome
