"""`dekal solve`'s methods run on time: each under one wall-clock Deadline that starts with
the command, inside a watchdog (dekal.proofs.limits.Watched) that answers with the greedy
line (a ranking: the quick witnesses) if the method has not answered shortly after it.
docs/puzzles.md, "Time limits, Ctrl-C and exit codes"."""

from __future__ import annotations

import dataclasses
import importlib
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

from dekal.cli._stopping import AS_COMMAND
from dekal.proofs import portfolio, search
from dekal.proofs._answer import (
    Answer,
    Board,
    GaveUp,
    Progress,
    RankedMove,
    greedy_answer,
    quick_answer,
    ranked_board,
)
from dekal.proofs.limits import Deadline, Watched, process_started
from dekal.proofs.puzzle import Puzzle
from dekal_ref.notation import Grid

METHODS = {"portfolio": "portfolio", "z3": "z3_solve", "search": "search"}
"""Each method's module in dekal.proofs (imported when asked for: Z3 takes a while to load,
and the time to load it is part of --timeout)."""
ANSWER_RESERVE = 0.5
"""Seconds of --timeout (at most a quarter of it) kept for answering: the methods' deadline
ends this much before the promised time, so that a watchdog's answer of last resort, its
certification and the printing fit in the second the documentation allows past --timeout."""
T = TypeVar("T")
LEFT_BEHIND = threading.Event()
"""Set when a method's work was abandoned at its deadline (dekal.proofs.limits.Watched): the
command then exits at once after its answer, its Z3 children stopped."""


@dataclass(frozen=True)
class Bounded:
    """One method's answer to --at-most or --reach: a witness, None (proved unreachable), or
    no verdict (`gave_up` says why)."""

    method: str
    answer: Answer | None
    seconds: float
    gave_up: str = ""

    @property
    def reachable(self) -> bool | None:
        return None if self.gave_up else self.answer is not None


def method_module(name: str) -> ModuleType:
    return importlib.import_module(f"dekal.proofs.{METHODS[name]}")


def on_time(work: Callable[[], T], fallback: Callable[[], T], deadline: Deadline) -> T:
    """work() within the deadline's wall time, else fallback() (see LEFT_BEHIND)."""
    watched = Watched(work, fallback)
    try:
        return watched.result(deadline)
    finally:
        if watched.abandoned:
            LEFT_BEHIND.set()
            portfolio.stop_children()


def deadline_of(number: int, timeout: float) -> Deadline:
    """The first method's clock starts with the command (Python's start and the imports are
    part of the time allowed); with --check the second method's starts with it."""
    reserve = min(ANSWER_RESERVE, timeout / 4)
    first = number == 0 and is_the_dekal_command()  # in a test's process: from now
    return Deadline(timeout - reserve, started=process_started() if first else None)


def is_the_dekal_command() -> bool:
    """Is this process the `dekal` command (not a program or test calling the app)?"""
    return os.path.basename(sys.argv[0] if sys.argv else "") == "dekal"


def run_minimum(
    puzzle: Puzzle, methods: list[str], timeout: float, progress: Progress
) -> list[Answer]:
    answers = []
    for number, name in enumerate(methods):
        deadline = deadline_of(number, timeout)
        # --check: two independent paths, so Z3 does without the search's lower bound
        extra = {"lower_bound": False} if name == "z3" and len(methods) > 1 else {}

        def work(name: str = name, deadline: Deadline = deadline, extra: Any = extra) -> Answer:
            return method_module(name).minimum(  # type: ignore[no-any-return]
                puzzle, deadline=deadline, progress=progress, **extra
            )

        def fallback(name: str = name) -> Answer:
            return greedy_answer(puzzle, None, name)

        answer = on_time(work, fallback, deadline)
        answers.append(dataclasses.replace(answer, seconds=wall_seconds(deadline)))
    return answers


def wall_seconds(deadline: Deadline) -> float:
    """The seconds a method ran, on its deadline's clock (from the command's start for the
    first): the run's wall time, not the moment its witness was found (a greedy line of
    last resort is found in milliseconds, at the end of the time, issue 29)."""
    return time.perf_counter() - (deadline.end - deadline.limit)


def run_rank(
    puzzle: Puzzle, methods: list[str], timeout: float, progress: Progress
) -> list[list[RankedMove]]:
    rankings = []
    for number, name in enumerate(methods):
        deadline, board = deadline_of(number, timeout), Board()

        def work(name: str = name, deadline: Deadline = deadline, board: Board = board) -> Any:
            ranks = method_module(name).rank
            return ranks(puzzle, deadline=deadline, progress=progress, board=board)

        def fallback(name: str = name, board: Board = board) -> list[RankedMove]:
            known = dict(board)  # the ranking so far; a move not reached gets a quick line
            for move in search.first_moves(puzzle):
                known.setdefault(move, quick_answer(puzzle, move, name))
            return ranked_board(known)

        rankings.append(on_time(work, fallback, deadline))
    return rankings


def run_bounded(
    name: str, puzzle: Puzzle, at_most: int | None, target: Grid | None, deadline: Deadline
) -> Bounded:
    started = time.perf_counter()

    def work() -> Bounded:
        try:
            if at_most is not None:
                found = method_module(name).at_most(puzzle, at_most, deadline=deadline)
            else:
                found = method_module(name).reach(puzzle, target, deadline=deadline)
        except GaveUp as error:
            return Bounded(name, None, time.perf_counter() - started, gave_up=str(error))
        return Bounded(name, found, time.perf_counter() - started)

    def no_verdict() -> Bounded:
        why = f"no verdict in time (limit {deadline.limit:g} s)"
        return Bounded(name, None, time.perf_counter() - started, gave_up=why)

    bounded = on_time(work, no_verdict, deadline)
    return dataclasses.replace(bounded, seconds=wall_seconds(deadline))


def exit_now_if_work_was_left_behind(code: int) -> None:
    """After the answer: work abandoned at its deadline may still hold a core (a compile, a
    Z3 check); its children are stopped already, so the process ends here, at once. The
    `dekal` command ends here too: tearing down the interpreter (a search's memo, numba, Z3)
    took a second of a busy machine after the answer was out. Only the command's own
    process ends so (AS_COMMAND): a test or a program calling the app goes on, its
    abandoned work stopping at its next look at the cancelled clock."""
    if AS_COMMAND.is_set() and (LEFT_BEHIND.is_set() or is_the_dekal_command()):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
