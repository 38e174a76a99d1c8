"""docs/simulate.md's examples are real: its Python blocks run as doctests, its console blocks
run through the CLI and print what the page shows ('...' stands for the time it took). The
cluster commands of its `sh` block are run by tests/test_simulate_cluster.py."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dekal.cli.app import app

PAGE = Path(__file__).resolve().parent.parent / "docs" / "simulate.md"
CONSOLE = re.compile(r"^```\n\$ (dekal .+)\n((?:(?!```).*\n)*?)```", re.MULTILINE)


def test_python_examples_run() -> None:
    failures, attempted = doctest.testfile(
        str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS, raise_on_error=False
    )
    assert attempted >= 8
    assert failures == 0


@pytest.mark.parametrize(("command", "expected"), CONSOLE.findall(PAGE.read_text(encoding="utf-8")))
def test_console_examples_print_what_the_page_shows(command: str, expected: str) -> None:
    result = CliRunner().invoke(app, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    checker = doctest.OutputChecker()
    assert checker.check_output(expected, result.stdout, doctest.ELLIPSIS), result.stdout
