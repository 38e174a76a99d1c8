"""Engines that send what no terminal, page or file should take, or leave a daemon (issue 29).

tests/miniatures/engines/unsafe_text.py puts a lone surrogate, terminal sequences (a window
title, a cleared screen, CSI) and a right-to-left override in its name, its refusals and its
stderr; tests/miniatures/engines/setsid_daemon.py starts a daemon that leaves its group,
session and parent. Whatever they do, the text report, --html, --junit, --json and the fuzz
record hold no raw escape and encode as UTF-8, and no process of theirs is left running.
"""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest
from test_hostile_engines import (
    BOUND,
    DEKAL,
    dekal_here,
    engine,
    marker,
    none_left,
    one_line_error,
    started,
)

from dekal.conformance.drive._engine_text import cleaned, visible

ESC = "\x1b"
__all__ = ["marker"]  # the fixture, shared with tests/hostile/test_hostile_engines.py


def test_engine_text_is_made_visible_one_way() -> None:
    assert visible("ok") == "ok"
    assert visible("a\x1b]0;t\x07b") == "a\\x1b]0;t\\x07b"
    assert visible("\ud800x\u202e\x9b") == "\ufffdx\\u202e\\x9b"
    assert visible("é\tline\n") == "é\tline\n"  # text, tabs and line breaks are kept
    assert cleaned({"k\x1b": ["\ud800", 1, None]}) == {"k\\x1b": ["\ufffd", 1, None]}


def test_unsafe_text_from_an_engine_reaches_no_report_raw(marker: str, tmp_path: Path) -> None:
    page, junit = tmp_path / "r.html", tmp_path / "r.xml"
    text = dekal_here(
        "conformance", "run", "--engine", engine("unsafe_text", marker), "--filter",
        "score-0001,score-0002", "--html", str(page), "--junit", str(junit), "-q",
    )  # fmt: skip
    assert text.returncode == 1, text.stderr
    report = dekal_here(
        "conformance", "run", "--engine", engine("unsafe_text", marker), "--filter",
        "score-0001", "--json",
    )  # fmt: skip
    assert report.returncode == 1
    json.loads(report.stdout)
    for said in (text.stdout, report.stdout, page.read_text("utf-8"), junit.read_text("utf-8")):
        assert ESC not in said and "\u202e" not in said and "\x9b" not in said
        said.encode("utf-8")  # no lone surrogate
    assert "\\x1b]0;pwned" in text.stdout  # shown, escaped
    assert none_left(marker)


def test_unsafe_text_from_an_engine_reaches_no_fuzz_record_raw(marker: str, tmp_path: Path) -> None:
    record = tmp_path / "game.dkr"
    done = dekal_here(
        "conformance", "fuzz", "--engine", engine("unsafe_text", marker), "--games", "1",
        "--no-db", "--shrink-seconds", "0", "--record", str(record),
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert ESC not in done.stdout + record.read_text("utf-8")
    assert none_left(marker)


def test_a_daemon_an_engine_started_is_ended_with_it(marker: str) -> None:
    """The daemon calls setsid() in a child that then exits: it is in no group or session
    of the engine's and its parent is gone, but it carries the engine's mark."""
    done = dekal_here(
        "conformance", "run", "--engine", engine("setsid_daemon", marker), "--filter",
        "score-0001", "--timeout", "2",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert none_left(marker)


def test_a_daemon_is_ended_when_the_fuzzer_closes_its_engine(marker: str) -> None:
    dekal_here(
        "conformance", "fuzz", "--engine", engine("setsid_daemon", marker), "--games", "1",
        "--no-db", "--shrink-seconds", "0",
    )  # fmt: skip
    assert none_left(marker)


@pytest.mark.parametrize(
    "command", ["run", pytest.param("fuzz", marks=pytest.mark.deep)], ids=["run", "fuzz"]
)
def test_a_closed_terminal_stops_the_judge_and_its_engine(command: str, marker: str) -> None:
    """SIGHUP (a terminal closed, an ssh connection dropped) once killed `conformance run`
    and `fuzz` with no word, their engine's children left spinning: it is a SIGTERM now."""
    extra = ["--games", "1000", "--no-db"] if command == "fuzz" else []
    process = subprocess.Popen(
        [DEKAL, "conformance", command, "--engine", engine("ignore_term", marker), *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert started(marker, 3)  # dekal (the marker is in its --engine), the engine, its child
        process.send_signal(signal.SIGHUP)
        _, stderr = process.communicate(timeout=BOUND)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 129
    assert one_line_error(stderr) == "error: hung up (SIGHUP)"
    assert none_left(marker)
