"""Every `must` case is decided by a section of the spec (issue 27; test262's `esid`):
its anchor exists, and states the rule ID or the error kind the case expects."""

from __future__ import annotations

from dekal.conformance import load_cases
from dekal.conformance.cases._anchors import anchor_of, rule_section, undecided


def test_every_must_case_of_the_default_suite_is_decided_at_its_anchor() -> None:
    cases = [case for case in load_cases() if case.get("level") == "must"]
    assert [(case["id"], undecided(case)) for case in cases if undecided(case)] == []


def test_a_position_refusal_is_anchored_at_the_protocols_position_section() -> None:
    case = {"kind": "setup", "rules": ["T5"], "setup": {"position": "…"},
            "expect": {"ok": False, "rule": "T5"}}  # fmt: skip
    assert anchor_of(case) == "spec/protocol.md#new_game-from-a-position-feature-position"


def test_a_rule_is_anchored_at_its_own_section_of_the_rules() -> None:
    assert rule_section("T5") == "spec/rules.md#t5-end-of-turn-end-of-round"


def test_an_expectation_its_anchor_does_not_state_is_undecided() -> None:
    """A set-up refused with S3 is nowhere in `new_game`'s precedence list: not decided."""
    case = {"kind": "setup", "rules": ["S3"], "setup": {"deal": {}},
            "expect": {"ok": False, "kind": "illegal", "rule": "S3"}}  # fmt: skip
    assert undecided(case) == "spec/protocol.md#new_game does not state S3"


def test_an_anchor_that_is_no_section_is_undecided() -> None:
    case = {"kind": "game", "rules": ["T1"], "anchor": "spec/rules.md#t9-nothing"}
    assert undecided(case) == "spec/rules.md#t9-nothing is no section of the spec"
