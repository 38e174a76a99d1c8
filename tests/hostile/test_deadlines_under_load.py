"""`dekal solve --timeout T` answers within T + 1 s of wall time even on a saturated machine
(docs/puzzles.md, "Time limits and exit codes"): two CPU hogs run for each test's duration
(and are reaped after it), so the command, its compiled search and its Z3 child share two
cores with two busy loops. The deadline counts from the command's start, one clock for
everything (rank's many searches, the portfolio's race), children are killed at it, and a
watchdog answers for work that cannot look at the clock.

The default run keeps one check under load per question (a ranking, a single answer) with
some slack for the machine's other load; the strict T + 1 s bounds are the deep variants.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

DEKAL = str(Path(sys.executable).parent / "dekal")
RANKED = ["1234/5678/9T12/3456", "--incoming", "7,8,9,T,7,8,9,1", "--variant", "eject"]
"""Eight eject steps: 240 first moves, none of them proved in seconds."""
HARD = ["1234/5678/9T12/3456", "--incoming", "7,8,9,T,7,8,9"]
"""The search needs about 6 s to find its 0 (2 cores, idle), Z3 has not proved it in 40 s."""
SLACK = 8.0
"""Seconds allowed on top of T + 1 in the default run: other work on the machine (pytest's
other worker, other users) slows Python's start and imports, which count inside the limit.
Measured at load 16 with the two hogs and a solver test beside it: the ranking in 9.9 s. The
old code took 34 s (the issue's machine) and 149 s (this one, load 12): still caught."""


@pytest.fixture
def two_cpu_hogs() -> Iterator[None]:
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def solve_took(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    began = time.monotonic()
    done = subprocess.run(
        [DEKAL, "solve", *args, "--json"], capture_output=True, text=True, timeout=120, check=False
    )
    return done, time.monotonic() - began


def leftover_children(marker: str) -> list[int]:
    """Processes still running a `dekal solve` with `marker` in its command line (a forked Z3
    child keeps its parent's command line)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                words = cmdline.read().split(b"\0")
        except OSError:
            continue
        if b"solve" in words and marker.encode() in words:
            found.append(int(pid))
    return found


def answers_unproved(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode in (0, 4), done.stderr
    payload: dict[str, object] = json.loads(done.stdout)
    return payload


@pytest.mark.usefixtures("two_cpu_hogs")
def test_a_ranking_answers_within_its_timeout_with_two_cpu_hogs() -> None:
    # 2 s (the deep variant gives 3): the hogs burn both cores while it runs, and the
    # ranking is as far from done at 2 s as at 3
    done, took = solve_took(*RANKED, "--rank", "--timeout", "2")
    ranking = answers_unproved(done)["ranking"]
    assert isinstance(ranking, list) and len(ranking) == 240  # every first move, a witness
    assert took < 2 + 1 + SLACK
    assert leftover_children(RANKED[2]) == []


@pytest.mark.usefixtures("two_cpu_hogs")
def test_an_answer_keeps_its_timeout_with_two_cpu_hogs() -> None:
    # 3 s (the deep variants give 5): the search, about 6 s from its answer on two idle
    # cores, is cut short either way, and the hogs burn both cores while it runs
    done, took = solve_took(*HARD, "--timeout", "3")
    assert answers_unproved(done)["moves"]
    assert took < 3 + 1 + SLACK
    assert leftover_children(HARD[2]) == []


@pytest.mark.deep
@pytest.mark.usefixtures("two_cpu_hogs")
@pytest.mark.parametrize("method", ["portfolio", "z3", "search"])
def test_every_method_answers_within_t_plus_one_second_with_two_cpu_hogs(method: str) -> None:
    done, took = solve_took(*HARD, "--timeout", "5", "--method", method)
    assert answers_unproved(done)["moves"]
    assert took < 5 + 1
    assert leftover_children(HARD[2]) == []


@pytest.mark.deep
@pytest.mark.usefixtures("two_cpu_hogs")
def test_a_ranking_answers_within_t_plus_one_second_with_two_cpu_hogs() -> None:
    done, took = solve_took(*RANKED, "--rank", "--timeout", "3")
    assert len(answers_unproved(done)["ranking"]) == 240  # type: ignore[arg-type]
    assert took < 3 + 1
