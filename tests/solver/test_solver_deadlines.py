"""Solver deadlines and interrupts (docs/puzzles.md, "Time limits and exit codes").

`--timeout` bounds each method's whole query, `--rank` included; an answer that the time
limit left unproved exits 4 (as does no verdict at all); `--check` tells a real disagreement
(exit 1) from methods that merely ran out of time (exit 4); a Ctrl-C stops any method at once
with exit 130 and one line. Times are upper bounds given as subprocess timeouts.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from dekal.cli._common import EXIT_UNPROVED, EXIT_VERDICT
from dekal.cli._solver.solve import check_problem
from dekal.proofs import _beam as beam
from dekal.proofs import search, z3_solve
from dekal.proofs._answer import Answer
from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import Puzzle, make_puzzle
from dekal_ref.notation import parse_grid

DEKAL = str(Path(sys.executable).parent / "dekal")
HARD = ["1234/5678/9T12/3456", "--incoming", "7,8,9,T,7,8,9"]
"""The search needs about 6 s to find its 0 (2 cores, idle), Z3 has not proved it in 40 s."""
STEPS = 7
BOUND = 30.0  # seconds: far above a 2 s limit, far below the 39 s `--rank` took without one


def dekal(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [DEKAL, *args], capture_output=True, text=True, timeout=BOUND, check=False
    )


def one_line_error(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    return lines[0]


def hard() -> Puzzle:
    return make_puzzle(parse_grid(HARD[0]), incoming=(7, 8, 9, 10, 7, 8, 9))


# -- the deadline is kept ---------------------------------------------------------------------


@pytest.mark.parametrize("method", ["z3", "search"])
def test_rank_keeps_its_timeout_and_exits_4_unproved(method: str) -> None:
    result = dekal("solve", *HARD, "--rank", "--timeout", "2", "--method", method, "--json")
    assert result.returncode == EXIT_UNPROVED
    payload = json.loads(result.stdout)
    assert len(payload["ranking"]) == 48  # every first move still gets a witness
    assert payload["proved"] is False
    assert "not proved within --timeout 2 s" in one_line_error(result.stderr)


@pytest.mark.parametrize("method", [search, z3_solve])
def test_a_ranking_out_of_time_gives_every_move_its_greedy_line(method: ModuleType) -> None:
    ranked = method.rank(hard(), deadline=Deadline(0))
    assert len(ranked) == 48
    assert not any(entry.answer.proved_optimal for entry in ranked)
    assert all(len(entry.answer.moves) == STEPS for entry in ranked)  # certified witnesses


def test_z3_out_of_time_before_its_first_model_gives_the_greedy_line() -> None:
    answer = z3_solve.minimum(hard(), deadline=Deadline(0))
    greedy = beam.beam(hard(), width=1)
    assert greedy is not None
    assert (answer.points, answer.remaining, answer.moves) == (
        greedy.points,
        greedy.remaining,
        greedy.moves,
    )
    assert not answer.proved_optimal and answer.stats["z3_models"] == 0


def test_a_method_out_of_time_prints_its_best_witness_and_exits_4() -> None:
    result = dekal("solve", *HARD, "--method", "search", "--timeout", "1", "--json")
    assert result.returncode == EXIT_UNPROVED
    payload = json.loads(result.stdout)
    assert payload["proved_optimal"] is False and len(payload["moves"]) == STEPS
    assert "not proved optimal within --timeout 1 s" in one_line_error(result.stderr)


def test_a_question_without_verdict_exits_4() -> None:
    result = dekal("solve", *HARD, "--at-most", "0", "--timeout", "1", "--json")
    assert result.returncode == EXIT_UNPROVED
    payload = json.loads(result.stdout)
    assert payload["reachable"] is None and "no_verdict" in payload
    assert one_line_error(result.stderr) == "error: no verdict from portfolio within --timeout 1 s"


# -- --check: a disagreement is not a time-out ------------------------------------------------


def test_check_where_neither_method_proves_is_incomplete_not_a_disagreement() -> None:
    result = dekal("solve", *HARD, "--check", "--timeout", "1", "--json")
    assert result.returncode == EXIT_UNPROVED
    check = json.loads(result.stdout)["check"]
    assert check["agree"] is True and check["proved"] is False
    line = one_line_error(result.stderr)
    assert "incomplete: z3 and search stopped without proof" in line and "DISAGREE" not in line


@pytest.fixture(scope="module")
def proved() -> Answer:
    """A proved optimum (3 points, 2 cards) of a small puzzle."""
    puzzle = make_puzzle(parse_grid("1112/3131/1435/2435"), incoming=(5, 3))
    return search.minimum(puzzle)


def test_two_proved_optima_that_differ_disagree(proved: Answer) -> None:
    other = replace(proved, method="z3", points=4)
    problem = check_problem([proved, other])
    assert problem is not None and problem[0] == EXIT_VERDICT
    assert problem[1] == "the methods DISAGREE: search 3/2; z3 4/2"


def test_an_unproved_answer_below_a_proved_optimum_disagrees(proved: Answer) -> None:
    better = replace(proved, method="z3", points=2, proved_optimal=False, proof="")
    problem = check_problem([proved, better])
    assert problem is not None and problem[0] == EXIT_VERDICT


def test_an_unproved_answer_above_a_proved_optimum_leaves_the_check_incomplete(
    proved: Answer,
) -> None:
    worse = replace(proved, method="z3", points=5, proved_optimal=False, proof="")
    assert check_problem([proved, worse]) == (
        EXIT_UNPROVED,
        "incomplete: z3 stopped without proof (search 3/2; z3 5/2)",
    )


def test_two_proved_equal_optima_pass_the_check(proved: Answer) -> None:
    assert check_problem([proved, replace(proved, method="z3")]) is None


# -- Ctrl-C -----------------------------------------------------------------------------------


def interrupted(command: list[str], ready: str) -> subprocess.CompletedProcess[str]:
    """Run `dekal …`, send SIGINT once `ready` holds, and collect what it printed.

    "z3": a Z3 check is running (the process has a second thread: the check's, with OpenBLAS
    kept to one thread); "loaded": the command has run for a while (any phase must do).
    """
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    process = subprocess.Popen(
        [DEKAL, *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    try:
        end = time.monotonic() + BOUND
        if ready == "z3":
            while len(os.listdir(f"/proc/{process.pid}/task")) < 2 and time.monotonic() < end:
                time.sleep(0.02)
        else:
            time.sleep(3)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=BOUND)
    finally:
        process.kill()
        process.wait()
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


@pytest.mark.parametrize(
    ("command", "ready"),
    [
        (["solve", *HARD, "--timeout", "60", "--method", "z3"], "z3"),
        (["solve", *HARD, "--timeout", "60", "--rank", "--method", "z3"], "z3"),
        # a whole ranking: 48 searches, far longer than the 3 s before the Ctrl-C
        (["solve", *HARD, "--timeout", "60", "--rank", "--method", "search"], "loaded"),
        (["prove"], "z3"),
    ],
    ids=["solve-z3", "rank-z3", "rank-search", "prove"],
)
def test_ctrl_c_stops_any_method_with_exit_130_and_one_line(command: list[str], ready: str) -> None:
    result = interrupted(command, ready)
    assert result.returncode == 130
    assert result.stderr == "error: interrupted (Ctrl-C)\n"
