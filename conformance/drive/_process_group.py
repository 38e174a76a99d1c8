"""Ending an engine process and every process it started (its process group).

A SubprocessEngine starts its engine in a new session, so the engine and its children share
one process group: `stop_group` signals the group (SIGTERM, then SIGKILL) and reaps the
engine; `exit_status` looks at the engine without reaping it, so that its id, which is the
group's, cannot be reused before the group is signalled.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterator

TERM_GRACE = 1.0
"""Seconds an engine's process group gets after SIGTERM, before SIGKILL."""


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


def stop_group(process: subprocess.Popen[bytes], grace: float = TERM_GRACE) -> None:
    """End an engine and every process it started (they share its session and group):
    SIGTERM to the group, SIGKILL to whatever is left after `grace` seconds; reap the engine.
    """
    group = process.pid  # start_new_session: the engine leads its own group
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGTERM)
    end = time.monotonic() + grace
    for pause in pauses():
        if process.poll() is not None and not group_alive(group):
            return
        if time.monotonic() > end:
            break
        time.sleep(pause)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
