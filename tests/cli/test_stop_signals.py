"""Ctrl-C and SIGTERM on a running command: one line on standard error, exit 130 or 143, and
no process of the command left running (its workers, a bot thinking, a prompt)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
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


# --- bot programs (cmd:): a Ctrl-C ends every one, whatever the command was doing ---------


def lingering_bot(marker: str) -> str:
    """`cmd:` of our random bot served over pipes, in a shell that sleeps `marker` seconds
    once the bot exits: a command that only closed the bot's pipes (the bot exits at the end
    of its input) would leave the sleep running. Ending the program's whole group ends both."""
    return f"cmd:sh -c '{sys.executable} -m dekal.bots.serve random; sleep {marker}'"


def a_marker() -> str:
    """A sleep's seconds no other run uses, to find this run's programs by command line."""
    return f"{time.time_ns() % 10**6 + 1000}.25"


def running_with(marker: str) -> set[int]:
    """The living (not zombie) processes whose command line holds `marker`: this run's
    shells, their sleeps."""
    found = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                command = Path(f"/proc/{name}/cmdline").read_bytes()
                state = Path(f"/proc/{name}/stat").read_bytes().rpartition(b")")[2].split()[0]
            except OSError:
                continue
            if marker.encode() in command and b"pytest" not in command and state != b"Z":
                found.add(int(name))
    return found


def until(ready: Callable[[], bool], process: subprocess.Popen[bytes]) -> bool:
    """Wait for `ready` (a readiness signal of the command's own making), polled every
    20 ms, until the command exits or BOUND seconds pass: no fixed sleep to guess."""
    end = time.monotonic() + BOUND
    while not ready():
        if process.poll() is not None or time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def line_with(process: subprocess.Popen[bytes], text: bytes) -> bool:
    """Read the command's standard output up to a line holding `text` (False at its end or
    after BOUND seconds): a readiness signal the command writes itself."""
    assert process.stdout is not None
    fd, seen, end = process.stdout.fileno(), b"", time.monotonic() + BOUND
    while text not in seen.rpartition(b"\n")[0]:
        if not select.select([fd], [], [], max(0.0, end - time.monotonic()))[0]:
            return False
        chunk = os.read(fd, 65536)
        if not chunk:
            return False
        seen += chunk
    return True


PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


@pytest.fixture
def unreaped() -> Iterator[Callable[[set[int]], set[int]]]:
    """This test's process made the child subreaper (as `dekal` makes itself one) for the
    test: a process the command leaves behind when it exits, killed but never waited for
    (a zombie) or still running, is handed to the test instead of to init, at the command's
    exit. `unreaped(seen)`: the processes of `seen` handed over so. Each is ended and
    reaped when the test ends."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        pytest.skip("no child subreaper here (Linux's prctl)")
    handed: set[int] = set()

    def handed_over(seen: set[int]) -> set[int]:
        handed.update(pid for pid in seen if parent_of(pid) == os.getpid())
        return set(handed)

    try:
        yield handed_over
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        for pid in handed:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)


def parent_of(pid: int) -> int | None:
    """The parent of a process, zombie or not (None once it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()[1])
    except OSError:
        return None


def end_leftovers(pids: set[int], marker: str) -> None:
    """After a failed check: end every program group the test's command left behind."""
    for pid in still_alive(pids) | running_with(marker):
        with contextlib.suppress(OSError):
            os.killpg(os.getpgid(pid), signal.SIGKILL)


def interrupted(process: subprocess.Popen[bytes], marker: str) -> tuple[set[int], set[int], str]:
    """Ctrl-C as a terminal sends it (to the command's process group) once the command is
    ready: every process below it just before, the bot programs' shells among them, and
    what the command wrote on standard error."""
    seen = descendants(process.pid)
    programs = running_with(marker) & seen
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=BOUND)
    return seen, programs, stderr.decode()


def test_ctrl_c_during_a_match_of_bot_programs_ends_and_reaps_every_program(
    tmp_path: Path, unreaped: Callable[[set[int]], set[int]]
) -> None:
    marker, records = a_marker(), tmp_path / "records"
    command = [DEKAL, "match", "--bots", f"{lingering_bot(marker)},random", "--games", "100000"]
    process = subprocess.Popen(
        [*command, "--seed", "1", "--records", str(records)], stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, start_new_session=True,
    )  # fmt: skip
    seen: set[int] = set()
    try:
        # ready: a game is recorded, so the program has played and is playing the next game
        assert until(lambda: records.is_dir() and any(records.iterdir()), process)
        seen, programs, stderr = interrupted(process, marker)
        assert programs, "the bot program was not found running"
        assert process.returncode == 130
        assert stderr.strip().splitlines() == ["error: interrupted (Ctrl-C)"]
        assert unreaped(seen) == set()  # every one waited for by the command itself
        assert not still_alive(seen) and not running_with(marker)
    finally:
        process.kill()
        process.wait()
        end_leftovers(seen, marker)


def test_ctrl_c_at_a_prompt_of_play_ends_and_reaps_its_bot_program(
    tmp_path: Path, unreaped: Callable[[set[int]], set[int]]
) -> None:
    marker = a_marker()
    command = [DEKAL, "play", "--players", "2", "--bots", lingering_bot(marker), "--seat", "1"]
    process = subprocess.Popen(
        [*command, "--seed", "1", "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, cwd=tmp_path, start_new_session=True,
    )  # fmt: skip
    seen: set[int] = set()
    try:
        # ready: seat 1's first prompt comes after seat 0 revealed, its program started,
        # greeted and asked; then the command waits for a line of standard input
        assert line_with(process, b'"prompt"')
        seen, programs, stderr = interrupted(process, marker)
        assert programs, "the bot program was not found running"
        assert process.returncode == 130
        assert stderr.strip().splitlines() == ["error: interrupted (Ctrl-C)"]
        assert unreaped(seen) == set()  # every one waited for by the command itself
        assert not still_alive(seen) and not running_with(marker)
    finally:
        process.kill()
        process.wait()
        end_leftovers(seen, marker)
