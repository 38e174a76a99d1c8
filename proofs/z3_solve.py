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

from dekal.proofs import _beam as beam
from dekal.proofs import _bounds as bounds
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
from dekal.proofs._beam import Guess
from dekal.proofs._encoding import BoolExpr, Unrolling
from dekal.proofs._moves import shapes
from dekal.proofs._replay import replay
from dekal.proofs._smallest import smallest_witness
from dekal.proofs.limits import Deadline, z3_check
from dekal.proofs.puzzle import KEY_CARDS, Move, Puzzle
from dekal_ref.notation import Grid
from dekal_ref.scoring import score_grid
from dekal_ref.words import plural

METHOD = "z3"
EJECT_LOGIC = "QF_FD"
"""The Z3 solver that answers eject puzzles. The formula is propositional with pseudo-Boolean
sums (`proofs.encoding`), which QF_FD hands to Z3's SAT core with native cardinality and
PB constraints. Measured on the two hard sets' eject puzzles (Z3 alone, 60 s, two processes
on two cores): median 11.8 s against 13.9 s for the default solver, slowest 22 s against
more than 60 s (1234/5678/9T12/3456 with 7,8,9,T). On slide it was faster in the median
too (2.2 s against 4.1 s) but its zero probe found no 0 within a minute on
1234/5678/9T12/3456 with 7,8,9,T,7,8,9, where the default solver's does in 36–44 s: slide
keeps the default solver."""


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
        self.solver = z3.SolverFor(EJECT_LOGIC) if puzzle.variant == "eject" else z3.Solver()
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
            floor = bounds.start_key(puzzle)
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
            first=first,
        )
    if witness is None:  # only a fixed first move can make a puzzle unsatisfiable
        raise GaveUp(f"no legal sequence starts with {first}")
    floor_proof = bounds.PROOF
    if puzzle.variant == "slide" and floor < LEAST_ABOVE_ZERO and replay(puzzle, witness).points:
        progress("z3: can every card be cancelled?")
        zero = _zero_probe(session, deadline.share(ZERO_PROBE_SHARE))
        if zero is not None:
            witness = zero
        elif session.stats.get("zero_refuted"):
            floor, floor_proof = LEAST_ABOVE_ZERO, ZERO_REFUTED
    return _descend(puzzle, session, witness, started, progress, floor, floor_proof)


LEAST_ABOVE_ZERO = KEY_CARDS + 1
"""The least key above 0: one card left, a 1 (S2, S3)."""

ZERO_PROBE_SHARE = 2
"""The zero probe gets 1/ZERO_PROBE_SHARE of the time left; the descent keeps the rest."""

ZERO_REFUTED = "z3 unsat: no play cancels every card, and one 1 left is the least above that"


def _zero_probe(session: _Session, share: Deadline) -> list[Move] | None:
    """Ask first for a key of 0, every card cancelled, under its own share of the time.

    A descent one better key at a time reaches a 0 only through every outcome above it
    (1234/5678/9T12/3456 with T,9,7,5,3,1: 3/2, 2/2, 1/1, then 0, 60 s on a busy machine);
    asked at once, the sum becomes one unit clause per cell (`encoding._pb_at_most`) and
    Z3 finds the 0 in 15-24 s, or refutes it in 5-7 s on the hard set's slide puzzles
    whose optimum is above 0. A refutation is Z3's own proof that the least key is
    `LEAST_ABOVE_ZERO` or more (recorded in stats as `zero_refuted`); running out of the
    share proves nothing, and the descent goes on as before. Slide only: under eject
    (1234/5678/9T12/3456 with 7,8,9,T, optimum 2/2) the probe ran out of its 30 s share
    where the plain descent proves in 27 s."""
    whole = session.deadline
    session.deadline = share
    try:
        found = session.check(session.unrolled.key_at_most(0))
    except GaveUp:
        return None
    finally:
        session.deadline = whole
    if found is None:
        session.stats["zero_refuted"] = 1
        session.keep(z3.Not(session.unrolled.key_at_most(0)))
    return found


def _descend(
    puzzle: Puzzle,
    session: _Session,
    witness: list[Move],
    started: float,
    progress: Progress,
    floor: int = 0,
    floor_proof: str = bounds.PROOF,
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
                proof = floor_proof
                break
            progress(f"z3: score {points} with {plural(remaining, 'card')}; anything better?")
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
        first=session.unrolled.first,
        deadline=session.deadline,
    )


def at_most(
    puzzle: Puzzle, bound: int, *, timeout: float = 60.0, deadline: Deadline | None = None
) -> Answer | None:
    """A witness whose final score is ≤ bound, or None when Z3 proved there is none (GaveUp
    when the deadline passed first)."""
    started = time.perf_counter()
    score_bound(bound)
    session = _Session(puzzle, deadline or Deadline(timeout))
    witness = session.check(session.unrolled.score_at_most(bound))
    if witness is None:
        return None
    limit = (bound + 1) * KEY_CARDS - 1
    witness = list(smallest_witness(puzzle, witness, limit=limit, deadline=session.deadline))
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
    witness = list(smallest_witness(puzzle, witness, target=target, deadline=session.deadline))
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
    board: Board | None = None,
) -> list[RankedMove]:
    """Every legal first move with the best reachable (score, cards), best first
    (answer.rank_first_moves: one deadline shared out among the moves)."""

    def best_after(move: Move, share: Deadline) -> Answer:
        return minimum(puzzle, first=move, deadline=share)

    firsts = [s.move for s in shapes(puzzle.variant) if s.reveal in puzzle.face_down]
    deadline = deadline or Deadline(timeout)
    return rank_first_moves(
        firsts, best_after, METHOD, deadline, progress, puzzle=puzzle, board=board
    )
