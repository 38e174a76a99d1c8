"""Hostile engines: whatever an engine does, `dekal conformance` ends in bounded time with a
documented exit code, one line of error and no process left behind (README, exit codes).

The fake engines of tests/miniatures/engines/ crash, hang, flood, fork and ignore SIGTERM on
purpose. Each test gives its engine a unique marker argument (children inherit it) and checks the
process table for it afterwards. Times are upper bounds given as subprocess timeouts, never
speed assertions.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dekal.cli._app import app
from dekal.conformance.drive import _engine_link as engine_link
from dekal.conformance.drive import _inprocess_engine as inprocess_engine
from dekal.conformance.drive._engine_link import EngineError, EngineUnusable
from dekal.conformance.drive._inprocess_engine import InProcessEngine, load_factory
from dekal.conformance.drive._serve import bundled_adapter
from dekal.conformance.drive._subprocess_engine import (
    STDERR_LINE_CHARS,
    STDERR_TAIL_BYTES,
    SubprocessEngine,
)

ENGINES = Path(__file__).resolve().parents[1] / "miniatures" / "engines"
DEKAL = str(Path(sys.executable).parent / "dekal")
BOUND = 120  # seconds: far above what any of these runs needs, only to fail instead of hang

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
# a traceback in a thread an in-process command started is a traceback too


def living(marker: str) -> list[int]:
    """Processes whose command line holds the marker, zombies excepted (dead, only waiting
    for whoever inherited them to reap them)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            command = Path(f"/proc/{name}/cmdline").read_bytes()
            state = Path(f"/proc/{name}/stat").read_bytes().rpartition(b")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in command and state != b"Z":
            found.append(int(name))
    return found


def none_left(marker: str) -> bool:
    """No process with the marker within a few seconds (a SIGKILL takes effect at once,
    but the process table may show a killed process for an instant)."""
    end = time.monotonic() + 5
    while living(marker) and time.monotonic() < end:
        time.sleep(0.05)
    return not living(marker)


def started(marker: str, count: int) -> bool:
    """Wait until `count` processes hold the marker (a child may take a moment to appear)."""
    end = time.monotonic() + BOUND
    while len(living(marker)) < count and time.monotonic() < end:
        time.sleep(0.05)
    return len(living(marker)) == count


@pytest.fixture
def marker() -> Iterator[str]:
    mark = f"hostile-{uuid.uuid4().hex}"
    yield mark
    for pid in living(mark):  # a failed test must not leave its engine running
        os.kill(pid, signal.SIGKILL)


def engine(name: str, marker: str) -> str:
    """The command line of a fake engine, marked."""
    script = shlex.quote(str(ENGINES / f"{name}.py"))
    return f"{shlex.quote(sys.executable)} {script} --marker={marker}"


def dekal(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`dekal ARGS` in a process of its own: for what is about that process (a user's module
    imported into it, its memory, its signals)."""
    return subprocess.run(
        [DEKAL, *args], capture_output=True, text=True, timeout=BOUND, cwd=cwd, check=False
    )


def dekal_here(*args: str) -> subprocess.CompletedProcess[str]:
    """`dekal ARGS` in this process (CliRunner), for what is about the engine it drives (a
    process of its own either way): a process's start-up is most of such a run's CPU. An
    exception that escapes the command fails the test; one in a thread it started too
    (pytestmark below)."""
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def one_line_error(stderr: str) -> str:
    """The stderr of a failed command: exactly one line starting 'error:' (no traceback)."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    return lines[0]


# -- engines that cannot be used at all: exit 3 ----------------------------------------------


def test_an_engine_dying_at_start_is_unusable_and_its_stderr_says_why(marker: str) -> None:
    result = dekal_here("conformance", "run", "--engine", engine("crash_at_start", marker))
    assert result.returncode == 3
    line = one_line_error(result.stderr)
    assert "exited (status 1)" in line
    assert "No module named 'dekal_engine_core'" in line
    assert none_left(marker)


def test_an_engine_leaving_at_hello_is_unusable(marker: str) -> None:
    result = dekal_here("conformance", "run", "--engine", engine("exit_at_hello", marker))
    assert result.returncode == 3
    assert "no answer to hello: the engine exited (status 0)" in one_line_error(result.stderr)
    assert none_left(marker)


def test_an_engine_silent_at_hello_waits_only_the_startup_limit(
    marker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_link, "STARTUP_TIMEOUT", 0.5)  # hello's limit
    silent = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(300)' {marker}"
    with pytest.raises(EngineUnusable, match=r"no reply within 0\.5 s to 'hello'"):
        SubprocessEngine(silent, timeout=0.5)
    assert none_left(marker)


def test_a_command_that_does_not_run_is_unusable() -> None:
    result = dekal_here("conformance", "run", "--engine", "/nonexistent/engine --fast")
    assert result.returncode == 3
    assert "cannot start" in one_line_error(result.stderr)


# -- engines that break the protocol on cases: errors, restarts, exit 1 ----------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("hang", "no reply within 1.0 s to 'score'"),
        ("garbage", "garbage on stdout: 'this is not JSON {'"),
        ("wrong_id", "the reply echoes id"),
        ("fork_linger", "the engine exited (status 0)"),
        ("ignore_term", "no reply within 1.0 s to 'score'"),
    ],
)
def test_a_broken_engine_errs_each_case_and_leaves_nothing_behind(
    name: str, message: str, marker: str
) -> None:
    result = dekal_here(
        "conformance",
        "run",
        "--engine",
        engine(name, marker),
        "--filter",
        "score-0001,score-0002",
        "--timeout",
        "1",
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout.count(message) == 2
    assert result.stderr.strip() == ""  # no traceback, not even from a thread
    assert none_left(marker)


def test_fuzzing_an_engine_that_forks_and_exits_ends_cleanly(marker: str) -> None:
    result = dekal_here(
        "conformance", "fuzz", "--engine", engine("fork_linger", marker), "--games", "1"
    )
    assert result.returncode == 1
    assert "divergence" in result.stdout
    assert "Traceback" not in result.stderr and "closed file" not in result.stderr
    assert none_left(marker)


def test_a_stderr_flood_is_kept_as_its_last_bytes(marker: str) -> None:
    with SubprocessEngine(engine("stderr_flood", marker), timeout=5) as flooded:
        assert len(flooded.stderr_tail) <= STDERR_TAIL_BYTES
        shown = flooded.diagnostics().splitlines()
        assert shown[-1] == "warning: the flood ends here"
        assert all(len(line) <= STDERR_LINE_CHARS + 60 for line in shown)
    assert none_left(marker)


def test_a_stderr_flood_does_not_swell_the_runner(marker: str) -> None:
    """100 MiB of stderr, one line of it: the old reader kept whole lines (273 MB)."""
    measure = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:]); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    args = ["conformance", "run", "--engine", engine("stderr_flood", marker)]
    args += ["--filter", "score-0001"]
    result = subprocess.run(
        [sys.executable, "-c", measure, DEKAL, *args],
        capture_output=True,
        text=True,
        timeout=BOUND,
        check=False,
    )
    peak_kib = int(result.stdout.strip().splitlines()[-1])
    assert peak_kib < 250 * 1024  # the command itself is about 100 MB
    assert none_left(marker)


# -- closing ends the engine's whole process group -------------------------------------------


def test_closing_kills_a_child_that_ignores_sigterm(marker: str) -> None:
    driven = SubprocessEngine(engine("ignore_term", marker), timeout=5)
    assert started(marker, 2)  # the engine and its child
    driven.close()
    assert none_left(marker)


def test_a_child_holding_the_pipes_cannot_hang_a_request(marker: str) -> None:
    with SubprocessEngine(engine("fork_linger", marker), timeout=5) as driven:
        with pytest.raises(EngineError, match=r"the engine exited \(status 0\)"):
            driven.request({"cmd": "score", "grid": "1111/1111/1111/1111"}, BOUND)
        driven.restart()  # the lingering child is killed with the old engine's group
        assert len(living(marker)) == 1
    assert none_left(marker)


@pytest.mark.parametrize(
    ("sent", "code", "said"),
    [
        (signal.SIGINT, 130, "error: interrupted (Ctrl-C)"),
        (signal.SIGTERM, 143, "error: terminated (SIGTERM)"),
    ],
    ids=["ctrl-c", "sigterm"],
)
def test_a_stopped_run_exits_in_one_line_and_closes_the_engine(
    sent: signal.Signals, code: int, said: str, marker: str
) -> None:
    command = [DEKAL, "conformance", "run", "--engine", engine("ignore_term", marker)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert started(marker, 3)  # dekal (the marker is in its --engine), the engine, its child
        process.send_signal(sent)
        _, stderr = process.communicate(timeout=BOUND)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == code
    assert one_line_error(stderr) == said
    assert none_left(marker)


# -- Python engines judged in-process ---------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("def make(:\n", "broken does not compile: invalid syntax (broken.py, line 1)"),
        ("raise RuntimeError('no licence file')\n", "raised RuntimeError: no licence file"),
        ("import sys\nsys.exit(4)\n", "importing broken raised SystemExit: 4"),
        ("import dekal_engine_core\n", "No module named 'dekal_engine_core'"),
        ("value = 1\n", "broken has no callable 'make'"),
    ],
)
def test_a_python_engine_failing_at_import_is_one_line_and_exit_3(
    source: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In this process (the test below runs one in a process of its own): the user's folder
    joins sys.path and their module sys.modules, both put back afterwards."""
    (tmp_path / "broken.py").write_text(source, "utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    try:
        result = dekal_here("conformance", "run", "--python", "broken:make")
    finally:
        sys.modules.pop("broken", None)
    assert result.returncode == 3
    assert said in one_line_error(result.stderr)


def test_a_python_engine_exiting_at_import_does_not_end_the_dekal_process(
    tmp_path: Path,
) -> None:
    """sys.exit() in the user's module, in a real `dekal` process: one line, exit 3."""
    (tmp_path / "broken.py").write_text("import sys\nsys.exit(4)\n", "utf-8")
    result = dekal("conformance", "run", "--python", "broken:make", cwd=tmp_path)
    assert result.returncode == 3
    assert "importing broken raised SystemExit: 4" in one_line_error(result.stderr)


def test_load_factory_names_the_module_it_could_not_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "raising_at_import.py").write_text("1 / 0\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="importing raising_at_import raised ZeroDivisionError"):
        load_factory("raising_at_import:make")


def test_a_module_looping_at_import_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "looping_at_import.py").write_text("while True:\n    pass\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(inprocess_engine, "STARTUP_TIMEOUT", 0.5)  # load_factory's limit
    before = set(threading.enumerate())
    with pytest.raises(
        ValueError, match=r"importing looping_at_import did not finish within 0\.5 s"
    ):
        load_factory("looping_at_import:make")
    end = time.monotonic() + BOUND
    while set(threading.enumerate()) - before and time.monotonic() < end:
        time.sleep(0.01)  # the import thread, told to stop, ends at its next instruction
    assert set(threading.enumerate()) <= before


class Spinning:
    """A Python engine whose `score` loops for ever in Python code."""

    def __init__(self) -> None:
        self.adapter = bundled_adapter("ref")

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        while request.get("cmd") == "score":
            pass
        return self.adapter.handle(request)


def test_a_hung_python_call_is_stopped_not_abandoned() -> None:
    before = set(threading.enumerate())
    with InProcessEngine(Spinning, "spinning", timeout=5) as spinning:
        with pytest.raises(EngineError, match="no reply within 0.2 s"):
            spinning.request({"cmd": "score", "grid": "1111/1111/1111/1111"}, 0.2)
        spinning.restart()
        assert spinning.diagnostics() == ""
        pushes = {"cmd": "pushes", "grid": "1111/1.11/1111/1111", "variant": "slide"}
        assert spinning.request(pushes, 5)["ok"]  # the rebuilt engine answers
    assert set(threading.enumerate()) <= before


def test_a_call_blocked_in_c_code_is_left_behind_and_said() -> None:
    release = threading.Event()

    class Blocked:
        def __init__(self) -> None:
            self.adapter = bundled_adapter("ref")

        def handle(self, request: dict[str, Any]) -> dict[str, Any]:
            if request.get("cmd") == "score":
                release.wait()  # a lock wait: no Python instruction runs to be interrupted
            return self.adapter.handle(request)

    with InProcessEngine(Blocked, "blocked", timeout=5) as blocked:
        with pytest.raises(EngineError):
            blocked.request({"cmd": "score", "grid": "1111/1111/1111/1111"}, 0.2)
        blocked.restart()
        assert blocked.diagnostics() == "1 timed-out call(s) could not be stopped and still run"
        release.set()
