"""The commands that share their work among processes, on real Dask clusters.

One cluster for every check that a command's answer does not depend on who computed it: a
scheduler and two workers started here as separate processes (`dask scheduler`, `dask
worker`, on 127.0.0.1, a free port, no dashboard: the commands of docs/simulate.md). On it
`simulate`, `conformance fuzz`, `advise` and `annotate` give the single-process report. The
commands run in this process (typer's runner; the process is not what these tests are
about) and reach the cluster through `--scheduler`: one start of its processes, and of the
workers' imports (Dask, the compiled kernel: seconds of CPU each), for all of them. A local
cluster (`--workers 2`) is started by the commands of the Ctrl-C tests, which are about it:
a Ctrl-C closes it and leaves no process behind (no worker, no engine of a fuzz campaign);
tests/conformance/judge/test_runner.py checks a local cluster's results against the in-process ones.
An unreachable scheduler is one line, exit 2, within a bounded time. Every process started
here is stopped, even when a test fails."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal.conformance.fuzz import _campaign as campaign_module

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DEKAL = str(BIN / "dekal")
JS_ENGINE = f"node {ROOT / 'examples' / 'engines' / 'js' / 'engine.js'}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def stop_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process's whole group, then SIGKILL whatever is left; reap the process."""
    for stop, grace in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        if group_alive(process.pid):
            os.killpg(process.pid, stop)
        deadline = time.monotonic() + grace
        while group_alive(process.pid) and time.monotonic() < deadline:
            process.poll()  # reaps the leader, so its group can empty
            time.sleep(0.1)
    process.wait(timeout=5)


def start(*command: str) -> subprocess.Popen[bytes]:
    """A process in its own group (it and its children are stopped together)."""
    return subprocess.Popen(
        command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


PAGE = ROOT / "docs" / "simulate.md"


def cluster_lines() -> list[list[str]]:
    """docs/simulate.md's cluster commands (its `sh` block naming `dask scheduler`)."""
    blocks = re.findall(r"^```sh\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S | re.M)
    (block,) = [b for b in blocks if "dask scheduler" in b]
    return [shlex.split(line) for line in block.splitlines() if line.strip()]


def on_this_machine(words: list[str], port: str) -> list[str]:
    """A command of the page with HOST as 127.0.0.1 and the scheduler's port free."""
    return [w.replace("HOST", "127.0.0.1").replace("8786", port) for w in words]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a Dask scheduler with two one-thread workers, all on 127.0.0.1, started
    by the page's own commands."""
    from distributed import Client

    port = str(free_port())
    address = f"tcp://127.0.0.1:{port}"
    start_scheduler, start_worker, _ = (on_this_machine(w, port) for w in cluster_lines())
    processes = [start(str(BIN / start_scheduler[0]), *start_scheduler[1:])]
    try:
        for _ in range(2):
            processes.append(start(str(BIN / start_worker[0]), *start_worker[1:]))
        with Client(address, timeout=60) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for process in reversed(processes):
            stop_group(process)


def invoke(*args: str, stdin: str | None = None) -> Result:
    """`dekal ARGS` run in this process."""
    return CliRunner().invoke(app, list(args), input=stdin)


def test_an_unreachable_scheduler_is_one_line_and_exit_code_2_in_bounded_time() -> None:
    began = time.monotonic()
    done = invoke("simulate", "--games", "10", "--scheduler", f"tcp://127.0.0.1:{free_port()}")
    assert done.exit_code == 2 and isinstance(done.exception, SystemExit)  # no traceback
    assert done.stderr.count("\n") == 1 and "cannot reach the scheduler" in done.stderr
    assert time.monotonic() - began < 60  # 10 s to connect, and the start-up


def test_ctrl_c_closes_the_local_cluster_and_every_worker_process() -> None:
    command = (DEKAL, "simulate", "--games", "100000000", "--workers", "2", "--bots", "greedy")
    dekal = subprocess.Popen(
        command, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 120
        while len(processes_in_group(dekal.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.5)  # dekal, and its two workers (with their nannies) once started
        assert len(processes_in_group(dekal.pid)) >= 3
        time.sleep(5)  # the workers are up and the games are being played
        os.killpg(dekal.pid, signal.SIGINT)  # as a terminal does: to every process of the group
        _, stderr = dekal.communicate(timeout=60)
        assert dekal.returncode == 130
        assert stderr.decode().splitlines() == ["error: interrupted (Ctrl-C)"]  # dekal's alone
        deadline = time.monotonic() + 10
        while group_alive(dekal.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not group_alive(dekal.pid)  # no worker left behind
    finally:
        stop_group(dekal)


def processes_in_group(group: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == group:
                    found.append(int(entry.name))
            except ProcessLookupError:
                continue
    return found


def processes_running(marker: str) -> list[int]:
    """The processes whose command line contains `marker` (the engine's shell, its sleep)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in command and b"pytest" not in command:
                found.append(int(entry.name))
    return found


def test_ctrl_c_during_a_fuzz_campaign_leaves_no_engine_behind() -> None:
    marker = f"{time.time_ns() % 10**6 + 1000}.5"  # `sleep MARKER`: this run's own lingerer
    engine = f"sh -c '{JS_ENGINE}; sleep {marker}'"  # its group outlives the engine's exit
    command = (DEKAL, "conformance", "fuzz", "--engine", engine, "--games", "100000")
    command += ("--workers", "2", "--no-db")
    dekal = subprocess.Popen(
        command, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 120
        # the workers' chunks are playing, each on its engine (polled: a fixed wait burnt
        # both cores on games for seconds after the engines were up)
        while len(processes_running(marker)) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert len(processes_running(marker)) >= 2  # the checks below can see engines
        os.killpg(dekal.pid, signal.SIGINT)
        dekal.communicate(timeout=60)
        assert dekal.returncode == 130
        time.sleep(3)  # an orphaned engine would be on its `sleep` by now
        deadline = time.monotonic() + 15
        while processes_running(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert processes_running(marker) == []
    finally:
        stop_group(dekal)
        for pid in processes_running(marker):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(os.getpgid(pid), signal.SIGKILL)


SPRT_MATCH = ("match", "--bots", "greedy,random", "--games", "400", "--sprt", "elo0=0,elo1=200")


@pytest.mark.deep  # the local cluster's two workers start (Dask, dekal, the kernel's cache):
# about 5 s of CPU and 10 s of wall on a loaded machine, for a match of a second. The default
# run plays matches on the module's cluster below (the same streamed chunks, the same merge)
def test_a_match_on_a_local_cluster_started_for_it_is_the_match_played_here() -> None:
    # --workers 2: the command starts its own cluster (dekal.simulation.runner), plays the
    # SPRT match's deals there in tasks of 4 and stops at deal 8 as one process does; the
    # deals the workers played past it are discarded, so every figure is the same
    alone = invoke(*SPRT_MATCH, "--json")
    on_workers = invoke(*SPRT_MATCH, "--json", "--workers", "2")
    assert alone.exit_code == on_workers.exit_code == 0, on_workers.output
    report = json.loads(alone.stdout)
    assert report["sprt"]["verdict"] == "H1" and report["deals"] < 200
    assert json.loads(on_workers.stdout) == report


# The tests on the page's cluster come last: the module's scheduler and workers are started
# by the first test that needs them and stopped only when the module ends (their idle
# heartbeats cost CPU while the Ctrl-C tests above run). Each runs the command twice in this
# process, alone and with `--scheduler`.


def test_the_page_s_run_on_its_cluster_prints_the_single_process_report(scheduler: str) -> None:
    command = on_this_machine(cluster_lines()[-1], scheduler.rsplit(":", 1)[1])
    assert command[:2] == ["dekal", "simulate"] and command[-2:] == ["--scheduler", scheduler]
    on_cluster = invoke(*command[1:])
    assert on_cluster.exit_code == 0, on_cluster.output
    alone = invoke(*command[1:-2])
    assert alone.exit_code == 0, alone.output
    assert on_cluster.stdout == alone.stdout


NO_ROTATION = f"{JS_ENGINE} --bug no-rotation"  # F4: seed 5 first shows it in game 4


def untimed(report: dict[str, Any]) -> dict[str, Any]:
    """A fuzz report without the shrinks' wall-clock seconds, the one figure that varies."""
    for deviation in report["deviations"]:
        if deviation["shrink"] is not None:
            deviation["shrink"].pop("seconds")
    return report


def test_fuzz_on_the_cluster_prints_the_single_process_report(
    scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # chunks of 2 (cut here, where the campaign is planned): 6 games are 3 chunks, played
    # at once by the two workers; the one process stops at game 4 (F4), and so must the
    # merge, in the second chunk (the third chunk's games are dropped)
    monkeypatch.setattr(campaign_module, "CHUNK_GAMES", 2)
    args = ["conformance", "fuzz", "--engine", NO_ROTATION, "--games", "6", "--seed", "5"]
    args += ["--shrink-seconds", "0", "--no-db", "--json"]
    alone = invoke(*args)
    on_cluster = invoke(*args, "--scheduler", scheduler)
    assert alone.exit_code == on_cluster.exit_code == 1, on_cluster.output
    report = untimed(json.loads(alone.stdout))
    assert (report["games"], [d["game"] for d in report["deviations"]]) == (4, [4])
    assert untimed(json.loads(on_cluster.stdout)) == report


MID_GAME = (  # turn 2 of seed 42's game (rules.md, T2): seat 1 holds the token and takes
    "slide/lowest/single 1.2 take@1 0 ????/????/?.??/??1?|?.?3/????/????/???? -,- 1T #68 - 0,0"
)


def test_advise_on_the_cluster_gives_the_single_process_answer(scheduler: str) -> None:
    # 250 worlds are three batches (of 100, 100 and 50): the workers' rows come back in order
    args = ("advise", MID_GAME, "--seat", "1", "--samples", "250", "--json")
    alone = invoke(*args)
    on_cluster = invoke(*args, "--scheduler", scheduler)
    assert alone.exit_code == on_cluster.exit_code == 0, on_cluster.output
    assert json.loads(on_cluster.stdout) == json.loads(alone.stdout)


def test_annotate_on_the_cluster_gives_the_single_process_annotation(scheduler: str) -> None:
    from dekal.cli._replay import bundled_examples

    # the first two turns of a bundled record: 12 decisions, each a question of 30 worlds
    two_turns = "\n".join(bundled_examples()["two-players-first-tie"].splitlines()[:14]) + "\n"
    args = ("annotate", "-", "--samples", "30", "--json")
    alone = invoke(*args, stdin=two_turns)
    on_cluster = invoke(*args, "--scheduler", scheduler, stdin=two_turns)
    assert alone.exit_code == on_cluster.exit_code == 0, on_cluster.output
    assert len(json.loads(alone.stdout)["decisions"]) == 12
    assert json.loads(on_cluster.stdout) == json.loads(alone.stdout)


FUZZ = ("conformance", "fuzz", "--games", "30", "--seed", "1", "--json", "--no-db")
FUZZ += ("--shrink-seconds", "0", "--keep-going")


@pytest.mark.deep  # 60 fuzz games (22 s of CPU); the default run keeps the same merge in
# test_simulate_campaign.py (a deviation in two chunks reported once, from its first game)
# and the fuzz test above (the one-process report from the cluster)
def test_fuzz_on_a_scheduler_finds_what_one_process_finds(scheduler: str) -> None:
    # 30 games are two chunks of the campaign (25 and 5), and F4 shows in both (games 6
    # and 30 of seed 1): the merge must report it once, from game 6, as one process does
    alone = invoke(*FUZZ, "--engine", NO_ROTATION)
    on_cluster = invoke(*FUZZ, "--engine", NO_ROTATION, "--scheduler", scheduler)
    assert alone.exit_code == on_cluster.exit_code == 1, on_cluster.output
    found = [json.loads(r.stdout)["deviations"] for r in (alone, on_cluster)]
    assert [d["rule"] for d in found[0]] == ["F4"]
    assert [(d["rule"], d["game"], d["record"]) for d in found[1]] == [
        (d["rule"], d["game"], d["record"]) for d in found[0]
    ]


SERVE = f"cmd:{sys.executable} -m dekal.bots.serve greedy"


def test_a_match_on_the_cluster_stops_at_the_deal_one_process_stops_at(scheduler: str) -> None:
    # the SPRT decides at deal 8 (tests/simulation/test_match_cli.py): the two workers have
    # up to 4 tasks of 4 deals in flight, so deals past the stopping point were played there
    alone = invoke(*SPRT_MATCH, "--json")
    on_cluster = invoke(*SPRT_MATCH, "--json", "--scheduler", scheduler)
    assert alone.exit_code == on_cluster.exit_code == 0, on_cluster.output
    report = json.loads(alone.stdout)
    assert report["sprt"]["verdict"] == "H1" and report["deals"] < 200
    assert json.loads(on_cluster.stdout) == report


def processes_carrying(mark: str) -> list[int]:
    """The processes whose environment holds DEKAL_TEST_RUN=`mark`: this test's own bot
    programs, not those another test runs at the same time."""
    wanted = f"DEKAL_TEST_RUN={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                environment = (entry / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if wanted in environment:
                found.append(int(entry.name))
    return found


def test_a_match_of_bot_programs_on_the_cluster_is_the_match_played_here(scheduler: str) -> None:
    # 8 deals of 3 games are two tasks, one a worker: each starts its own programs
    mark = str(time.time_ns())
    serve = f"cmd:env DEKAL_TEST_RUN={mark} {sys.executable} -m dekal.bots.serve greedy"
    args = ("match", "--bots", f"{serve},random,greedy", "--games", "24", "--seed", "3")
    alone = invoke(*args, "--json")
    on_cluster = invoke(*args, "--json", "--scheduler", scheduler)
    assert alone.exit_code == on_cluster.exit_code == 0, on_cluster.output
    assert json.loads(on_cluster.stdout) == json.loads(alone.stdout)
    assert processes_carrying(mark) == []  # every worker ended its programs


def test_a_match_resumed_on_the_cluster_is_the_match_played_at_once(
    scheduler: str, tmp_path: Path
) -> None:
    saved = tmp_path / "match.json"
    args = ("match", "--bots", "random,greedy", "--seed", "4", "--json")
    assert invoke(*args, "--games", "6", "--resume", str(saved)).exit_code == 0
    resumed = invoke(*args, "--games", "20", "--resume", str(saved), "--scheduler", scheduler)
    assert resumed.exit_code == 0, resumed.output
    assert len(json.loads(saved.read_text())["deals"]) == 10
    assert json.loads(resumed.stdout) == json.loads(invoke(*args, "--games", "20").stdout)


def test_a_match_s_records_on_the_cluster_are_the_records_written_here(
    scheduler: str, tmp_path: Path
) -> None:
    args = ("match", "--bots", f"{SERVE},random", "--games", "12", "--seed", "5", "--records")
    assert invoke(*args, str(tmp_path / "here")).exit_code == 0
    assert invoke(*args, str(tmp_path / "there"), "--scheduler", scheduler).exit_code == 0
    here = {p.name: p.read_bytes() for p in (tmp_path / "here").iterdir()}
    there = {p.name: p.read_bytes() for p in (tmp_path / "there").iterdir()}
    assert len(here) == 12 and there == here


def test_a_three_bot_match_on_the_cluster_is_rated_as_the_match_played_here(
    scheduler: str,
) -> None:
    # 3 seats: Plackett–Luce ratings from the placings, merged from 4 deals of 3 rotations
    # (two tasks, one a worker): the ratings and their intervals are the same to the digit
    args = ("match", "--bots", "random,greedy,random", "--games", "12", "--seed", "6", "--json")
    alone = invoke(*args)
    on_cluster = invoke(*args, "--scheduler", scheduler)
    assert alone.exit_code == on_cluster.exit_code == 0, on_cluster.output
    report = json.loads(alone.stdout)
    assert report["games"] == 12 and len(report["bots"]) == 3
    assert json.loads(on_cluster.stdout) == report
