"""dekal.cli._stopping: a signal stops a command in one line, even when the code it lands in
swallows the exception it becomes (the mechanism behind every command's Ctrl-C)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

SCRIPT = """
import os, signal, subprocess, sys, time
from dekal.cli import _stopping as stopping

stopping.STOP_GRACE = {grace}
with stopping.stopped_by_signals():
    try:
{body}
    except stopping.Interrupted as stop:
        stopping.say_stopped_and_exit(stop.signum)
"""


def stopped(body: str, grace: float = 60.0) -> tuple[subprocess.CompletedProcess[str], float]:
    script = SCRIPT.format(grace=grace, body=textwrap.indent(textwrap.dedent(body), " " * 8))
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    return done, time.monotonic() - began


def test_a_signal_swallowed_by_a_destructor_is_raised_again_outside_it() -> None:
    done, took = stopped(
        """
        class Swallows:
            def __del__(self):  # the signal's Interrupted is raised in here, and dropped
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(5)

        Swallows()
        while True:
            time.sleep(0.05)
        """
    )
    assert (done.returncode, done.stderr.splitlines()) == (130, ["error: interrupted (Ctrl-C)"])
    assert took < 30  # raised again at once, not ended by the grace timer (60 s)


def test_a_command_that_swallows_the_stop_ends_after_the_grace_with_its_children(
    tmp_path: Path,
) -> None:
    pid_file = tmp_path / "child"
    done, took = stopped(
        f"""
        child = subprocess.Popen(["sleep", "300"])
        open({str(pid_file)!r}, "w").write(str(child.pid))
        while True:  # a library that drops every exception, BaseException included
            try:
                os.kill(os.getpid(), signal.SIGTERM)  # the second on are ignored
                time.sleep(0.05)
            except BaseException:
                pass
        """,
        grace=1.0,
    )
    assert (done.returncode, done.stderr.splitlines()) == (143, ["error: terminated (SIGTERM)"])
    assert took < 60
    assert not alive(int(pid_file.read_text()))


def alive(pid: int) -> bool:
    """Is `pid` running (a zombie, dead and not yet reaped by init, is not)?"""
    end = time.monotonic() + 5  # SIGKILL takes effect at once, but give the kernel a moment
    while time.monotonic() < end:
        try:
            state = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()[0]
        except OSError:
            return False
        if state == b"Z":
            return False
        time.sleep(0.05)
    return True


def test_a_stopped_command_leaves_no_process_its_unwinding_forgot(tmp_path: Path) -> None:
    pid_file = tmp_path / "child"
    done, _ = stopped(
        f"""
        child = subprocess.Popen(["sleep", "300"], stdout=subprocess.DEVNULL)
        open({str(pid_file)!r}, "w").write(str(child.pid))
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
        """
    )
    assert done.returncode == 130
    assert not alive(int(pid_file.read_text()))


def test_a_second_signal_does_not_cut_the_cleanup_of_the_first() -> None:
    done, _ = stopped(
        """
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        finally:  # the cleanup on the way up is signalled again, and runs to its end
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.2)
            print("cleaned up", flush=True)
        """
    )
    assert (done.returncode, done.stdout) == (130, "cleaned up\n")


def test_what_fails_unraisably_after_the_signal_is_not_printed() -> None:
    done, _ = stopped(
        """
        class CutMidWay:  # distributed's GC timer, interrupted between start and stop, asserts
            def __del__(self):
                raise AssertionError("timer already started")

        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        finally:
            CutMidWay()
        """
    )
    assert (done.returncode, done.stderr.splitlines()) == (130, ["error: interrupted (Ctrl-C)"])
