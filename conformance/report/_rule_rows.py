"""What each report says about one rule, and the verdict line: one judgement for text, HTML
and JUnit alike, read from a run's JSON (report._formats.run_json, or a saved file).

A failing case counts under the one rule it is blamed on; a rule whose own cases pass while
other cases that cover it fail is not shown as passing: it says "n fail, blamed on other
rules". A rule under which nothing ran says "not run". Only failures that fail the run (level
must, or should under --strict) mark a rule broken (✗); should-level ones are told apart.
The verdict line names the broken rules: `FAIL: 3 rules broken, 382 cases (must) — T5, S1,
B1`, or `PASS: 1403 cases`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from dekal.conformance.judge._coverage import RULE_ORDER, rule_key
from dekal.conformance.report._rule_titles import rule_titles

FAILING = ("fail", "error", "xpass")  # what makes a run fail, at the level that counts
RAN = ("pass", "fail", "error", "xfail", "xpass")
STATUSES = ("pass", "fail", "error", "skip", "xfail", "xpass")
T = TypeVar("T")


def counted_rules(case: Mapping[str, Any]) -> list[str]:
    """The rules a case counts under (its blamed rule when failing, else those it covers)."""
    listed = case.get("counted_under")
    if isinstance(listed, list):
        return [str(rule) for rule in listed]
    return [str(rule) for rule in case.get("rules") or []]


def counts_against(case: Mapping[str, Any], strict: bool) -> bool:
    """Whether a case fails the run: failed, erred or passed unexpectedly, at level must (or
    should under --strict)."""
    return case.get("status") in FAILING and (strict or case.get("level") == "must")


@dataclass
class RuleRow:
    """One rule of one engine's report."""

    rule: str
    title: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    broken: int = 0  # cases counted under it that fail the run (must, or should if strict)
    lenient: int = 0  # failures counted under it that do not fail the run (should level)
    elsewhere: int = 0  # cases covering it that fail, blamed on another rule
    covered: int = 0  # cases that cover it or count under it and ran (not skipped)

    @property
    def state(self) -> str:
        """`broken`, `should` (only should-level failures), `elsewhere` (its own cases pass,
        others covering it fail), `pass` or `not run`: the colour a report gives the row."""
        if self.broken:
            return "broken"
        if self.lenient:
            return "should"
        if self.elsewhere:
            return "elsewhere"
        return "pass" if self.covered else "not run"

    @property
    def note(self) -> str:
        """What the counts do not say: failures blamed elsewhere, nothing run."""
        notes = []
        if self.elsewhere:
            notes.append(f"{self.elsewhere} fail, blamed on other rules")
        if self.lenient and not self.broken:
            notes.append(f"{self.lenient} should-level, not counted")
        if not self.covered:
            notes.append("not run")
        return "; ".join(notes)


def rule_rows(engine: Mapping[str, Any]) -> list[RuleRow]:
    """Every rule of spec/rules.md (and any other a case names), in rule order."""
    strict = engine.get("strict") is True
    titles = rule_titles()
    rows: dict[str, RuleRow] = {rule: RuleRow(rule, titles.get(rule, "")) for rule in RULE_ORDER}
    cases: Sequence[Mapping[str, Any]] = engine.get("cases") or []
    for case in cases:
        status = str(case.get("status"))
        under = counted_rules(case)
        for rule in under:
            row = rows.setdefault(rule, RuleRow(rule, titles.get(rule, "")))
            if status in row.counts:
                row.counts[status] += 1
            if counts_against(case, strict):
                row.broken += 1
            elif status in FAILING:
                row.lenient += 1
        for rule in {*under, *map(str, case.get("rules") or [])}:
            row = rows.setdefault(rule, RuleRow(rule, titles.get(rule, "")))
            row.covered += status in RAN
            row.elsewhere += status in ("fail", "error") and rule not in under
    return sorted(rows.values(), key=lambda row: rule_key(row.rule))


def verdict_line(engine: Mapping[str, Any]) -> str:
    """`FAIL: 3 rules broken, 382 cases (must) — T5, S1, B1` or `PASS: 1403 cases`."""
    strict = engine.get("strict") is True
    cases: Sequence[Mapping[str, Any]] = engine.get("cases") or []
    against = [case for case in cases if counts_against(case, strict)]
    total = len(cases)
    plural = "" if total == 1 else "s"
    if engine.get("aborted"):
        return f"FAIL: the run stopped, {engine['aborted']}"
    if not against:
        others = [
            f"{n} {label}"
            for label, n in (
                ("skipped", sum(c.get("status") == "skip" for c in cases)),
                ("expected failures", sum(c.get("status") == "xfail" for c in cases)),
                ("should-level failures", sum(c.get("status") in FAILING for c in cases)),
            )
            if n
        ]
        return f"PASS: {total} case{plural}" + (f" ({', '.join(others)})" if others else "")
    rules = sorted({str(c["rule"]) for c in against if c.get("rule")}, key=rule_key)
    unblamed = sum(1 for c in against if not c.get("rule"))
    named = ", ".join(rules + (["no single rule"] if unblamed else []))
    level = "must and should" if strict else "must"
    broken = f"{len(rules)} rule{'' if len(rules) == 1 else 's'} broken, " if rules else ""
    many = "" if len(against) == 1 else "s"
    return f"FAIL: {broken}{len(against)} case{many} ({level}) — {named}"


def first_of_each_rule(
    cases: Sequence[T],
    rule_of: Callable[[T], str] = lambda case: str(case.get("rule") or ""),  # type: ignore[attr-defined]
    is_must: Callable[[T], bool] = lambda case: case.get("level") == "must",  # type: ignore[attr-defined]
) -> list[T]:
    """Failing cases in the order a report shows them: must before should, and the first
    failure of each rule before the second of any (then the suite's order)."""
    seen: dict[str, int] = {}
    ranked = []
    for index, case in enumerate(cases):
        rule = rule_of(case)
        rank = seen.get(rule, 0)
        seen[rule] = rank + 1
        ranked.append((not is_must(case), rank, index))
    return [cases[index] for *_, index in sorted(ranked)]
