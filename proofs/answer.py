"""What a puzzle query answers, whichever method found it (Z3 or the exhaustive search).

An `Answer` is built only from a witness that `replay.certify` accepted: its outcome (every
frame from the start to the scored final grid) comes from the reference engine, not from the
solver that found the moves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import Move, Puzzle
from dekal.proofs.replay import Outcome, certify

Progress = Callable[[str], None]
"""Receives one short line about long work (the CLI shows it on standard error)."""


def quiet(_: str) -> None:
    """A Progress that says nothing."""


KEY_CARDS = 32
"""An outcome's key is points·KEY_CARDS + cards left (0..16 < 32): ordering keys is S3's order
(lowest score, then fewest cards)."""

ZERO = "no card left: nothing scores lower"
"""The proof when the witness itself reaches 0 points and 0 cards, the least outcome (S2)."""


class GaveUp(RuntimeError):
    """The method ran out of time (Z3 said `unknown`): no verdict, never a proof."""


@dataclass(frozen=True)
class Answer:
    """A certified witness, its outcome, and whether nothing better exists (proved_optimal).

    `proof` says how optimality was established: "z3 unsat" (the next better bound was
    refuted), "exhaustive search", the lower bound met (`bounds.PROOF`), or "" when it was
    not (a time limit cut the work short).
    """

    points: int
    remaining: int
    moves: tuple[Move, ...]
    proved_optimal: bool
    seconds: float
    method: str
    outcome: Outcome
    proof: str = ""
    stats: dict[str, float] = field(default_factory=dict)
    """Where the time went (method-specific counters and seconds), for bench/solver.py."""
    via: str = ""
    """"portfolio" when both methods raced for it (`method` is then the one that won)."""
    race: str = ""
    """How the race went, in words: "z3 proved it first, search stopped"."""

    def as_json(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "score": self.points,
            "remaining": self.remaining,
            "moves": [move.as_json() for move in self.moves],
            "proved_optimal": self.proved_optimal,
            "seconds": round(self.seconds, 3),
            "method": self.method,
            "proof": self.proof,
        }
        if self.via:
            payload["via"] = self.via
            payload["race"] = self.race
        return payload


@dataclass(frozen=True)
class RankedMove:
    """A first move and the best (score, cards left) still reachable after it."""

    move: Move
    points: int
    remaining: int
    answer: Answer

    def as_json(self) -> dict[str, Any]:
        return {
            **self.move.as_json(),
            "score": self.points,
            "remaining": self.remaining,
            "proved_optimal": self.answer.proved_optimal,
            "moves": [move.as_json() for move in self.answer.moves],
        }


def certified(
    puzzle: Puzzle,
    moves: Sequence[Move],
    points: int,
    remaining: int,
    *,
    started: float,
    method: str,
    proof: str,
    stats: dict[str, float] | None = None,
) -> Answer:
    """Replay the witness on the reference engine (WitnessError if it does not) and wrap it."""
    outcome = certify(puzzle, moves, points, remaining)
    return Answer(
        points=points,
        remaining=remaining,
        moves=tuple(moves),
        proved_optimal=bool(proof),
        seconds=time.perf_counter() - started,
        method=method,
        outcome=outcome,
        proof=proof,
        stats=stats or {},
    )


def rank_first_moves(
    firsts: Sequence[Move],
    best_after: Callable[[Move, Deadline], Answer],
    method: str,
    deadline: Deadline,
    progress: Progress = quiet,
) -> list[RankedMove]:
    """Every first move with the best (score, cards) reachable after it, best first: the
    `--rank` question for either method. One deadline for the whole ranking, shared out in
    turn: each move gets an equal share of the time left (what one does not use goes to the
    next); a move whose share runs out keeps its best answer so far, unproved."""
    ranked: list[RankedMove] = []
    for number, move in enumerate(firsts, start=1):
        progress(f"{method}: first move {number}/{len(firsts)}: {move}")
        answer = best_after(move, deadline.share(len(firsts) - number + 1))
        ranked.append(RankedMove(move, answer.points, answer.remaining, answer))
    ranked.sort(key=lambda r: (r.points, r.remaining, r.move))
    return ranked
