"""What a run covers (conformance/cases/_needs.py, coverage.py, smoke.py): skipped cases are grouped
by the need they lack, the two headline figures follow their definitions in
docs/validate.md, and "What skipping costs" in the doc is the table the suite's data gives."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import dekal_ref
from dekal.conformance.cases._needs import Need, is_core, needs_of, smoke_cases, unmet_needs
from dekal.conformance.cases._vectors import Case, load_cases
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.judge._coverage import (
    claimed_coverage,
    core_coverage,
    costs_markdown,
    rule_coverage,
    skip_reasons,
    skipping_costs,
    twin_of,
)
from dekal.conformance.judge._runner import Outcome, Run

CASES = load_cases()
DOC = Path(__file__).resolve().parents[3] / "docs" / "validate.md"
EVERYTHING = ProtocolAdapter(dekal_ref).hello({})
CHOSEN_ONLY = ProtocolAdapter(
    dekal_ref, push_variants=("slide",), first_rules=("chosen",), features=()
).hello({})


def must(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [case for case in cases if case["level"] == "must"]


def pretend(info: dict[str, Any], status: str = "pass") -> Run:
    """A run of the whole suite with every claimed case given `status`, the rest skipped:
    coverage is arithmetic on outcomes, so no engine is needed to check it."""
    outcomes = [
        Outcome(case, "skip", message="") if unmet_needs(case, info) else Outcome(case, status)
        for case in CASES
    ]
    return Run("pretend", info, outcomes, cases=list(CASES))


def test_needs_are_read_in_order_and_player_counts_outside_m2_are_not_needs() -> None:
    game = next(case for case in CASES if case["id"] == "game-0001")
    assert [str(n) for n in needs_of(game)] == ["players: 2", "push: slide", "first: lowest"]
    seven = next(case for case in CASES if case["id"] == "M2-neg-0002")
    assert Need("players", "7") not in needs_of(seven)


def test_eject_lowest_and_features_are_optional_players_slide_and_chosen_are_not() -> None:
    optional = {Need("push", "eject"), Need("first", "lowest"), Need("feature", "match")}
    assert all(need.optional for need in optional)
    required = (Need("players", "5"), Need("push", "slide"), Need("first", "chosen"))
    assert not any(need.optional for need in required)


def test_a_case_that_needs_lowest_without_testing_f1_or_f2_is_core() -> None:
    by_id = {case["id"]: case for case in CASES}
    assert Need("first", "lowest") in needs_of(by_id["T1-neg-0002"])
    assert is_core(by_id["T1-neg-0002"])  # a T1 refusal: the lowest-card rule is incidental
    assert not is_core(by_id["F1-neg-0001"])  # an F1 refusal depends on the lowest-card rule
    assert not is_core(by_id["perft-0005"])  # a perft case depends on perft
    assert not any(is_core(case) for case in CASES if "P2" in case["rules"])


def test_an_engine_that_claims_everything_and_passes_has_full_coverage() -> None:
    run = pretend(EVERYTHING)
    assert claimed_coverage(run).ratio == 1.0 and core_coverage(run).ratio == 1.0
    assert skip_reasons(run) == {}


def test_a_chosen_only_engine_sees_its_skips_grouped_by_need() -> None:
    run = pretend(CHOSEN_ONLY)
    lowest = sum(Need("first", "lowest") in needs_of(case) for case in CASES)
    assert skip_reasons(run)["needs first: lowest (not claimed)"] == lowest
    rows = rule_coverage(run)
    assert rows["F1"].claimed == 0 and rows["F1"].skipped["first: lowest"] == rows["F1"].cases
    assert rows["P2"].run == 0 and rows["S1"].passed == rows["S1"].claimed > 0


def test_must_level_coverage_is_must_cases_passed_over_must_cases_claimed() -> None:
    run = pretend(CHOSEN_ONLY)
    claimed = [case for case in must(CASES) if not unmet_needs(case, CHOSEN_ONLY)]
    assert (claimed_coverage(run).count, claimed_coverage(run).of) == (len(claimed), len(claimed))
    failing = pretend(CHOSEN_ONLY, status="fail")
    assert claimed_coverage(failing).count == 0 and claimed_coverage(failing).of == len(claimed)


def checks(cases: list[Case]) -> set[frozenset[str]]:
    """Cases grouped into checks: a case alone, or with its twin under the other first rule."""
    ids = {str(case["id"]) for case in cases}
    twins = twin_of()
    return {frozenset({i, twins[i]} & ids if twins.get(i) in ids else {i}) for i in ids}


def test_core_coverage_is_core_must_checks_run_over_core_must_checks() -> None:
    run = pretend(CHOSEN_ONLY)
    core = [case for case in must(CASES) if is_core(case)]
    run_ids = {str(case["id"]) for case in core if not unmet_needs(case, CHOSEN_ONLY)}
    every = checks(core)
    figure = core_coverage(run)
    assert (figure.count, figure.of) == (sum(bool(c & run_ids) for c in every), len(every))
    # the twins are what keep an engine with one first-player rule judged on every check
    assert figure.count / figure.of >= 0.95
    # a failure still counts as run: core coverage says what was judged, not how it went
    assert core_coverage(pretend(CHOSEN_ONLY, status="fail")).count == figure.count


def test_claiming_fewer_players_costs_core_coverage() -> None:
    two_to_four = {**CHOSEN_ONLY, "players": [2, 3, 4]}
    assert core_coverage(pretend(two_to_four)).count < core_coverage(pretend(CHOSEN_ONLY)).count


def test_not_claiming_eject_loses_p2_and_lowest_loses_f1_and_thins_f2() -> None:
    """F2 keeps one case a chosen-only engine runs: a position with removed cards under the
    chosen rule, refused with F2 (suite v3, position-0305)."""
    costs = {str(cost.need): cost for cost in skipping_costs(CASES)}
    assert costs["push: eject"].lost == ("P2",)
    assert set(costs["first: lowest"].lost) == {"F1"}
    assert [rule for rule, _, _ in costs["first: lowest"].thinned].count("F2") == 1
    assert costs["push: eject"].skipped == sum(
        Need("push", "eject") in needs_of(case) for case in must(CASES)
    )


def test_the_doc_shows_what_skipping_costs_as_the_suite_computes_it() -> None:
    text = DOC.read_text("utf-8")
    found = re.search(r"<!-- costs -->\n(.*?)\n<!-- /costs -->", text, re.DOTALL)
    assert found, "docs/validate.md needs the table between <!-- costs --> and <!-- /costs -->"
    assert found.group(1) == costs_markdown(CASES), (
        "regenerate it with: python -m dekal.conformance.judge._coverage"
    )


def test_smoke_touches_every_rule_and_kind_the_suite_does_with_few_cases() -> None:
    chosen = smoke_cases(CASES, EVERYTHING)
    pairs = {(rule, case["kind"]) for case in CASES for rule in case["rules"]}
    assert {(rule, case["kind"]) for case in chosen for rule in case["rules"]} == pairs
    assert len(chosen) < len(CASES) // 20


def test_smoke_prefers_cases_the_engine_claims() -> None:
    chosen = smoke_cases(CASES, CHOSEN_ONLY)
    claimed_pairs = {
        (rule, case["kind"])
        for case in CASES
        if not unmet_needs(case, CHOSEN_ONLY)
        for rule in case["rules"]
    }
    covered = {
        (rule, case["kind"])
        for case in chosen
        if not unmet_needs(case, CHOSEN_ONLY)
        for rule in case["rules"]
    }
    assert covered == claimed_pairs
