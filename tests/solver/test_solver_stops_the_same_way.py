"""The solver stops the same way in every method (issue 29; docs/puzzles.md, "Time limits,
Ctrl-C and exit codes"): a Ctrl-C while Z3 checks is the command's Ctrl-C, never an
`unknown` taken for the time limit, and the seconds a timed-out answer reports are the
run's wall time, not the moment its witness was found."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

DEKAL = str(Path(sys.executable).with_name("dekal"))
HARD = ["1234/5678/9T12/3456", "--incoming", "7,8,9,T", "--variant", "eject"]
"""Z3 needs about 27 s to prove this one (proofs/z3_solve.py)."""

CHECK_INTERRUPTED = """
import os, signal, threading
import z3
from dekal.cli import _stopping as stopping
from dekal.proofs.limits import Deadline, Watched, z3_check

pigeons = 11  # pigeons into one hole fewer: seconds and more for Z3 to refute
solver = z3.Solver()
sits = [[z3.Bool(f"p{i}h{j}") for j in range(pigeons - 1)] for i in range(pigeons)]
for row in sits:
    solver.add(z3.Or(*row))
for j in range(pigeons - 1):
    for a in range(pigeons):
        for b in range(a + 1, pigeons):
            solver.add(z3.Not(z3.And(sits[a][j], sits[b][j])))
with stopping.stopped_by_signals():
    try:
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        watched = Watched(lambda: z3_check(solver), lambda: "fallback")
        print("answered", watched.result(Deadline(60)))
    except stopping.Interrupted as stop:
        stopping.say_stopped_and_exit(stop.signum)
"""


def test_a_ctrl_c_while_z3_checks_in_the_watchdogs_thread_stops_the_command() -> None:
    """The work of every method runs in dekal.proofs.limits.Watched's helper thread: there
    Z3's own SIGINT handler once took the Ctrl-C, answered unknown, and `solve --method z3`
    printed "best found, NOT proved optimal" with exit 4."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CHECK_INTERRUPTED)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr.splitlines()) == (
        130,
        "",
        ["error: interrupted (Ctrl-C)"],
    )


def test_a_timed_out_answer_reports_the_runs_wall_time() -> None:
    """Its own process: a method abandoned at its deadline ends the process at once after
    the answer (dekal.cli._solver.solve_run.exit_now_if_work_was_left_behind). Z3 cannot prove in
    a second: the answer is the greedy line of last resort, found in milliseconds at the
    end, and once reported those milliseconds as the run's time."""
    done = subprocess.run(
        [DEKAL, "solve", *HARD, "--method", "z3", "--timeout", "1", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 4, done.stderr
    payload = json.loads(done.stdout.splitlines()[0])
    assert payload["proved_optimal"] is False
    assert 0.7 <= payload["seconds"] < 10  # the second allowed, less the answer's reserve
