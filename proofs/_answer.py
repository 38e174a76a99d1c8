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

from dekal.proofs._replay import Outcome, certify
from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import KEY_CARDS, Move, Puzzle

Progress = Callable[[str], None]
"""Receives one short line about long work (the CLI shows it on standard error)."""


def quiet(_: str) -> None:
    """A Progress that says nothing."""


ZERO = "no card left: nothing scores lower"
"""The proof when the witness itself reaches 0 points and 0 cards, the least outcome (S2)."""


MOST_POINTS = 160
"""The highest score a grid can have: 16 cards of 10 (S1)."""


def score_bound(bound: object) -> int:
    """An `at_most` bound: a score 0 to MOST_POINTS, else ValueError naming `bound`."""
    from dekal._arguments import whole

    return whole("bound", bound, 0, MOST_POINTS)


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
    first: Move | None = None,
    deadline: Deadline | None = None,
) -> Answer:
    """Replay the witness on the reference engine (WitnessError if it does not) and wrap it.

    A proved witness is first settled among the equal ones (`proofs._smallest`: the smallest
    in move order that reaches the same outcome, starting with `first` when the query fixed
    it, within the query's `deadline`), so that every method and install prints the same one."""
    if proof:
        from dekal.proofs._smallest import smallest_witness

        key = points * KEY_CARDS + remaining
        moves = smallest_witness(puzzle, moves, limit=key, first=first, deadline=deadline)
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


def greedy_answer(puzzle: Puzzle, first: Move | None, method: str) -> Answer:
    """The greedy line (the beam of width 1: milliseconds), certified; unproved unless it
    reaches the least outcome (S2)."""
    from dekal.proofs._beam import beam

    started = time.perf_counter()
    line = beam(puzzle, width=1, first=first)
    assert line is not None  # no deadline: the greedy beam always runs to its end
    proof = ZERO if (line.points, line.remaining) == (0, 0) else ""
    return certified(
        puzzle, line.moves, line.points, line.remaining, started=started, method=method,
        proof=proof, first=first,
    )  # fmt: skip


def quick_answer(puzzle: Puzzle, first: Move | None, method: str) -> Answer:
    """A witness in a fraction of a millisecond, certified: after `first`, each step reveals
    the lowest face-down cell and takes its push that scores lowest (no search). Unproved
    unless it reaches the least outcome (S2): the answer of last resort, always at hand."""
    from dekal import bits, tables  # the optimized engine's words, as beam.py uses them

    started = time.perf_counter()
    legal = tables.LEGAL[puzzle.variant]
    grid, down = bits.pack(puzzle.grid), puzzle.face_down_mask
    moves: list[Move] = []
    for depth in range(puzzle.turns):
        hole = first.reveal if depth == 0 and first else (down & -down).bit_length() - 1
        shift = 4 * hole
        card = puzzle.incoming[depth] if puzzle.incoming else (grid >> shift) & 0xF
        holed = grid & ~(0xF << shift)
        pushes = [(p, st) for p, st in legal[hole] if not (depth == 0 and first) or p == first.push]
        push, step = min(pushes, key=lambda item: bits.score(bits.push_grid(holed, item[1], card)))
        grid, down = bits.push_grid(holed, step, card), bits.push_face_down(down, step)
        moves.append(Move(hole, push))
    points, remaining = bits.score(grid)
    proof = ZERO if (points, remaining) == (0, 0) else ""
    return certified(
        puzzle, moves, points, remaining, started=started, method=method, proof=proof,
        first=first,
    )  # fmt: skip


Board = dict[Move, Answer]
"""The best answer known for each first move of a ranking, filled in as the ranking goes."""


def rank_first_moves(
    firsts: Sequence[Move],
    best_after: Callable[[Move, Deadline], Answer],
    method: str,
    deadline: Deadline,
    progress: Progress = quiet,
    *,
    puzzle: Puzzle | None = None,
    board: Board | None = None,
) -> list[RankedMove]:
    """Every first move with the best (score, cards) reachable after it, best first: the
    `--rank` question for either method. One deadline for the whole ranking:

    1. every move gets a quick line first (quick_answer, when `puzzle` is given; else
       best_after with no time), so that every move has a certified witness however little
       time there is;
    2. then the time left is shared out in turn: each move gets an equal share of it (what one
       does not use goes to the next), and its answer replaces the quick one when it is
       proved or better. When the deadline passes the later moves keep their quick line.

    `board`, when given, holds the best answer of each move as the ranking goes: a caller
    that cannot wait any longer answers from it (dekal solve's watchdog)."""
    board = {} if board is None else board
    for move in firsts:
        board[move] = (
            quick_answer(puzzle, move, method)
            if puzzle is not None
            else best_after(move, Deadline(0.0))
        )
    for number, move in enumerate(firsts, start=1):
        if deadline.expired():
            break
        progress(f"{method}: first move {number}/{len(firsts)}: {move}")
        answer = best_after(move, deadline.share(len(firsts) - number + 1))
        known = board[move]
        if answer.proved_optimal or (answer.points, answer.remaining) < (
            known.points,
            known.remaining,
        ):
            board[move] = answer
    return ranked_board(board)


def ranked_board(board: Board) -> list[RankedMove]:
    """The board's moves, best first (S3: lowest score, then fewest cards; then the move)."""
    ranked = [RankedMove(move, a.points, a.remaining, a) for move, a in list(board.items())]
    ranked.sort(key=lambda r: (r.points, r.remaining, r.move))
    return ranked
