"""Ctrl-C and SIGTERM on a running command: one line on standard error, exit 130 or 143, and
no process of the command left running (its workers, a bot thinking, a prompt)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from support.hostile import BOUND, DEKAL, FIRST_REVEAL_6

# --- Ctrl-C and SIGTERM: one line, 130 or 143, nothing left running -----------------------


def descendants(root: int) -> set[int]:
    """Every living (not zombie) process below `root`, from /proc's parent links."""
    table: dict[int, tuple[int, bytes]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_bytes().rpartition(b")")[2].split()
            except OSError:
                continue
            table[int(name)] = (int(stat[1]), stat[0])
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, (parent, _) in table.items() if parent in frontier} - found
        found |= frontier
    return {pid for pid in found if table[pid][1] != b"Z"}


def still_alive(pids: set[int]) -> set[int]:
    """The processes of `pids` still running a few seconds on (zombies are dead)."""

    def running(pid: int) -> bool:
        try:
            stat = Path(f"/proc/{pid}/stat").read_bytes()
        except OSError:
            return False
        return stat.rpartition(b")")[2].split()[0] != b"Z"

    end = time.monotonic() + 5
    while (alive := {pid for pid in pids if running(pid)}) and time.monotonic() < end:
        time.sleep(0.1)
    return alive


SIGNALS = [
    (signal.SIGINT, 130, "error: interrupted (Ctrl-C)", "ctrl-c"),
    (signal.SIGTERM, 143, "error: terminated (SIGTERM)", "sigterm"),
]
"""Each signal a command answers: what it is sent, its exit code, its one line, a name."""

ADVISE = ["advise", FIRST_REVEAL_6, "--seat", "0", "--samples", "100000", "--bot", "random"]
PLAY_6 = ["play", "--players", "6", "--bots", "ismcts:iterations=100000", "--seat", "5"]
ANNOTATE = ["annotate", "two-players-first-tie", "--samples", "100000", "--bot", "random"]
STOPPED_COMMANDS = [
    # (command, how many processes are busy in the work when the signal comes, a name)
    ([*ADVISE, "--workers", "2"], 2, "advise --workers 2"),
    ([*PLAY_6, "--json"], 1, "play while a bot thinks"),
    (["play", "--bots", "greedy"], 0, "play at a prompt"),
    ([*ANNOTATE, "--workers", "2"], 2, "annotate --workers 2"),
]


def deep_only(name: str, sent: signal.Signals, args: list[str]) -> bool:
    return "--workers" in args and (sent == signal.SIGTERM or name.startswith("advise"))


def stop_cases() -> list[Any]:
    """Every command under every signal. Under the default profile SIGTERM goes only to the
    commands without a cluster: its path through dekal.cli._stopping is Ctrl-C's (one table,
    STOPPED), and a cluster's closing on a stop is checked by the Ctrl-C cases: annotate's
    here, simulate's in test_simulate_cluster. advise's cluster is the same local cluster
    (dekal.simulation.runner) and its Ctrl-C case runs under the deep profile."""
    return [
        pytest.param(
            args,
            busy,
            sent,
            code,
            said,
            id=f"{name}-{signal_name}",
            marks=[pytest.mark.deep] if deep_only(name, sent, args) else [],
        )  # fmt: skip
        for args, busy, name in STOPPED_COMMANDS
        for sent, code, said, signal_name in SIGNALS
    ]


@pytest.mark.parametrize(("args", "busy", "sent", "code", "said"), stop_cases())
def test_a_stopped_command_exits_in_one_line_and_leaves_no_process(
    args: list[str], busy: int, sent: signal.Signals, code: int, said: str, tmp_path: Path
) -> None:
    """`busy` processes are inside the work when the signal comes: the workers (with
    --workers), or the command itself; none at a prompt, where the command waits."""
    process = subprocess.Popen(
        [DEKAL, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=tmp_path,
    )  # fmt: skip
    seen: set[int] = set()
    try:
        end = time.monotonic() + BOUND
        with_workers = "--workers" in args
        while (working := busy_processes(process.pid, seen, with_workers)) < busy:
            if time.monotonic() > end:
                break
            time.sleep(0.1)
        assert working >= busy, "the work never started"
        if not busy:
            time.sleep(3)  # at the prompt (waiting there costs nothing)
        seen |= descendants(process.pid)
        process.send_signal(sent)
        _, stderr = process.communicate(timeout=BOUND)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == code
    assert stderr.decode().strip().splitlines() == [said]
    assert not still_alive(seen)


BUSY_SECONDS = 1.5
"""CPU seconds a process has spent once it is well inside the work: a worker's start-up (its
imports) takes about 0.5 s, the command's too. A CPU bound, not a wall-clock one, holds on a
busy machine, where a fixed sleep could end before the workers even started."""


def busy_processes(command: int, seen: set[int], workers: bool) -> int:
    """How many of the command's workers (or the command itself, without workers) have
    spent BUSY_SECONDS of CPU; `seen` gathers every descendant met."""
    seen |= descendants(command)
    working = seen if workers else {command}
    return sum(cpu_seconds(pid) >= BUSY_SECONDS for pid in working)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a living process has spent, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
