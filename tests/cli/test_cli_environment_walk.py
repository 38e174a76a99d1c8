"""Every command in a hostile environment (issue 29): the walker's axes one level out.

tests/cli/test_cli_walker.py gives every parameter hostile values; here the values are the
command's cheap invocation (tests/support/cli_walk.py) and what varies is what surrounds it: a
closed or full standard output, a closed standard input, an ASCII locale, a missing or
unusable $HOME, a low `ulimit -n` or `ulimit -f`, a SIGHUP at a random moment. Whatever
the environment, each command

* ends with a documented exit code (0-4, 129 on SIGHUP, 141 for a reader gone), never a
  traceback, and says at most a few lines on standard error;
* prints valid JSON under --json wherever standard output works, in any locale, and text
  its locale can encode;
* makes nothing under a $HOME that does not exist, and leaves no file half-written (no
  temporary file of dekal._atomic) and no process running.

Each environment needs a process of its own (`dekal` as a user starts it): the default
run draws two commands per axis from those that start in a blink, the deep profile walks
every command on every axis.
"""

from __future__ import annotations

import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from support.cli_walk import BASELINES, Invocation, Walked, commands, first_example
from typer.testing import CliRunner

from dekal.cli._app import app

DEKAL = str(Path(sys.executable).with_name("dekal"))
BOUND = 120
DEEP = settings.default.max_examples >= 1000
WALKED = {walked.name: walked for walked in commands()}
QUICK = ["score", "push", "show", "replay", "prove", "conformance report"]
"""Commands whose cheap invocation costs a fifth of a second of CPU or so."""
SAMPLE = random.Random(os.environ.get("PYTEST_XDIST_TESTRUNUID", "29"))
"""Draws the commands of the default run: other ones each run, the same in every xdist
worker of one run (they must collect the same tests)."""
STDERR_BYTES = 2000
"""More than this on standard error is a flood, not an error line."""


@dataclass(frozen=True)
class Axis:
    """One hostile environment: how the child is set up, the exit codes it may end with."""

    name: str
    environment: dict[str, str] = field(default_factory=dict)
    prepare: Callable[[], None] | None = None  # run in the child before `dekal` starts
    stdout: str = "pipe"  # "pipe", "closed" or "full"
    stdin: str = "empty"  # "empty" or "closed"
    codes: frozenset[int] = frozenset({0, 1, 2, 3, 4})


def _limit(kind: int, value: int) -> Callable[[], None]:
    return lambda: resource.setrlimit(kind, (value, value))


AXES = [
    Axis("closed stdout", stdout="closed"),
    Axis("full stdout", stdout="full"),
    Axis("closed stdin", stdin="closed"),
    Axis("C locale", {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"}),
    Axis("ascii stdout", {"PYTHONIOENCODING": "ascii"}),
    Axis("missing HOME", {"HOME": "/nonexistent-dekal-home/x", "XDG_CACHE_HOME": ""}),
    Axis("HOME a file", {"HOME": "/dev/null", "XDG_CACHE_HOME": ""}),
    Axis("ulimit -n 20", prepare=_limit(resource.RLIMIT_NOFILE, 20)),
    Axis("ulimit -f 1 KiB", prepare=_limit(resource.RLIMIT_FSIZE, 1024)),
]


def cases() -> list[Any]:
    """Every command on every axis under the deep profile; else one drawn per axis."""
    return [
        pytest.param(axis, name, id=f"{axis.name}: {name}")
        for axis in AXES
        for name in (sorted(WALKED) if DEEP else SAMPLE.sample(QUICK, 1))
    ]


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a saved `conformance run` report, for `conformance report`."""
    folder = tmp_path_factory.mktemp("environment")
    result = CliRunner().invoke(
        app, ["conformance", "run", "--engine=ref", "--filter=perft-0001", "--json"]
    )
    assert result.exit_code == 0, result.output
    (folder / "report.json").write_text(result.stdout)
    return folder


def arguments(name: str, place: Path, json_mode: bool) -> list[str]:
    walked: Walked = WALKED[name]
    text = (BASELINES.get(name) or first_example(walked)).format(place=place)
    invocation = Invocation.parse(walked, text)
    if json_mode:
        (flag,) = [p for p in walked.command.params if p.name == "json_output"]
        invocation = invocation.with_flag(flag)
    return invocation.args()


def run(axis: Axis, args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    def child() -> None:
        os.setsid()  # its own group: whatever it leaves behind is found and killed below
        if axis.stdin == "closed":
            os.close(0)
        if axis.stdout == "closed":
            os.close(1)
        if axis.prepare is not None:
            axis.prepare()

    stdout: Any = open(os.devnull if axis.stdout != "full" else "/dev/full", "wb")  # noqa: SIM115
    if axis.stdout == "pipe":
        stdout.close()
        stdout = subprocess.PIPE
    environment = {**os.environ, **axis.environment}
    with subprocess.Popen(
        [DEKAL, *args], stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE,
        cwd=cwd, env=environment, preexec_fn=child,
    ) as process:  # fmt: skip
        try:
            out, err = process.communicate(timeout=BOUND)
        finally:
            with _quiet():
                os.killpg(process.pid, signal.SIGKILL)
            if stdout is not subprocess.PIPE:
                stdout.close()
    return subprocess.CompletedProcess(args, process.returncode, out or b"", err)


class _quiet:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, *_: object) -> bool:
        return kind is not None and issubclass(kind, OSError)  # type: ignore[arg-type]


def check(axis: Axis, done: subprocess.CompletedProcess[bytes], json_mode: bool) -> None:
    said = done.stderr.decode("utf-8", "replace")
    assert done.returncode in axis.codes | {141}, said[-2000:]
    assert "Traceback" not in said, said[-2000:]
    assert len(done.stderr) <= STDERR_BYTES, said[:2000]
    if done.returncode == 2 and axis.stdout != "pipe":
        assert said.strip().splitlines()[-1].startswith("error: "), said
    if axis.stdout != "pipe":
        return
    encoding = "ascii" if axis.environment.get("PYTHONIOENCODING") == "ascii" or (
        axis.environment.get("LC_ALL") == "C"
    ) else "utf-8"  # fmt: skip
    text = done.stdout.decode(encoding)  # text its locale can encode
    if json_mode:
        for line in text.splitlines():
            assert isinstance(json.loads(line), dict), line[:200]


@pytest.mark.parametrize(("axis", "name"), cases())
def test_every_command_keeps_the_conventions_in_a_hostile_environment(
    axis: Axis, name: str, place: Path, tmp_path: Path
) -> None:
    json_mode = axis.name in ("C locale", "ascii stdout", "full stdout")
    done = run(axis, arguments(name, place, json_mode), tmp_path)
    check(axis, done, json_mode)
    if "HOME" in axis.environment:
        assert not Path("/nonexistent-dekal-home").exists(), "made a folder above $HOME"
    assert not [p.name for p in tmp_path.rglob("*.writing*")], "a temporary file was left"


@pytest.mark.parametrize("stream", ["closed", "full"])
def test_a_lost_standard_output_is_one_line_and_exit_2(stream: str, tmp_path: Path) -> None:
    """The issue's first examples, by name: `>&-` and `>/dev/full`."""
    done = run(Axis(stream, stdout=stream), ["score", "5T32/1444/9999/TT11"], tmp_path)
    reason = "it is closed" if stream == "closed" else "No space left on device"
    assert (done.returncode, done.stderr.decode().splitlines()) == (
        2,
        [f"error: cannot use standard output: {reason}"],
    )


def test_a_closed_standard_input_is_a_json_error_naming_it(tmp_path: Path) -> None:
    done = run(Axis("closed stdin", stdin="closed"), ["score", "--json", "--", "-"], tmp_path)
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert (error["kind"], error["field"]) == ("input", "standard input")


def caught_signals(pid: int) -> int:
    """The mask of signals a process has a handler for (/proc's SigCgt)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    (line,) = [line for line in status.splitlines() if line.startswith("SigCgt:")]
    return int(line.split()[1], 16)


@pytest.mark.parametrize("name", sorted(WALKED) if DEEP else SAMPLE.sample(QUICK, 1))
def test_a_sighup_at_any_moment_ends_the_command_in_one_line_or_not_at_all(
    name: str, place: Path, tmp_path: Path
) -> None:
    """From the moment the command has a handler (its first instruction after Python's own
    start-up) a SIGHUP at a random moment is 129 and `error: hung up (SIGHUP)`, or comes
    after the command's own end."""
    process = subprocess.Popen(
        [DEKAL, *arguments(name, place, False)], stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path, start_new_session=True,
    )  # fmt: skip
    try:
        end = time.monotonic() + BOUND
        while not caught_signals(process.pid) & (1 << (signal.SIGHUP - 1)):
            assert process.poll() is None and time.monotonic() < end, "no SIGHUP handler"
            time.sleep(0.002)
        time.sleep(random.uniform(0, 0.4))
        process.send_signal(signal.SIGHUP)
        _, stderr = process.communicate(timeout=BOUND)
    finally:
        with _quiet():
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    said = stderr.decode().strip().splitlines()
    assert process.returncode in (0, 1, 129), said
    if process.returncode == 129:
        assert said[-1:] == ["error: hung up (SIGHUP)"] and "Traceback" not in stderr.decode()


@pytest.mark.parametrize(
    ("sent", "code", "said"),
    [(signal.SIGTERM, 143, "error: terminated (SIGTERM)"), (signal.SIGHUP, 129,
      "error: hung up (SIGHUP)")],
    ids=["sigterm", "sighup"],
)  # fmt: skip
def test_a_signal_at_the_first_instruction_is_said_and_exits_with_its_code(
    sent: signal.Signals, code: int, said: str, tmp_path: Path
) -> None:
    """The moment the handler is in place (before typer, before any command is imported):
    a SIGTERM in the first tenth of a second once ended the command without its line."""
    process = subprocess.Popen(
        [DEKAL, "score", "5T32/1444/9999/TT11"], stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path,
    )  # fmt: skip
    try:
        end = time.monotonic() + BOUND
        while not caught_signals(process.pid) & (1 << (sent - 1)):
            assert process.poll() is None and time.monotonic() < end, "no handler"
            time.sleep(0.0005)
        process.send_signal(sent)
        _, stderr = process.communicate(timeout=BOUND)
    finally:
        process.kill()
        process.wait()
    assert (process.returncode, stderr.decode().splitlines()) in ((code, [said]), (0, []))
