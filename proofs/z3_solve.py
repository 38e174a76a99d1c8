"""The puzzle queries answered by Z3 on the unrolled formula (`encoding.Unrolling`).

* `minimum`: the lowest reachable score, then the fewest cards (S3), with a witness and a
  proof: the descent asks "an outcome better than the best so far?" until Z3 answers unsat.
* `at_most`: can the score reach at most S? (a witness, or None when Z3 proved it cannot).
* `reach`: can the final grid be exactly this one?
* `rank`: every legal first move with the best outcome still reachable after it.

Each query runs one incremental solver: a bound already met is added for good, the bound
being tried is an assumption, so an unsat answer never poisons the next question. Every
check gets only the time its query's `Deadline` has left (`limits.z3_check`: a Ctrl-C raises,
it is never an `unknown`); `unknown` raises `GaveUp` (or, in `minimum`, ends the descent with
`proved_optimal` false): it is never taken as a proof.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import z3  # type: ignore[import-untyped]

from dekal import bits
from dekal.proofs import beam, bounds
from dekal.proofs.answer import (
    KEY_CARDS,
    ZERO,
    Answer,
    GaveUp,
    Progress,
    RankedMove,
    certified,
    quiet,
    rank_first_moves,
)
from dekal.proofs.beam import Guess
from dekal.proofs.encoding import BoolExpr, Unrolling
from dekal.proofs.limits import Deadline, z3_check
from dekal.proofs.moves import shapes
from dekal.proofs.puzzle import Move, Puzzle
from dekal.proofs.replay import replay
from dekal_ref.notation import Grid
from dekal_ref.scoring import score_grid

METHOD = "z3"


class _Session:
    """One unrolled puzzle in one incremental solver, checked under a deadline.

    `stats` records where the time goes: building the formula, the satisfiable checks (each
    finds a better witness) and the last, unsatisfiable one (the proof).
    """

    def __init__(self, puzzle: Puzzle, deadline: Deadline, first: Move | None = None) -> None:
        started = time.perf_counter()
        self.puzzle = puzzle
        self.deadline = deadline
        self.unrolled = Unrolling(puzzle, first=first)
        self.solver = z3.Solver()
        self.solver.add(self.unrolled.constraints)
        self.tries = 0
        self.stats: dict[str, float] = {
            "build_seconds": time.perf_counter() - started,
            "sat_checks": 0,
            "sat_seconds": 0.0,
            "unsat_checks": 0,
            "unsat_seconds": 0.0,
        }

    def check(self, *assumed: BoolExpr) -> list[Move] | None:
        """The witness of a model, None when unsat; GaveUp on unknown or no time left."""
        if self.deadline.expired():
            raise GaveUp(f"no time left (limit {self.deadline.limit:g} s)")
        self.tries += 1
        flags = []
        for index, condition in enumerate(assumed):
            flag = z3.Bool(f"assume{self.tries}_{index}")
            self.solver.add(z3.Implies(flag, condition))
            flags.append(flag)
        started = time.perf_counter()
        verdict = z3_check(self.solver, *flags, deadline=self.deadline)
        spent = time.perf_counter() - started
        if verdict == z3.unsat:
            self.stats["unsat_checks"] += 1
            self.stats["unsat_seconds"] += spent
            return None
        if verdict != z3.sat:
            raise GaveUp(f"z3 answered unknown ({self.solver.reason_unknown()})")
        self.stats["sat_checks"] += 1
        self.stats["sat_seconds"] += spent
        return self.unrolled.moves(self.solver.model())

    def following(self, moves: Sequence[Move]) -> list[BoolExpr]:
        """The literals that make the formula play `moves` (to be assumed, not added)."""
        literals: list[BoolExpr] = []
        for step, move in enumerate(moves):
            for chosen in (
                self.unrolled.reveal[step][move.reveal],
                self.unrolled.push[step][move.push],
            ):
                if not isinstance(chosen, bool):
                    literals.append(chosen)
        return literals

    def keep(self, condition: BoolExpr) -> None:
        self.solver.add(condition)


def minimum(
    puzzle: Puzzle,
    *,
    timeout: float = 60.0,
    progress: Progress = quiet,
    first: Move | None = None,
    warm_start: bool = True,
    deadline: Deadline | None = None,
    warm: Guess | None = None,
    lower_bound: bool = True,
) -> Answer:
    """The lowest score, then fewest cards, with a witness; proved unless time ran out.

    The descent runs on the key points·32 + cards left (one pseudo-Boolean sum, so one
    refutation proves both S3 criteria). With `warm_start`, the outcome of the search's quick
    beam (`beam.quick_bound`) only skips questions: the first check plays the beam's moves
    in the formula (assumed for that one check, never added), so the descent starts from a
    Z3 model of that outcome; every later witness and the final refutation are Z3's own.

    Within `deadline` (or `timeout` seconds): when the time runs out during the descent, the
    last witness is the answer, unproved; when it runs out before Z3 holds any model, the
    beam's outcome is (with `warm_start`; without it, GaveUp). `warm`: the beam's outcome
    when the caller has it already (the portfolio computes it once for both methods).

    With `lower_bound`, the descent stops as soon as a witness meets the search's admissible
    bound at the start (`bounds.lower_key`): that witness is proved optimal by the bound
    (`bounds.PROOF`), and the last refutation, the longest check, is never asked. (Stated to
    Z3 as a constraint, key ≥ bound, the bound did not help: 1112/3131/1435/2435 with 7,9,T,6
    still took 28 s to refute key ≤ bound − 1; Z3 does not combine the two sums.) `dekal solve
    --check` turns it off, so that the two methods it compares share nothing but the rules.
    """
    started = time.perf_counter()
    deadline = deadline or Deadline(timeout)
    guess = None
    if warm_start:
        guess = warm or beam.quick_bound(puzzle, first=first, deadline=deadline)
    warmed = time.perf_counter() - started
    try:
        if deadline.expired():
            raise GaveUp(f"no time left (limit {deadline.limit:g} s)")
        session = _Session(puzzle, deadline, first)
        session.stats["warm_start_seconds"] = warmed
        floor = 0
        if lower_bound:
            floor = bounds.lower_key(
                bits.pack(puzzle.grid),
                puzzle.face_down_mask,
                puzzle.incoming,
                puzzle.turns,
                puzzle.variant,
            )
            session.stats["lower_bound"] = floor // KEY_CARDS
        witness = None
        if guess is not None:  # Z3 replays the beam's moves in its own formula: a model at once
            bound = session.unrolled.key_at_most(guess.points * KEY_CARDS + guess.remaining)
            moves = session.unrolled.canonical(guess.moves)
            witness = session.check(bound, *session.following(moves))
        if witness is None:
            witness = session.check()
    except GaveUp as error:
        if guess is None:
            raise
        progress(f"z3: no model before the time limit ({error}); the beam's outcome stands")
        return certified(
            puzzle,
            guess.moves,
            guess.points,
            guess.remaining,
            started=started,
            method=METHOD,
            proof=ZERO if (guess.points, guess.remaining) == (0, 0) else "",
            stats={"warm_start_seconds": warmed, "z3_models": 0},
        )
    if witness is None:  # only a fixed first move can make a puzzle unsatisfiable
        raise GaveUp(f"no legal sequence starts with {first}")
    return _descend(puzzle, session, witness, started, progress, floor)


def _descend(
    puzzle: Puzzle,
    session: _Session,
    witness: list[Move],
    started: float,
    progress: Progress,
    floor: int = 0,
) -> Answer:
    """From a first model, ask for a better outcome until Z3 refutes it, a witness meets the
    lower bound `floor`, or time runs out."""
    unrolled = session.unrolled
    found = replay(puzzle, witness)
    points, remaining, moves = found.points, found.remaining, witness
    proof = "z3 unsat"
    try:
        while points or remaining:
            key = points * KEY_CARDS + remaining
            if key <= floor:  # nothing scores lower than the bound: no refutation needed
                proof = bounds.PROOF
                break
            progress(f"z3: score {points} with {remaining} cards; anything better?")
            session.keep(unrolled.key_at_most(key))
            improved = session.check(unrolled.key_at_most(key - 1))
            if improved is None:
                break
            better = replay(puzzle, improved)
            if (better.points, better.remaining) >= (points, remaining):
                raise AssertionError("a model broke the bound it was asked to meet")
            points, remaining, moves = better.points, better.remaining, improved
    except GaveUp as error:
        progress(f"z3: stopped without proof: {error}")
        proof = ""
    if proof and points == 0:
        proof = ZERO
    return certified(
        puzzle,
        moves,
        points,
        remaining,
        started=started,
        method=METHOD,
        proof=proof,
        stats=session.stats,
    )


def at_most(
    puzzle: Puzzle, bound: int, *, timeout: float = 60.0, deadline: Deadline | None = None
) -> Answer | None:
    """A witness whose final score is ≤ bound, or None when Z3 proved there is none (GaveUp
    when the deadline passed first)."""
    started = time.perf_counter()
    session = _Session(puzzle, deadline or Deadline(timeout))
    witness = session.check(session.unrolled.score_at_most(bound))
    if witness is None:
        return None
    found = replay(puzzle, witness)
    return certified(
        puzzle, witness, found.points, found.remaining, started=started, method=METHOD, proof=""
    )


def reach(
    puzzle: Puzzle, target: Grid, *, timeout: float = 60.0, deadline: Deadline | None = None
) -> Answer | None:
    """A witness that ends on exactly `target`, or None when Z3 proved none does (GaveUp
    when the deadline passed first)."""
    started = time.perf_counter()
    session = _Session(puzzle, deadline or Deadline(timeout))
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


def rank(
    puzzle: Puzzle,
    *,
    timeout: float = 60.0,
    progress: Progress = quiet,
    deadline: Deadline | None = None,
) -> list[RankedMove]:
    """Every legal first move with the best reachable (score, cards), best first
    (answer.rank_first_moves: one deadline shared out among the moves)."""

    def best_after(move: Move, share: Deadline) -> Answer:
        return minimum(puzzle, first=move, deadline=share)

    firsts = [s.move for s in shapes(puzzle.variant) if s.reveal in puzzle.face_down]
    return rank_first_moves(firsts, best_after, METHOD, deadline or Deadline(timeout), progress)
