"""docs/engine.md's examples are real: its Python blocks run as doctests, its console blocks
run through the CLI and must print what the page shows."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dekal.cli.app import app

PAGE = Path(__file__).resolve().parent.parent / "docs" / "engine.md"
CONSOLE = re.compile(r"^```\n\$ (dekal .+)\n((?:(?!```).*\n)*?)```", re.MULTILINE)


def test_python_examples_run() -> None:
    failures, attempted = doctest.testfile(
        str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS, raise_on_error=False
    )
    assert attempted > 10
    assert failures == 0


@pytest.mark.parametrize(("command", "expected"), CONSOLE.findall(PAGE.read_text(encoding="utf-8")))
def test_console_examples_print_what_the_page_shows(command: str, expected: str) -> None:
    result = CliRunner().invoke(app, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    assert result.stdout == expected
