"""docs/analysis.md: every `$ dekal …` example (and `printf … | dekal play …`) is run as
written and must print exactly what the page shows (advise's answers are reproducible: the
same position, seat, samples, seed and model give the same figures); its Python examples run
as doctests."""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dekal.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "analysis.md"
CONSOLE = re.compile(r"^( *)```console\n(.*?)^\1```[ \t]*$", re.MULTILINE | re.DOTALL)
runner = CliRunner()


def examples(text: str) -> list[tuple[str, str]]:
    """(command, expected output) for every `$ …` line of the page's console blocks (a block
    indented in a list item is read without its indent)."""
    found: list[tuple[str, str]] = []
    for block in CONSOLE.finditer(text):
        indent = len(block.group(1))
        body = "".join(line[indent:] for line in block.group(2).splitlines(keepends=True))
        for chunk in body.split("$ ")[1:]:
            command, _, output = chunk.partition("\n")
            found.append((command, output))
    return found


EXAMPLES = examples(PAGE.read_text(encoding="utf-8"))


def run(command: str) -> tuple[int, str]:
    """`dekal ARGS`, or `SHELL-COMMAND | dekal ARGS` (the shell part feeds standard input)."""
    feed, bar, line = command.rpartition(" | ")
    stdin = None
    if bar:
        stdin = subprocess.run(
            feed, shell=True, cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    args = shlex.split(line)
    assert args[0] == "dekal", command
    result = runner.invoke(app, args[1:], input=stdin)
    return result.exit_code, result.stdout


def test_the_page_shows_advise_and_play_sessions() -> None:
    commands = [command.split(" | ")[-1].split()[1] for command, _ in EXAMPLES]
    assert commands.count("advise") >= 5
    assert "play" in commands


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_each_example_prints_what_the_page_shows(command: str, expected: str) -> None:
    code, shown = run(command)
    assert code == 0, shown
    assert shown == expected


def test_the_python_examples_run() -> None:
    failures, attempted = doctest.testfile(str(PAGE), module_relative=False)
    assert attempted >= 5
    assert failures == 0
