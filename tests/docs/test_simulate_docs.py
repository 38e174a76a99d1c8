"""docs/simulate.md's Python blocks run as doctests (its console examples are run, with every
other page's, by tests/docs/test_docs_examples.py; the cluster commands of its `sh` block by
tests/simulation/test_simulate_cluster.py)."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "simulate.md"


def test_python_examples_run() -> None:
    failures, attempted = doctest.testfile(
        str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS, raise_on_error=False
    )
    assert attempted >= 8
    assert failures == 0
