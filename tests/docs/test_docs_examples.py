"""Every console example of every Markdown page is run and prints what the page shows.

The examples are found, and their outputs compared, by the rule of tests/support/doc_pages.py (a
`$ ` line in a fenced block; the output in full; a `…` line for omitted lines, a `…` in a line
for omitted text; `<!-- deep -->` before a heavy block). A new page is covered without a test.

How a command runs: `dekal ARGS` in-process through click's CliRunner (cheap); a pipeline
`SHELL | dekal ARGS` runs its shell part for standard input; any other command (`node …`)
runs in a shell. The working folder is the repository root, the environment's `PATH` starts
with this interpreter's folder (so `python` and `dekal` in an example are this install's).

Exit codes: an output with an `error:` line exits 2; any other exits 0 or 1 (a negative
verdict), never with an uncaught exception.

The per-page settings below are the only exceptions, each with its reason.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support.doc_pages import (
    ROOT,
    Example,
    difference,
    examples,
    fenced_blocks,
    files_used,
    first_difference,
    pages,
    saved_files,
    shows,
)
from typer.testing import CliRunner

from dekal.cli._app import app

Normalize = Callable[[str, list[str]], str]


@dataclass(frozen=True)
class Setting:
    """What one page needs besides the defaults, and why."""

    reason: str
    # files to write into a fresh working folder (name -> the info string of the page's block
    # whose text is the file); the examples then run there instead of the repository root
    files: dict[str, str] = field(default_factory=dict)
    # rewrites both the page's output and the command's before they are compared
    normalize: Normalize | None = None
    # the page is followed top to bottom in one fresh folder: each file it says to save
    # ("Save this as `NAME`", tests/support/doc_pages.py) is written when the page shows it, and its
    # examples run there in page order
    in_order: bool = False


TIMES = re.compile(r"\b[\d,]+(?:\.\d+)? s\b")


def blurred_time(found: re.Match[str]) -> str:
    """A time as the tool prints it (dekal.cli._rates.duration: three significant figures)
    becomes `… s`; a time written another way (`0.00 s`, `0.12 s`) stays, and so differs."""
    from dekal.cli._rates import significant

    number = found.group(0).removesuffix(" s")
    return "… s" if significant(float(number.replace(",", ""))) == number else found.group(0)


def blur_puzzle_outputs(output: str, command: list[str]) -> str:
    """docs/puzzles.md: the solve time (`0.0900 s` as printed, `"seconds":0.09`) becomes `…`;
    a Z3 answer's moves are replayed on the reference engine and must reach the score
    printed beside them. Nothing else is blurred: Z3's witness, like every method's, is the
    smallest optimal one in move order (proofs._smallest), compared as the page writes it."""
    lines = []
    for line in tidy_lines(output):
        if line.startswith("{"):
            line = json.dumps(
                _blur_json(json.loads(line), command), separators=(",", ":"), ensure_ascii=False
            )
        lines.append(TIMES.sub(blurred_time, line))
    return "\n".join(lines)


def tidy_lines(output: str) -> list[str]:
    return [line.rstrip() for line in output.strip("\n").splitlines()]


def _blur_json(payload: object, command: list[str]) -> object:
    if isinstance(payload, list):
        return [_blur_json(item, command) for item in payload]
    if not isinstance(payload, dict):
        return payload
    copy = {k: "…" if k == "seconds" else _blur_json(v, command) for k, v in payload.items()}
    if payload.get("method") == "z3" and "moves" in payload:  # compared as written, too:
        # every method prints the smallest optimal witness in move order (proofs._smallest)
        assert _replays(command, payload), f"a Z3 witness does not reach its score: {payload}"
    return copy


def _replays(command: list[str], answer: dict[str, object]) -> bool:
    from dekal.cli._solver.solve import build_puzzle
    from dekal.proofs._replay import replay
    from dekal.proofs.puzzle import Move
    from dekal_ref.notation import parse_cell, parse_push

    options = dict(zip(command[2::2], command[3::2], strict=False))
    puzzle = build_puzzle(
        command[1],
        options.get("--incoming"),
        "--solo" in command,
        options.get("--face-down"),
        int(options["--turns"]) if "--turns" in options else None,
        options.get("--variant", "slide"),
    )
    moves = [
        Move(parse_cell(str(m["reveal"])), parse_push(str(m["push"])))
        for m in answer["moves"]  # type: ignore[attr-defined]
    ]
    return replay(puzzle, moves).points == answer["score"]


SETTINGS: dict[str, Setting] = {
    "docs/validate.md": Setting(
        reason="a reader follows it from an empty folder: its examples run the page's own "
        "Python engine and read the --expect files it says to save, and write report.html "
        "and badge.svg",
        in_order=True,
    ),
    "docs/puzzles.md": Setting(
        reason="solve times vary",
        normalize=blur_puzzle_outputs,
    ),
}

# How many examples each page runs only under the deep profile (`<!-- deep -->`): a new deep
# mark must be counted here, so heavy examples stay few and visible.
DEEP: dict[str, int] = {
    "docs/puzzles.md": 1,  # a Z3 race on four incoming cards (~40 s on a loaded machine)
    # the whole suite (twice: under the harness, and run-vectors.mjs, which docs/vectors.md's
    # first example runs by default), 100 fuzz games, a timed shrink
    "examples/engines/js/README.md": 5,
}

# The examples another test module runs on another install (`<!-- run by tests/….py -->`).
RUN_ELSEWHERE = {("README.md", "tests/cli/test_core_install.py")}  # an extra missing: core only

EXAMPLES = [example for page in pages() for example in examples(page)]
runner = CliRunner()


def test_the_pages_show_console_examples() -> None:
    assert len(EXAMPLES) >= 60
    assert {e.page for e in EXAMPLES} >= {"README.md", "docs/guide.md", "docs/validate.md"}


def test_the_deep_examples_are_the_ones_counted() -> None:
    assert dict(Counter(e.page for e in EXAMPLES if e.deep)) == DEEP


def test_the_examples_run_elsewhere_are_the_ones_counted() -> None:
    assert {(e.page, e.run_by) for e in EXAMPLES if e.run_by} == RUN_ELSEWHERE


def test_every_page_setting_names_a_page_that_shows_examples() -> None:
    assert set(SETTINGS) <= {e.page for e in EXAMPLES}


class FollowedPages:
    """One fresh folder per page followed in order (Setting.in_order), kept for the module:
    the examples run in page order, so each finds what the page has shown and done above it."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self.factory = factory
        self.folders: dict[str, Path] = {}

    def folder(self, example: Example) -> Path:
        if example.page not in self.folders:
            self.folders[example.page] = self.factory.mktemp("followed")
        folder = self.folders[example.page]
        for line, name, text in saved_files(ROOT / example.page):
            if line < example.line:
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                (folder / name).write_text(text, encoding="utf-8")
        return folder


@pytest.fixture(scope="module")
def followed(tmp_path_factory: pytest.TempPathFactory) -> FollowedPages:
    return FollowedPages(tmp_path_factory)


def test_every_file_an_example_uses_is_saved_above_it() -> None:
    """On a page followed in order, a command that reads a file of the working folder (a
    --python module, an --expect file) comes after the block that says to save it."""
    late = []
    for page in (name for name, setting in SETTINGS.items() if setting.in_order):
        saved = saved_files(ROOT / page)
        for example in (e for e in EXAMPLES if e.page == page):
            above = {name for line, name, _ in saved if line < example.line}
            late += [
                f"{example.where}: {name}"
                for name in files_used(example.command)
                if name not in above
            ]
    assert late == [], "used before the page says to save them (Save this as `NAME`)"


def prepare(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, followed: FollowedPages
) -> Setting:
    setting = SETTINGS.get(example.page, Setting(reason="defaults"))
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    if setting.in_order:
        monkeypatch.chdir(followed.folder(example))
        return setting
    if not setting.files:
        monkeypatch.chdir(ROOT)
        return setting
    blocks = fenced_blocks((ROOT / example.page).read_text(encoding="utf-8"))
    for name, info in setting.files.items():
        (source,) = [block for block in blocks if block.info == info]
        (tmp_path / name).write_text("\n".join(source.lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return setting


def run(command: str) -> tuple[int, str]:
    """Exit code and what a terminal shows for one example's command."""
    feed, bar, last = command.rpartition(" | ")
    args = shlex.split(last)
    if args[0] != "dekal":
        program = shlex.split(command)[0]
        if shutil.which(program) is None:
            pytest.skip(f"{program} is not installed")
        done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=600)
        return done.returncode, done.stdout + done.stderr
    stdin = None
    if bar:
        stdin = subprocess.run(
            feed, shell=True, capture_output=True, text=True, check=True, timeout=60
        ).stdout
    result = runner.invoke(app, args[1:], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


RAN: dict[tuple[str, str], tuple[int, str]] = {}
"""The exit code and output of each command run here, by command and working folder."""


@pytest.mark.parametrize(
    "example",
    [
        pytest.param(
            e, id=f"{e.where} {e.command[:50]}", marks=[pytest.mark.deep] if e.deep else []
        )
        for e in EXAMPLES
    ],
)
def test_console_example(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, followed: FollowedPages
) -> None:
    if example.run_by is not None:
        module = (ROOT / example.run_by).read_text(encoding="utf-8")
        assert f"$ {example.command}" in module, (
            f"{example.where}: {example.run_by} does not run it"
        )
        return
    setting = prepare(example, tmp_path, monkeypatch, followed)
    # two pages showing the same command from the same folder (the JS runner's whole-suite
    # run is on two) are shown one run of it: its output does not depend on the page
    ran = (example.command, os.getcwd())
    if ran not in RAN:
        RAN[ran] = run(example.command)
    code, output = RAN[ran]
    expected = example.expected
    if setting.normalize is not None:
        args = shlex.split(example.command)[1:]
        output, expected = setting.normalize(output, args), setting.normalize(expected, args)
    shown = Example(example.page, example.line, example.command, expected, example.deep)
    if not shows(expected, output):
        pytest.fail(difference(shown, output), pytrace=False)
    refused = any(line.startswith("error:") for line in expected.splitlines())
    assert code == 2 if refused else code in (0, 1), (
        f"{example.where}: `$ {example.command}` exits {code}"
    )


def example(expected: str) -> Example:
    return Example("docs/page.md", 10, "dekal x", expected, deep=False)


def test_a_line_of_dots_stands_for_omitted_lines_and_a_dot_in_a_line_for_text() -> None:
    assert shows("a\n…\nd", "a\nb\nc\nd\n")
    assert shows("a\n…\nd", "a\nd")
    assert shows("took … s", "took 0.25 s")
    assert not shows("took … s", "took 0.25 s\nmore")
    assert not shows("a\nd", "a\nb\nd")


def test_a_difference_names_the_page_line_that_differs() -> None:
    assert first_difference(example("a\n…\nd\ne"), "a\nb\nd\nx\n") == (
        "docs/page.md:14: the page shows 'e' here"
    )
    assert "docs/page.md:11: the output goes on" in first_difference(example("a"), "a\nb")


def test_a_time_is_blurred_only_when_written_as_the_tool_prints_it() -> None:
    """docs/puzzles.md showed `0.00 s` and `0.12 s` where solve prints three significant
    figures (issue 26): such a time is left as written, and the example differs."""
    assert blur_puzzle_outputs("proved, 0.0120 s; 142 s", []) == "proved, … s; … s"
    assert blur_puzzle_outputs("proved, 0.00 s; 0.12 s", []) == "proved, 0.00 s; 0.12 s"
