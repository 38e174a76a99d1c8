"""Faults planted in the situations suite v3 never reached (issue 27,
tests/miniatures/planted_issue27.py): each is caught by the suite and every failure it causes
is blamed on the rule it breaks, not on the fields that follow from it."""

from __future__ import annotations

import pytest
from miniatures.planted_issue27 import FAULTS

from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.drive._direct_engine import DirectEngine
from dekal.conformance.judge._runner import Run, run_suite

CASES = load_cases()

DEFAULT_RUN = {
    "a short pile serves the seats it can",
    "three sharing a place count as two",
    "the start moves at scoring",
    "own deal: a new round dealt face up",
}
"""The faults whose whole-suite run is in the default run (one of each kind: the first
player, the ranking, the start, an own deal); the others run under the deep profile."""


def judged(factory: object) -> Run:
    with DirectEngine(factory, "planted", wire=False) as engine:  # type: ignore[arg-type]
        return run_suite(engine, CASES)


@pytest.mark.parametrize(
    "fault",
    [pytest.param(f, marks=[] if f in DEFAULT_RUN else [pytest.mark.deep]) for f in FAULTS],
)
def test_a_fault_in_an_unreached_situation_is_caught_and_blamed_on_its_rule(fault: str) -> None:
    factory, rule = FAULTS[fault]
    run = judged(factory)
    failed = [o for o in run.outcomes if o.status in ("fail", "error")]
    assert failed, f"the suite did not catch {fault!r}"
    blamed = {o.id: str(o.blame) for o in failed if o.blame is None or o.blame.rule != rule}
    assert blamed == {}, f"{fault!r} is planted in {rule}"
