"""Both methods at once, the first proof wins: the default way to answer a puzzle.

The two methods fail in opposite places (docs/puzzles.md, "The portfolio"): the search
proves small and bound-tight puzzles in milliseconds where Z3 takes seconds, Z3 finds deep
witnesses and refutes where the search would have to exhaust billions of leaves. So both
run together, on the two cores a machine has at least:

* Z3 runs in a child process (the search holds the GIL, in Python or between the compiled
  kernel's slices; Z3's formula is built in Python too), the search in this one;
* both work under the caller's `Deadline` (the child gets the time it has left, less a
  margin to hand its answer over in); nothing is waited for past the deadline: a child
  still working then is terminated and its answer lost;
* no child when less than MIN_RACE_SECONDS are left (starting one costs more than it can
  find): the search alone answers, in the time left;
* the first *proved* answer wins and the other method is stopped at once: the child is
  terminated, or the search's deadline is cancelled (it stops at its next node);
* the child is always reaped, whatever happens here: a proof, a timeout, an exception, a
  Ctrl-C (the child ignores SIGINT, so only this process reports it; on Linux the child
  also dies with its parent);
* when neither proves within the deadline, the better of the two witnesses is the answer,
  unproved;
* no race when there is nothing to race for: a puzzle small enough for the search to
  exhaust in milliseconds (three slide steps, two eject), or whose beam witness (computed once, for
  both methods) already meets the lower bound, is answered by the search alone, in
  milliseconds, before a child process would have started.

`Answer.method` names the method that produced the answer (its proof, or the better
witness), `Answer.via` is "portfolio", `Answer.race` says how the race went, and `stats` are
the winner's plus `portfolio_seconds`.
`at_most` and `reach` race the same way (the first verdict wins); `rank` asks the portfolio
after every first move (one shared deadline, `answer.rank_first_moves`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import Any, cast

from dekal.proofs import _bounds as bounds
from dekal.proofs import search
from dekal.proofs._answer import (
    Answer,
    Board,
    GaveUp,
    Progress,
    RankedMove,
    quiet,
    rank_first_moves,
    score_bound,
)
from dekal.proofs._beam import Guess, quick_bound
from dekal.proofs._replay import WitnessError
from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import Move, Puzzle
from dekal_ref.notation import Grid

METHOD = "portfolio"
_STOPPING = {signal.SIGINT, signal.SIGTERM}
_MASKS = hasattr(signal, "pthread_sigmask")
ALONE = "search alone: small enough to exhaust at once, no race needed"
MET = "search alone: the beam's witness meets the lower bound, no race needed"
NO_TIME = "search alone: too little time left to start Z3"
CHILD_NICENESS = 5
"""How much lower the child's CPU priority is. On two idle cores it changes nothing (each
method has one); on a busy machine it keeps the search, which proved every puzzle of the hard
set first, from giving half its core to Z3 (bench/solver.py --hard, load 4 on 2 cores: the
two slowest went from 12.9 and 11.5 s, twice the search alone, to 9.8 and 9.7 s)."""
FAILURES = ("witness_error", "error")
"""The child's messages that end a race at once: a bug, raised again here."""
GRACE = 0.0
"""Seconds the parent waits for the child past the deadline: none (a deadline is a promise
about wall time). The child stops HANDOVER earlier instead, to send its witness in time."""
HANDOVER = 0.5
"""The child's deadline ends this much (at most a quarter of its time) before the parent's:
the time to cancel its last Z3 check and pickle its witness, even on a busy machine."""
MIN_RACE_SECONDS = 0.5
"""Below this much time left, no child is started: forking, and Z3 building its formula,
cost more than that on a busy machine."""
_RACES: set[_Race] = set()
"""The races whose child may be running: stop_children() ends them all."""


def _child(question: str, puzzle: Puzzle, seconds: float, extra: Any, pipe: Connection) -> None:
    """The child process: answer `question` with Z3 and send back ("answer", result),
    ("gave_up", reason), ("witness_error", text) or ("error", text); progress lines go up
    as ("progress", line)."""
    # The parent reports a Ctrl-C, not the child; a SIGTERM (the parent's way to stop it)
    # ends it at once, not through the handler the parent's program may have installed.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if _MASKS:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING)
    _die_with_parent()
    os.nice(CHILD_NICENESS)
    from dekal.proofs import z3_solve  # imported here: the parent may never need Z3

    deadline = Deadline(seconds)

    def progress(line: str) -> None:
        pipe.send(("progress", line))

    try:
        result: Any
        if question == "minimum":
            first, warm = extra
            result = z3_solve.minimum(
                puzzle, deadline=deadline, progress=progress, first=first, warm=warm
            )
        elif question == "unknown_guaranteed":  # puzzle: an UnknownPosition (_unknown.race)
            from dekal.proofs._unknown import z3_tree
            from dekal.proofs._unknown.search import OutOfTime

            try:
                result = z3_tree.guaranteed(cast(Any, puzzle), deadline=deadline)
            except OutOfTime as error:
                raise GaveUp("z3 found no proof of the guarantee in time") from error
        elif question == "at_most":
            result = z3_solve.at_most(puzzle, extra, deadline=deadline)
        else:
            result = z3_solve.reach(puzzle, extra, deadline=deadline)
        pipe.send(("answer", result))
    except GaveUp as error:
        pipe.send(("gave_up", str(error)))
    except WitnessError as error:  # a solver bug: the parent raises it again, as its own
        pipe.send(("witness_error", str(error)))
    except Exception as error:  # noqa: BLE001 - a bug in the child is reported by the parent
        pipe.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        pipe.close()


def _die_with_parent() -> None:
    """Linux: ask the kernel to send SIGTERM to this process when its parent dies (a parent
    killed with SIGKILL cannot reap it). Elsewhere, the child's own deadline ends it."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class _Race:
    """Z3 in a child process, listened to by a thread of this one.

    `decisive(message)` says whether the child's message ends the race (a proof, a verdict):
    the listener then cancels `stop`, the deadline the search runs under.
    """

    def __init__(
        self,
        question: str,
        puzzle: Puzzle,
        deadline: Deadline,
        extra: Any,
        progress: Progress,
        decisive: Callable[[tuple[str, Any]], bool],
    ) -> None:
        self.stop = deadline.part()
        self.result: tuple[str, Any] | None = None
        self.finished_at = 0.0
        # fork where there is one: the child starts with every module already imported
        fork = "fork" in multiprocessing.get_all_start_methods()
        context: Any = multiprocessing.get_context("fork" if fork else "spawn")
        reader, writer = context.Pipe(duplex=False)
        self.reader = reader
        self.process = context.Process(
            target=_child,
            args=(question, puzzle, _child_seconds(deadline), extra, writer),
            name=f"dekal z3 {question}",
            daemon=True,
        )
        self.listener = threading.Thread(
            target=self._listen, args=(progress, decisive), name="portfolio listener", daemon=True
        )
        self.writer = writer

    def __enter__(self) -> _Race:
        """Start the child and its listener; if anything (a Ctrl-C) stops that half-way, what
        was started is stopped and reaped before the exception goes on."""
        _RACES.add(self)
        try:
            # Blocked while forking, so that the child starts with them blocked and unblocks
            # them only once its own handlers are in place (no window with the parent's).
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING) if _MASKS else None
            try:
                self.process.start()
            finally:
                if blocked is not None:
                    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            self.writer.close()  # the child holds the only writer: its end is the reader's EOF
            self.listener.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _listen(self, progress: Progress, decisive: Callable[[tuple[str, Any]], bool]) -> None:
        try:
            while True:
                kind, payload = self.reader.recv()
                if kind == "progress":
                    progress(str(payload))
                    continue
                self.result = (kind, payload)
                self.finished_at = time.perf_counter()
                if decisive(self.result):
                    self.stop.cancel()
                return
        except (EOFError, OSError):
            return  # the child ended (or was stopped) without a last word

    def wait(self, seconds: float) -> tuple[str, Any] | None:
        """The child's result, waiting at most `seconds` for it."""
        self.listener.join(max(0.0, seconds))
        return self.result

    def close(self) -> None:
        """Stop and reap the child, whatever state it is in (idempotent)."""
        _RACES.discard(self)
        if self.process.pid is not None:  # started
            if self.process.is_alive():
                self.process.terminate()
            self.process.join(5)
            if self.process.is_alive():  # SIGTERM ignored: the kernel's way
                self.process.kill()
                self.process.join()
        self.writer.close()
        self.reader.close()
        if self.listener.ident is not None:
            self.listener.join(1)


def _child_seconds(deadline: Deadline) -> float:
    left = max(0.0, deadline.left())
    return left - min(HANDOVER, left / 4)


def stop_children() -> None:
    """Terminate and reap every Z3 child still racing (from any thread): for a caller that
    answers without waiting for the races, as `dekal solve` does when its time is up."""
    for race in list(_RACES):
        race.close()


def _can_fork_a_child() -> bool:
    """A daemonic process (a worker of a pool) may not start children: then the methods run
    one after the other in this process."""
    return not multiprocessing.current_process().daemon


def minimum(
    puzzle: Puzzle,
    *,
    timeout: float = 60.0,
    progress: Progress = quiet,
    first: Move | None = None,
    deadline: Deadline | None = None,
) -> Answer:
    """The lowest score, then fewest cards (S3): the first of the two methods to prove it.

    Same contract as `search.minimum` and `z3_solve.minimum`: a certified witness, proved
    unless the deadline (or `timeout` seconds) ran out first.
    """
    started = time.perf_counter()
    deadline = deadline or Deadline(timeout)
    guess = quick_bound(puzzle, first=first, deadline=deadline)  # one beam, for both methods
    if _small(puzzle, first) or guess.key <= bounds.start_key(puzzle):
        alone = search.minimum(
            puzzle, deadline=deadline, progress=progress, first=first, warm=guess
        )
        why = ALONE if _small(puzzle, first) else MET
        return _won(alone, "", started, proved=alone.proved_optimal, race=why)
    if deadline.left() < MIN_RACE_SECONDS:
        alone = search.minimum(
            puzzle, deadline=deadline, progress=progress, first=first, warm=guess
        )
        return _won(alone, "z3", started, proved=alone.proved_optimal, race=NO_TIME)
    if not _can_fork_a_child():
        return _one_after_the_other(puzzle, deadline, progress, first, started, guess)

    def proved(message: tuple[str, Any]) -> bool:
        kind, payload = message
        return kind in FAILURES or (kind == "answer" and payload.proved_optimal)

    with _Race("minimum", puzzle, deadline, (first, guess), progress, proved) as race:
        searched = search.minimum(
            puzzle, deadline=race.stop, progress=progress, first=first, warm=guess
        )
        if searched.proved_optimal:
            race.close()  # before the answer is put together: Z3 stops now
            return _won(searched, "z3", started)
        message = race.wait(deadline.left() + GRACE)
    _raise_failure(message)
    answered = message[1] if message is not None and message[0] == "answer" else None
    if answered is not None and answered.proved_optimal:
        return _won(answered, "search", started)
    best = searched
    if answered is not None and (answered.points, answered.remaining) < (
        searched.points,
        searched.remaining,
    ):
        best = answered
    return _won(best, "search" if best is answered else "z3", started, proved=False)


def _raise_failure(message: tuple[str, Any] | None) -> None:
    """A bug in the child is raised here, as it would have been in the child."""
    if message is not None and message[0] == "witness_error":
        raise WitnessError(message[1])
    if message is not None and message[0] == "error":
        raise AssertionError(f"z3 failed in the portfolio's child: {message[1]}")


SMALL = {"slide": 3, "eject": 2}
"""Steps the search exhausts in milliseconds whatever the puzzle (48³ or 240² leaves)."""


def _small(puzzle: Puzzle, first: Move | None = None) -> bool:
    """A puzzle the search exhausts in milliseconds, before a child process would have
    started (a fixed first move is one step fewer to choose)."""
    free = puzzle.turns - (1 if first is not None else 0)
    return free <= SMALL[puzzle.variant]


def _won(
    answer: Answer, other: str, started: float, *, proved: bool = True, race: str = ""
) -> Answer:
    """The winner's answer, marked as the portfolio's."""
    stats = dict(answer.stats)
    stats["portfolio_seconds"] = time.perf_counter() - started
    note = f"{answer.method} proved it first, {other} stopped" if proved else "neither proved it"
    note = race or note
    return replace(
        answer,
        via=METHOD,
        seconds=time.perf_counter() - started,
        stats=stats,
        race=note,
    )


def _one_after_the_other(
    puzzle: Puzzle,
    deadline: Deadline,
    progress: Progress,
    first: Move | None,
    started: float,
    guess: Guess,
) -> Answer:
    """Without a child process: the search with half the time, then Z3 with the rest."""
    from dekal.proofs import z3_solve

    searched = search.minimum(
        puzzle, deadline=deadline.share(2), progress=progress, first=first, warm=guess
    )
    if searched.proved_optimal:
        return _won(searched, "z3", started)
    answered = z3_solve.minimum(
        puzzle, deadline=deadline, progress=progress, first=first, warm=guess
    )
    better = (answered.points, answered.remaining) < (searched.points, searched.remaining)
    best = answered if answered.proved_optimal or better else searched
    return _won(best, "search", started, proved=best.proved_optimal)


def _bounded(
    question: str, puzzle: Puzzle, extra: Any, deadline: Deadline, searching: Callable[..., Any]
) -> Answer | None:
    """at_most / reach: the first verdict wins (a witness, or None: proved impossible)."""
    if _small(puzzle):
        found = searching(deadline=deadline)
        return found if found is None else replace(found, via=METHOD, race=ALONE)
    if deadline.left() < MIN_RACE_SECONDS:
        found = searching(deadline=deadline)  # GaveUp when it has no verdict in time
        return found if found is None else replace(found, via=METHOD, race=NO_TIME)
    if not _can_fork_a_child():
        try:
            return searching(deadline=deadline.share(2))  # type: ignore[no-any-return]
        except GaveUp:
            from dekal.proofs import z3_solve

            method = z3_solve.at_most if question == "at_most" else z3_solve.reach
            return method(puzzle, extra, deadline=deadline)

    def verdict(message: tuple[str, Any]) -> bool:
        return message[0] == "answer" or message[0] in FAILURES

    with _Race(question, puzzle, deadline, extra, quiet, verdict) as race:
        try:
            found = searching(deadline=race.stop)
            won = "search answered first, z3 stopped"
            return found if found is None else replace(found, via=METHOD, race=won)
        except GaveUp:
            pass
        message = race.wait(deadline.left() + GRACE)
    _raise_failure(message)
    if message is None or message[0] == "gave_up":
        raise GaveUp(f"neither method answered (limit {deadline.limit:g} s)")
    answer: Answer | None = message[1]
    return answer if answer is None else replace(answer, via=METHOD, race="z3 answered first")


def at_most(
    puzzle: Puzzle, bound: int, *, timeout: float = 60.0, deadline: Deadline | None = None
) -> Answer | None:
    """A witness whose score is ≤ bound, or None when a method proved there is none (GaveUp
    when neither answered within the deadline)."""
    score_bound(bound)
    deadline = deadline or Deadline(timeout)

    def searching(deadline: Deadline) -> Answer | None:
        return search.at_most(puzzle, bound, deadline=deadline)

    return _bounded("at_most", puzzle, bound, deadline, searching)


def reach(
    puzzle: Puzzle, target: Grid, *, timeout: float = 60.0, deadline: Deadline | None = None
) -> Answer | None:
    """A witness that ends on exactly `target`, or None when a method proved none does
    (GaveUp when neither answered within the deadline)."""
    deadline = deadline or Deadline(timeout)

    def searching(deadline: Deadline) -> Answer | None:
        return search.reach(puzzle, target, deadline=deadline)

    return _bounded("reach", puzzle, target, deadline, searching)


def rank(
    puzzle: Puzzle,
    *,
    timeout: float = 60.0,
    progress: Progress = quiet,
    deadline: Deadline | None = None,
    board: Board | None = None,
) -> list[RankedMove]:
    """Every legal first move with the best reachable (score, cards), best first: the
    portfolio after each first move (answer.rank_first_moves: one deadline shared out)."""

    def best_after(move: Move, share: Deadline) -> Answer:
        return minimum(puzzle, first=move, deadline=share)

    firsts = search.first_moves(puzzle)
    deadline = deadline or Deadline(timeout)
    return rank_first_moves(
        firsts, best_after, METHOD, deadline, progress, puzzle=puzzle, board=board
    )
