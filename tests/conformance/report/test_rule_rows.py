"""What a report says about each rule, and its verdict line (dekal.conformance.report._rule_rows).

A rule is never shown passing while a case covering it fails ("n fail, blamed on other
rules"); a rule nothing ran under says "not run"; only failures that fail the run break a
rule; the verdict names the broken rules; failures are listed first of each rule first.
Checked on small reports written here and on the whole-suite run of a broken JS build.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dekal.conformance.report._rule_rows import first_of_each_rule, rule_rows, verdict_line
from dekal.conformance.report._rule_titles import rule_titles, titled

ROOT = Path(__file__).resolve().parents[3]


def case(
    case_id: str, status: str, rules: list[str], blamed: str | None = None, level: str = "must"
) -> dict[str, Any]:
    """One case of a report as run_json writes it (counted under its blamed rule if any)."""
    return {
        "id": case_id,
        "status": status,
        "level": level,
        "rules": rules,
        "rule": blamed,
        "counted_under": [blamed] if blamed else rules,
    }


def rows(*cases: dict[str, Any], strict: bool = False) -> dict[str, Any]:
    return {row.rule: row for row in rule_rows({"cases": list(cases), "strict": strict})}


def test_a_rule_whose_cases_fail_blamed_elsewhere_is_not_shown_passing() -> None:
    row = rows(
        case("game-1", "pass", ["M4", "T5"]),
        case("game-2", "fail", ["M4", "T5"], blamed="T5"),
        case("game-3", "fail", ["M4", "T5"], blamed="T5"),
    )["M4"]
    assert (row.counts["pass"], row.counts["fail"], row.elsewhere) == (1, 0, 2)
    assert row.state == "elsewhere" and row.note == "2 fail, blamed on other rules"


def test_a_rule_nothing_ran_under_says_not_run() -> None:
    found = rows(case("match-1", "skip", ["S4"]), case("score-1", "pass", ["S1"]))
    assert found["S4"].state == "not run" and found["S4"].note == "not run"
    assert found["F4"].state == "not run"  # no case at all
    assert found["S1"].state == "pass"


def test_a_rule_whose_covering_cases_all_fail_elsewhere_ran() -> None:
    row = rows(case("game-1", "fail", ["T2", "T5"], blamed="T5"))["T2"]
    assert row.state == "elsewhere" and "not run" not in row.note


def test_only_must_failures_break_a_rule_unless_strict() -> None:
    lenient = case("B1-neg-1", "fail", ["B1"], blamed="B1", level="should")
    assert rows(lenient)["B1"].state == "should"
    assert rows(lenient, strict=True)["B1"].state == "broken"


def test_the_verdict_names_the_broken_rules_in_rule_order() -> None:
    report = {
        "cases": [
            case("score-1", "fail", ["S1"], blamed="S1"),
            case("game-1", "fail", ["T5", "S1"], blamed="T5"),
            case("game-2", "error", ["B1"], blamed="B1"),
            case("B1-neg-1", "fail", ["B1"], blamed="B1", level="should"),
            case("score-2", "pass", ["S1"]),
        ]
    }
    assert verdict_line(report) == "FAIL: 3 rules broken, 3 cases (must) — T5, S1, B1"


def test_a_passing_run_says_pass_and_what_it_did_not_count() -> None:
    report = {"cases": [case("score-1", "pass", ["S1"]), case("match-1", "skip", ["S4"])]}
    assert verdict_line(report) == "PASS: 2 cases (1 skipped)"
    assert verdict_line({"cases": [case("score-1", "pass", ["S1"])]}) == "PASS: 1 case"


def test_the_first_failure_of_each_rule_comes_before_the_second_of_any() -> None:
    failing = [
        case("s-1", "fail", ["S1"], "S1"),
        case("s-2", "fail", ["S1"], "S1"),
        case("b-1", "fail", ["B1"], "B1", level="should"),
        case("t-1", "fail", ["T5"], "T5"),
        case("s-3", "fail", ["S1"], "S1"),
        case("t-2", "fail", ["T5"], "T5"),
    ]
    assert [c["id"] for c in first_of_each_rule(failing)] == [
        "s-1", "t-1", "s-2", "t-2", "s-3", "b-1",
    ]  # fmt: skip


def test_rule_titles_are_read_from_the_headings_of_rules_md() -> None:
    text = (ROOT / "spec" / "rules.md").read_text("utf-8")
    headed = re.findall(r"^### ([MTPFSB]\d)\. (.+)$", text, re.MULTILINE)
    assert list(rule_titles()) == [rule for rule, _ in headed] and len(headed) == 21
    assert titled("S1") == "S1 " + dict(headed)["S1"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_on_a_broken_build_no_rule_covering_a_failure_is_shown_passing(
    js_suite_run: Callable[[str], dict[str, object]],
) -> None:
    (engine,) = json.loads(str(js_suite_run("token-right")["stdout"]))["engines"]
    failing_rules = {
        rule for c in engine["cases"] if c["status"] in ("fail", "error") for rule in c["rules"]
    }
    shown = {row.rule: row.state for row in rule_rows(engine)}
    assert failing_rules and all(shown[rule] != "pass" for rule in failing_rules)
    assert verdict_line(engine).startswith("FAIL: 1 rule broken, ")
