"""docs/engine.md's Python examples run as doctests (its console examples are run, with every
other page's, by tests/docs/test_docs_examples.py)."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_python_examples_run() -> None:
    failures, attempted = doctest.testfile(
        str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS, raise_on_error=False
    )
    assert attempted > 10
    assert failures == 0
