"""The puzzle queries answered by Z3 on the unrolled formula (`encoding.Unrolling`).

* `minimum`: the lowest reachable score, then the fewest cards (S3), with a witness and a
  proof: the descent asks "score ≤ best − 1?" until Z3 answers unsat, then the same for cards.
* `at_most`: can the score reach at most S? (a witness, or None when Z3 proved it cannot).
* `reach`: can the final grid be exactly this one?
* `rank`: every legal first move with the best outcome still reachable after it.

Each query runs one incremental solver: a bound already met is added for good, the bound
being tried is an assumption, so an unsat answer never poisons the next question. Every
check has a timeout; `unknown` raises `GaveUp` (or, in `minimum`, ends the descent with
`proved_optimal` false): it is never taken as a proof.
"""

from __future__ import annotations

import time

import z3  # type: ignore[import-untyped]
from dekal.proofs.answer import (
    ZERO,
    Answer,
    Deadline,
    GaveUp,
    Progress,
    RankedMove,
    certified,
    quiet,
)
from dekal.proofs.encoding import BoolExpr, Unrolling
from dekal.proofs.moves import shapes
from dekal.proofs.puzzle import Move, Puzzle
from dekal.proofs.replay import replay

from dekal_ref.notation import Grid
from dekal_ref.scoring import score_grid

METHOD = "z3"


class _Session:
    """One unrolled puzzle in one incremental solver, checked under a deadline."""

    def __init__(self, puzzle: Puzzle, deadline: Deadline, first: Move | None = None) -> None:
        self.puzzle = puzzle
        self.deadline = deadline
        self.unrolled = Unrolling(puzzle, first=first)
        self.solver = z3.Solver()
        self.solver.add(self.unrolled.constraints)
        self.tries = 0

    def check(self, *assumed: BoolExpr) -> list[Move] | None:
        """The witness of a model, None when unsat; GaveUp on unknown or no time left."""
        left = self.deadline.left()
        if left <= 0:
            raise GaveUp(f"no time left (limit {self.deadline.limit:g} s)")
        self.solver.set(timeout=max(1, int(left * 1000)))
        self.tries += 1
        flags = []
        for index, condition in enumerate(assumed):
            flag = z3.Bool(f"assume{self.tries}_{index}")
            self.solver.add(z3.Implies(flag, condition))
            flags.append(flag)
        verdict = self.solver.check(*flags)
        if verdict == z3.unsat:
            return None
        if verdict != z3.sat:
            raise GaveUp(f"z3 answered unknown ({self.solver.reason_unknown()})")
        return self.unrolled.moves(self.solver.model())

    def keep(self, condition: BoolExpr) -> None:
        self.solver.add(condition)


def minimum(
    puzzle: Puzzle,
    *,
    timeout: float = 60.0,
    progress: Progress = quiet,
    first: Move | None = None,
    start_bound: int | None = None,
) -> Answer:
    """The lowest score, then fewest cards, with a witness; proved unless time ran out.

    `start_bound` (e.g. from a quick heuristic) only skips questions: the first check asks
    for a score ≤ start_bound, and falls back to no bound if that is unsat.
    """
    started = time.perf_counter()
    deadline = Deadline(timeout)
    session = _Session(puzzle, deadline, first)
    unrolled = session.unrolled
    witness = None
    if start_bound is not None:
        witness = session.check(unrolled.score_at_most(start_bound))
    if witness is None:
        witness = session.check()
    if witness is None:  # only a fixed first move can make a puzzle unsatisfiable
        raise GaveUp(f"no legal sequence starts with {first}")
    best = replay(puzzle, witness)
    points, remaining, moves = best.points, best.remaining, witness
    proof = "z3 unsat"
    try:
        while points > 0:  # S2: descend on the score
            progress(f"z3: score {points} reached; is {points - 1} reachable?")
            witness = session.check(unrolled.score_at_most(points - 1))
            if witness is None:
                break
            found = replay(puzzle, witness)
            points, remaining, moves = found.points, found.remaining, witness
        session.keep(unrolled.score_at_most(points))
        while remaining > 0:  # S3: then on the cards left
            progress(f"z3: score {points} with {remaining} cards; with {remaining - 1}?")
            witness = session.check(unrolled.remaining_at_most(remaining - 1))
            if witness is None:
                break
            found = replay(puzzle, witness)
            if found.points > points:
                raise AssertionError("a model broke the score bound it was asked to keep")
            points, remaining, moves = found.points, found.remaining, witness
    except GaveUp as error:
        progress(f"z3: stopped without proof: {error}")
        proof = ""
    if proof and points == 0:
        proof = ZERO
    return certified(puzzle, moves, points, remaining, started=started, method=METHOD, proof=proof)


def at_most(puzzle: Puzzle, bound: int, *, timeout: float = 60.0) -> Answer | None:
    """A witness whose final score is ≤ bound, or None when Z3 proved there is none."""
    started = time.perf_counter()
    session = _Session(puzzle, Deadline(timeout))
    witness = session.check(session.unrolled.score_at_most(bound))
    if witness is None:
        return None
    found = replay(puzzle, witness)
    return certified(
        puzzle, witness, found.points, found.remaining, started=started, method=METHOD, proof=""
    )


def reach(puzzle: Puzzle, target: Grid, *, timeout: float = 60.0) -> Answer | None:
    """A witness that ends on exactly `target`, or None when Z3 proved none does."""
    started = time.perf_counter()
    session = _Session(puzzle, Deadline(timeout))
    witness = session.check(session.unrolled.final_is(target))
    if witness is None:
        return None
    found = replay(puzzle, witness)
    if found.final != tuple(target):
        raise AssertionError("a model's final grid is not the target it was asked to reach")
    result = score_grid(found.final)
    return certified(
        puzzle, witness, result.points, result.remaining, started=started, method=METHOD, proof=""
    )


def rank(puzzle: Puzzle, *, timeout: float = 60.0, progress: Progress = quiet) -> list[RankedMove]:
    """Every legal first move with the best reachable (score, cards), best first."""
    deadline = Deadline(timeout)
    firsts = [s.move for s in shapes(puzzle.variant) if s.reveal in puzzle.face_down]
    ranked: list[RankedMove] = []
    for number, move in enumerate(firsts, start=1):
        progress(f"z3: first move {number}/{len(firsts)}: {move}")
        answer = minimum(puzzle, timeout=max(0.001, deadline.left()), first=move)
        ranked.append(RankedMove(move, answer.points, answer.remaining, answer))
    ranked.sort(key=lambda r: (r.points, r.remaining, r.move))
    return ranked
