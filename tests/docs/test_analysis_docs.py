"""docs/analysis.md: the page shows advise and play sessions, and its Python examples run as
doctests (its console examples are run, with every other page's, by
tests/docs/test_docs_examples.py)."""

from __future__ import annotations

import doctest

from support.doc_pages import ROOT, examples

PAGE = ROOT / "docs" / "analysis.md"


def test_the_page_shows_advise_and_play_sessions() -> None:
    commands = [e.command.split(" | ")[-1].split()[1] for e in examples(PAGE)]
    assert commands.count("advise") >= 5
    assert "play" in commands


def test_the_python_examples_run() -> None:
    failures, attempted = doctest.testfile(str(PAGE), module_relative=False)
    assert attempted >= 5
    assert failures == 0
