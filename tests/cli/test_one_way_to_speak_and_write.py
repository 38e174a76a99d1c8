"""The layers every command speaks and writes through (issue 29): dekal._streams for the
standard streams, dekal._atomic for files, and the checks before a command runs (an output
that is one of its inputs, a saved report that breaks its schema)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from dekal._atomic import NotWritten, write_atomic
from dekal._streams import SafeOutput, StreamLost, nearest
from dekal.cli._app import app
from dekal.conformance.report._report_schema import problem

runner = CliRunner()


# --- dekal._streams --------------------------------------------------------------------------


@given(st.text())
def test_any_text_is_written_in_ascii_as_its_nearest_characters(text: str) -> None:
    read, write = os.pipe()
    stream = SafeOutput(write, "standard output", "ascii", raises=True)
    try:
        stream.write(text[:2000])
        stream.flush()
    finally:
        os.close(write)
    with os.fdopen(read, "rb") as pipe:
        written = pipe.read()
    assert written.isascii()
    assert len(written) >= len(text[:2000])  # one character or more for each


def test_the_nearest_ascii_keeps_what_a_reader_needs() -> None:
    assert [nearest(c, "ascii") for c in "é·–…\ud800"] == ["e", ".", "-", "...", "?"]
    assert nearest("\ud800", "utf-8") == "\ufffd"


def test_a_full_stream_raises_once_then_drops_everything() -> None:
    fd = os.open("/dev/full", os.O_WRONLY)
    stream = SafeOutput(fd, "standard output", "utf-8", raises=True)
    try:
        stream.write("x")
        with pytest.raises(StreamLost) as lost:
            stream.flush()
        assert lost.value.errno == errno.ENOSPC
        stream.write("more")  # the unwinding's last words cannot fail again
        stream.flush()
    finally:
        os.close(fd)


def test_standard_error_never_raises() -> None:
    fd = os.open("/dev/full", os.O_WRONLY)
    try:
        stream = SafeOutput(fd, "standard error", "utf-8", raises=False)
        stream.write("error: something\n")
        stream.flush()
    finally:
        os.close(fd)


def test_json_is_valid_in_an_ascii_locale() -> None:
    """`PYTHONIOENCODING=ascii dekal push … --json`: the en dash of the message as \\u2013."""
    done = subprocess.run(
        [str(Path(sys.executable).with_name("dekal")), "annotate", "two-players-first-tie",
         "--samples", "5", "--json"],
        capture_output=True, timeout=120, env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )  # fmt: skip
    assert done.returncode == 2
    assert "\u2013" in json.loads(done.stdout.decode("ascii"))["error"]["message"]


# --- dekal._atomic ---------------------------------------------------------------------------


def test_a_file_written_whole_replaces_the_old_one_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "page.html"
    target.write_text("old")
    target.chmod(0o640)
    write_atomic(target, "new")
    assert target.read_text() == "new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


def test_a_write_cut_by_the_file_size_limit_leaves_the_old_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "page.html"
    target.write_text("old page")
    script = (
        "import resource, sys; from dekal._atomic import write_atomic, NotWritten\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        f"try: write_atomic({str(target)!r}, 'x' * 100_000)\n"
        "except NotWritten as error: print(error); sys.exit(3)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 3 and "File too large" in done.stdout, done.stderr
    assert target.read_text() == "old page"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


def test_a_write_into_a_missing_folder_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(NotWritten, match="cannot write"):
        write_atomic(tmp_path / "gone" / "x.svg", "<svg/>")
    assert not (tmp_path / "gone").exists()


def test_a_link_is_followed_and_kept(tmp_path: Path) -> None:
    (tmp_path / "real.svg").write_text("old")
    (tmp_path / "link.svg").symlink_to("real.svg")
    write_atomic(tmp_path / "link.svg", "new")
    assert (tmp_path / "link.svg").is_symlink() and (tmp_path / "real.svg").read_text() == "new"


# --- checked before a command runs -----------------------------------------------------------


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    result = runner.invoke(app, ["conformance", "run", "--engine=ref", "--filter=perft-0001",
                                 "--json"])  # fmt: skip
    path = tmp_path_factory.mktemp("saved") / "run.json"
    path.write_text(result.stdout)
    return path


@pytest.mark.parametrize("same", ["{}", "./{}", "link"])
def test_an_output_that_is_an_input_is_refused_before_any_work(
    same: str, saved: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "R.json"
    copy.write_text(saved.read_text())
    (tmp_path / "link").symlink_to(copy)
    target = str(tmp_path / same.format("R.json")) if same != "link" else str(tmp_path / "link")
    result = runner.invoke(app, ["conformance", "report", str(copy), "--html", target, "--json"])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["field"] == "--html"
    assert copy.read_text() == saved.read_text()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda e: e["summary"].__setitem__("pass", {}), "engines[0].summary.pass"),
        (lambda e: e["summary"].__setitem__("fail", ""), "engines[0].summary.fail"),
        (lambda e: e.__setitem__("summary", 5), "engines[0].summary"),
        (lambda e: e["coverage"].__setitem__("claimed", 1.5), "engines[0].coverage.claimed"),
        (lambda e: e["cases"][0].__setitem__("status", 7), "engines[0].cases[0].status"),
        (lambda e: e.pop("hello"), "engines[0].hello"),
    ],
)  # fmt: skip
def test_a_saved_report_that_breaks_its_schema_is_refused_naming_the_field(
    change: object, field: str, saved: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = json.loads(saved.read_text())
    change(report["engines"][0])  # type: ignore[operator]
    monkeypatch.chdir(tmp_path)
    Path("broken.json").write_text(json.dumps(report))
    result = runner.invoke(app, ["conformance", "report", "broken.json", "--json"])
    assert result.exit_code == 2, result.output
    assert f"broken.json: {field}: " in json.loads(result.stdout)["error"]["message"]


def test_the_schema_takes_the_reports_run_writes(saved: Path) -> None:
    assert problem(json.loads(saved.read_text())) is None


def test_serve_speaks_utf8_json_whatever_the_locale() -> None:
    """The protocol is UTF-8 (spec/protocol.md): in a C locale serve once read requests as
    ASCII (a request with `é` was "not UTF-8 text") and would write replies it cannot encode."""
    done = subprocess.run(
        [sys.executable, "-m", "dekal.conformance.serve"],
        input='{"id":2,"cmd":"score","grid":"é"}\n'.encode(), capture_output=True, timeout=120,
        env={**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"},
    )  # fmt: skip
    reply = json.loads(done.stdout.decode("ascii"))
    assert (reply["id"], reply["error"]["kind"]) == (2, "notation")
    assert "é" in reply["error"]["message"]
