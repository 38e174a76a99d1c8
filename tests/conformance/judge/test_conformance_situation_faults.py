"""Faults planted in the situations suite v3 never reached (issue 27,
tests/miniatures/planted_issue27.py): each is caught by the suite and every failure it causes
is blamed on the rule it breaks, not on the fields that follow from it."""

from __future__ import annotations

import pytest
from miniatures.planted_issue27 import FAULTS

from dekal.conformance.cases._own_deal import needs_a_deal
from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.judge import _case_run
from dekal.conformance.judge._refusal_sites import DirectReference
from dekal.conformance.judge._runner import Run, run_suite

CASES = load_cases()

DEFAULT_RUN = {
    "a short pile serves the seats it can",
    "three sharing a place count as two",
    "the start moves at scoring",
    "own deal: a new round dealt face up",
}
"""Faults judged in the default run on the cases of their rule (one of each kind: the first
player, the ranking, the start, an own deal); every fault is judged on the whole suite under
the deep profile (and by bench/blame.py)."""


PLAYED_ON = (
    "own deal: the lowest card takes first in rounds it deals",
    "own deal: ties draw from the bottom of its own pile",
)
"""Own-deal faults in how the engine plays what it dealt (its deal itself is the rules'):
only a game played on from the engine's own deal shows them (judge/_play_on.py)."""


def dealing_games(rule: str) -> list[dict[str, object]]:
    """The twelve shortest game cases of `rule` that deal (a new game or a new round): the
    ones an own-deal engine plays on from its own deal."""
    games = [c for c in CASES if c["kind"] == "game" and needs_a_deal(c) and rule in c["rules"]]
    return sorted(games, key=lambda case: len(case["steps"]))[:12]


def judged(factory: object, cases: list[dict[str, object]]) -> Run:
    return run_suite(DirectReference(factory), cases)  # type: ignore[arg-type]


def caught_and_blamed(fault: str, cases: list[dict[str, object]]) -> None:
    factory, rule = FAULTS[fault]
    run = judged(factory, cases)
    failed = [o for o in run.outcomes if o.status in ("fail", "error")]
    assert failed, f"the suite did not catch {fault!r}"
    blamed = {o.id: str(o.blame) for o in failed if o.blame is None or o.blame.rule != rule}
    assert blamed == {}, f"{fault!r} is planted in {rule}"


@pytest.mark.parametrize("fault", sorted(DEFAULT_RUN))
def test_a_fault_in_an_unreached_situation_fails_the_cases_of_its_rule_on_that_rule(
    fault: str,
) -> None:
    rule = FAULTS[fault][1]
    caught_and_blamed(fault, [case for case in CASES if rule in case["rules"]])


@pytest.mark.deep
@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_fault_in_an_unreached_situation_is_caught_and_blamed_on_its_rule(fault: str) -> None:
    caught_and_blamed(fault, CASES)


@pytest.mark.parametrize("fault", PLAYED_ON)
def test_own_deal_a_fault_in_playing_its_own_deal_is_caught_by_playing_on_and_blamed_on_its_rule(
    fault: str,
) -> None:
    caught_and_blamed(fault, dealing_games(FAULTS[fault][1]))


@pytest.mark.parametrize("fault", PLAYED_ON)
def test_own_deal_a_fault_in_playing_its_own_deal_passes_when_the_case_is_only_reloaded(
    fault: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # what the runner did before issue 27's play-on: the case's position loaded after the deal
    monkeypatch.setattr(_case_run, "played_on", lambda *_: [])
    factory, rule = FAULTS[fault]
    run = judged(factory, dealing_games(rule))
    assert {o.status for o in run.outcomes} == {"pass"}
