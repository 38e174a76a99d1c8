"""Ending an engine process and every process it started (its process group, and more).

A SubprocessEngine starts its engine in a new session, so the engine and its children share
one process group: `stop_group` signals the group (SIGTERM, then SIGKILL) and reaps the
engine; `exit_status` looks at the engine without reaping it, so that its id, which is the
group's, cannot be reused before the group is signalled.

A child can leave the group: `setsid()`, or a double fork whose middle process exits so
that the grandchild is handed to init (issue 29). So an engine is also started with a mark
in its environment (ENGINE_MARK=token), which every process it starts inherits whatever
group, session or parent it ends in, and `stop_group` ends the marked processes and the
engine's process tree (read from /proc's parent links before the kill) beside its group.
The `dekal` command also makes itself the child subreaper (`adopt_orphans`): an orphan of
anything it started is handed to it, not to init, so that its last sweep finds it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator

TERM_GRACE = 1.0
"""Seconds an engine's process group gets after SIGTERM, before SIGKILL."""

ENGINE_MARK = "DEKAL_ENGINE_MARK"
"""The environment variable that marks every process an engine started."""

PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def exit_status(process: subprocess.Popen[bytes]) -> int | None:
    """The exit status of a finished engine (negative: killed by that signal), None while it
    runs. The process is not reaped, so its id — its process group's id — cannot be reused
    before `stop_group` has signalled the group."""
    if process.returncode is not None:
        return process.returncode
    try:
        found = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return process.poll()
    if found is None:
        return None
    return found.si_status if found.si_code == os.CLD_EXITED else -found.si_status


def process_table() -> dict[int, tuple[bytes, int, int]]:
    """Every process /proc shows: pid -> (state, parent id, process group id); empty where
    there is no /proc. A process that ends while it is read is left out."""
    table: dict[int, tuple[bytes, int, int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:
            continue
        # after the command's closing parenthesis: state, parent id, process group id
        if len(fields) > 2:
            table[int(name)] = (fields[0], int(fields[1]), int(fields[2]))
    return table


def group_alive(group: int) -> bool:
    """Does any process of this group still run? Zombies (dead, not yet reaped by whoever
    inherited them) do not count."""
    if not os.path.isdir("/proc"):
        try:
            os.killpg(group, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True
    return any(pgrp == group and state != b"Z" for state, _, pgrp in process_table().values())


def pauses(longest: float = 0.02) -> Iterator[float]:
    """Waits between two looks at a process: short at first (an engine told to quit is
    usually gone within a millisecond or two), then longer."""
    pause = 0.001
    while True:
        yield pause
        pause = min(2 * pause, longest)


def stop_group(
    process: subprocess.Popen[bytes], grace: float = TERM_GRACE, mark: str | None = None
) -> None:
    """End an engine and every process it started: SIGTERM to its group and to the strays
    (its tree outside the group, the processes marked `mark`), SIGKILL to whatever is left
    after `grace` seconds; reap the engine."""
    group = process.pid  # start_new_session: the engine leads its own group
    strays = _strays(process.pid, mark)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGTERM)
    _signal_each(strays, signal.SIGTERM)
    end = time.monotonic() + grace
    for pause in pauses():
        if process.poll() is not None and not group_alive(group):
            break
        if time.monotonic() > end:
            break
        time.sleep(pause)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)
    _signal_each(strays | _strays(process.pid, mark), signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def _strays(engine: int, mark: str | None) -> set[int]:
    """The engine's processes a signal to its group may miss: its tree and the marked ones."""
    found = descendants(engine) | (marked(mark) if mark else set())
    return found - {engine, os.getpid()}


def _signal_each(pids: Iterable[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)


def descendants(root: int) -> set[int]:
    """Every process below `root`, from /proc's parent links (none where /proc is absent),
    zombies included (a SIGKILL to one is harmless)."""
    parents = {pid: parent for pid, (_, parent, _) in process_table().items()}
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def marked(mark: str) -> set[int]:
    """Every living process whose environment holds ENGINE_MARK=`mark` (from /proc: the
    environment each was started with; processes of other users cannot be read)."""
    needle = f"\0{ENGINE_MARK}={mark}\0".encode()
    found: set[int] = set()
    for pid, (state, _, _) in process_table().items():
        if state == b"Z":
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                if needle in b"\0" + environ.read() + b"\0":
                    found.add(pid)
        except OSError:
            continue
    return found


def adopt_orphans() -> bool:
    """Make this process the child subreaper (Linux's prctl): a process any of its
    descendants leaves behind (a double fork, a daemon) is handed to it, not to init, so
    `descendants(os.getpid())` still finds it. False where the system has no such thing."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False
