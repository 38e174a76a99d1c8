"""`dekal simulate` and `dekal conformance fuzz` on real Dask clusters: a scheduler and two
workers started here as separate processes (`dask scheduler`, `dask worker`, on 127.0.0.1,
a free port, no dashboard: the commands of docs/simulate.md) give the single-process report
byte for byte (fuzz's check runs under the deep profile); a Ctrl-C closes a local cluster
and leaves no process behind (no worker, no engine of a fuzz campaign); an unreachable
scheduler is one line, exit 2, within a bounded time. Every process started here is
stopped, even when a test fails."""

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

import pytest

ROOT = Path(__file__).resolve().parent.parent
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


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [DEKAL, *args], capture_output=True, text=True, timeout=timeout, check=False, cwd=ROOT
    )


def test_an_unreachable_scheduler_is_one_line_and_exit_code_2_in_bounded_time() -> None:
    began = time.monotonic()
    done = run("simulate", "--games", "10", "--scheduler", f"tcp://127.0.0.1:{free_port()}")
    assert done.returncode == 2
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


# The tests on the page's cluster come last: the module's scheduler and workers are started
# by the first test that needs them and stopped only when the module ends (their idle
# heartbeats cost CPU while the Ctrl-C tests above run).


def test_the_page_s_run_on_its_cluster_prints_the_single_process_report(scheduler: str) -> None:
    command = on_this_machine(cluster_lines()[-1], scheduler.rsplit(":", 1)[1])
    assert command[:2] == ["dekal", "simulate"] and command[-2:] == ["--scheduler", scheduler]
    on_cluster = run(*command[1:])
    assert on_cluster.returncode == 0, on_cluster.stderr
    alone = run(*command[1:-2])
    assert alone.returncode == 0, alone.stderr
    assert on_cluster.stdout == alone.stdout


FUZZ = ("conformance", "fuzz", "--games", "30", "--seed", "1", "--json", "--no-db")
FUZZ += ("--shrink-seconds", "0", "--keep-going")


@pytest.mark.deep  # 60 fuzz games (22 s of CPU); the default run keeps the same merge in
# test_simulate_campaign.py (a deviation in two chunks reported once, from its first game;
# fuzz on two local Dask workers gives the one-process report) and this page's cluster
# (the simulate test above)
def test_fuzz_on_a_scheduler_finds_what_one_process_finds(scheduler: str) -> None:
    # 30 games are two chunks of the campaign (25 and 5), and F4 shows in both (games 6
    # and 30 of seed 1): the merge must report it once, from game 6, as one process does
    engine = f"{JS_ENGINE} --bug no-rotation"
    alone = run(*FUZZ, "--engine", engine)
    on_cluster = run(*FUZZ, "--engine", engine, "--scheduler", scheduler)
    assert alone.returncode == on_cluster.returncode == 1, on_cluster.stderr
    found = [json.loads(r.stdout)["deviations"] for r in (alone, on_cluster)]
    assert [d["rule"] for d in found[0]] == ["F4"]
    assert [(d["rule"], d["game"], d["record"]) for d in found[1]] == [
        (d["rule"], d["game"], d["record"]) for d in found[0]
    ]
