"""docs/puzzles.md: the page asks every kind of question, and its Python examples run as
doctests (its console examples are run, with every other page's, by
tests/docs/test_docs_examples.py, which blurs solve times and replays Z3's witnesses)."""

from __future__ import annotations

import doctest
import re

from support.doc_pages import ROOT, examples

DOC = ROOT / "docs" / "puzzles.md"
PYCON = re.compile(r"^```pycon\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def test_the_guide_has_examples_of_every_question() -> None:
    commands = [e.command for e in examples(DOC)]
    for option in ("--json", "--check", "--at-most", "--reach", "--rank", "--solo", "eject"):
        assert option in " ".join(commands)
    assert any(command.startswith("dekal prove") for command in commands)


def test_python_examples() -> None:
    blocks = PYCON.findall(DOC.read_text(encoding="utf-8"))
    assert blocks
    parser = doctest.DocTestParser()
    doc_runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        doc_runner.run(parser.get_doctest(block, {}, f"puzzles-{number}", str(DOC), 0))
    assert doc_runner.summarize(verbose=False).failed == 0
