"""The suite's power: every plausible misreading of one rule (tests/misreadings.py), planted
alone in the reference, fails `dekal conformance run`; the correct reference passes."""

from __future__ import annotations

import pytest
from misreadings import MISREADINGS, Misreading

import dekal_ref
from dekal.conformance.client import InProcessEngine
from dekal.conformance.runner import Run, run_suite
from dekal.conformance.vectors import load_cases

CASES = load_cases()

# Misreadings that suite v1 lets through (issue 8); each mark goes when a vector catches it.
MISSED_BY_V1 = {
    "dense-places",
    "match-ties-by-cards",
    "seven-players",
    "removed-kept",
    "notation-as-bad-request",  # v1 checks notation refusals at level should only
}


def _marked(misread: Misreading) -> object:
    if misread.name in MISSED_BY_V1:
        reason = "suite v1 has no case for this class"
        return pytest.param(misread, marks=pytest.mark.xfail(strict=True, reason=reason))
    return misread


def run_reference() -> Run:
    engine = InProcessEngine(lambda: dekal_ref, "misread-ref", timeout=30)
    try:
        return run_suite(engine, CASES, timeout=30)
    finally:
        engine.close()


def test_the_reference_itself_passes_every_case() -> None:
    assert run_reference().unexpected == []


@pytest.mark.parametrize(
    "misread", [_marked(m) for m in MISREADINGS], ids=lambda m: f"{m.rule}-{m.name}"
)
def test_the_suite_fails_an_engine_that_misreads_one_rule(
    misread: Misreading, monkeypatch: pytest.MonkeyPatch
) -> None:
    misread.plant(monkeypatch)
    failing = run_reference().unexpected
    assert failing, f"no case fails an engine where {misread.what} ({misread.rule})"
