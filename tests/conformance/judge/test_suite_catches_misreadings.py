"""The suite's power: every plausible misreading of one rule (tests/miniatures/misreadings.py),
planted alone in the reference, fails `dekal conformance run`."""

from __future__ import annotations

import pytest
from miniatures import misreadings_issue18  # noqa: F401  (registers issue 18's misreadings)
from miniatures.misreadings import MISREADINGS, Misreading

import dekal_ref
from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.drive._direct_engine import DirectEngine
from dekal.conformance.judge._runner import Run, run_suite

CASES = load_cases()


def run_reference(first: str | None = None) -> Run:
    """The suite on the reference as it is now, up to its first unexpected outcome (the
    question is whether any case fails; the rest of the run would not change the answer).
    The cases of rule `first` run first, the shortest first: the order of the cases cannot
    change whether one fails, only how soon a misreading of that rule is seen."""
    cases = sorted(CASES, key=lambda case: (first not in case["rules"], len(case.get("steps", []))))
    # 5 s a request: a misreading can make perft or a game far longer (a hang is a failure
    # too); in this thread, as our bundled engines are driven (a misreading is Python code)
    engine = DirectEngine(lambda: dekal_ref, "misread-ref", timeout=5)
    try:
        return run_suite(engine, cases, timeout=5, fail_fast=True)
    finally:
        engine.close()


# That the unchanged reference passes every case (without which a failure here would say
# nothing) is checked by test_conformance_refusal_sites: its whole-suite run on the reference
# raises on any case that does not pass.


@pytest.mark.parametrize("misread", MISREADINGS, ids=lambda m: f"{m.rule}-{m.name}")
def test_the_suite_fails_an_engine_that_misreads_one_rule(
    misread: Misreading, monkeypatch: pytest.MonkeyPatch
) -> None:
    misread.plant(monkeypatch)
    failing = run_reference(first=misread.rule).unexpected
    assert failing, f"no case fails an engine where {misread.what} ({misread.rule})"
