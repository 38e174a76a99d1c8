"""Reports of a conformance run: a rule × result matrix, coverage, failures with pictures and
the rule each one breaks, as text, JSON (versioned, complete enough to re-render) and JUnit.

In the matrix a failing case counts under the one rule its first divergence breaks
(dekal.conformance.judge._attribution), not under every rule the case lists; passes and skips do
count under every rule the case lists (they say nothing against any one rule).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from dekal.conformance.cases._vectors import SUITE_VERSION
from dekal.conformance.drive._protocol import PROTOCOL_VERSION
from dekal.conformance.judge._compare import Divergence
from dekal.conformance.judge._coverage import (
    claimed_coverage,
    core_coverage,
    coverage_json,
    coverage_text,
    rule_coverage,
    rule_key,
    skip_reasons,
)
from dekal.conformance.judge._runner import STATUSES, Outcome, Run
from dekal.conformance.report._pictures import (
    grids_picture,
    positions_picture,
    result_picture,
)
from dekal.conformance.report._rule_rows import first_of_each_rule, rule_rows, verdict_line

REPORT_VERSION = 1
"""The shape of the JSON report; raised whenever a field changes meaning or goes away."""

LABELS = {
    "pass": "pass",
    "fail": "fail",
    "error": "error",
    "skip": "skipped",
    "xfail": "expected failure",
    "xpass": "unexpected pass",
}
MATRIX_NOTE = (
    "(a failure or error counts under the rule it breaks; "
    "passes and skips under every rule the case covers; "
    "✗: failures that fail the run)"
)


def counted_under(outcome: Outcome) -> list[str]:
    """The rules an outcome counts under in the matrix: its blamed rule when it has one
    (failures, expected failures, most errors), else every rule the case lists."""
    if outcome.blame is not None and outcome.status in ("fail", "xfail", "error"):
        return [outcome.blame.rule]
    return list(outcome.case["rules"])


def rule_matrix(run: Run) -> dict[str, dict[str, int]]:
    """rule ID -> status -> number of cases (see counted_under)."""
    matrix: dict[str, dict[str, int]] = {}
    for outcome in run.outcomes:
        for rule in counted_under(outcome):
            row = matrix.setdefault(rule, dict.fromkeys(STATUSES, 0))
            row[outcome.status] += 1
    return dict(sorted(matrix.items(), key=lambda item: rule_key(item[0])))


def summary(run: Run) -> dict[str, int]:
    return {status: run.count(status) for status in STATUSES}


def judged(run: Run) -> dict[str, Any]:
    """What dekal.conformance.report._rule_rows reads of a run: its cases as the JSON
    report writes them, and whether should-level failures count."""
    return {
        "cases": [outcome_json(o) for o in run.outcomes],
        "strict": run.strict,
        "aborted": run.aborted or None,
    }


TITLE_CHARS = 30


def matrix_text(run: Run) -> str:
    """One line per rule (its ID and title), its cases by status; `✗` only where failures
    fail the run; what the counts do not say (failures blamed on other rules, not run)."""
    columns = [s for s in STATUSES if run.count(s) or s in ("pass", "fail", "error")]
    width = {s: max(7, len(LABELS[s]) + 2) for s in columns}
    lead = 4 + TITLE_CHARS
    header = "rule".ljust(lead) + "".join(LABELS[s].rjust(width[s]) for s in columns)
    lines = [header]
    for row in rule_rows(judged(run)):
        title = row.title if len(row.title) <= TITLE_CHARS else row.title[: TITLE_CHARS - 1] + "…"
        head = f"{row.rule:<3} {title:<{TITLE_CHARS}}"
        if row.state == "not run":
            lines.append(f"{head}{'not run'.rjust(sum(width.values()))}")
            continue
        cells = "".join(
            (str(row.counts[s]) if row.counts[s] else "·").rjust(width[s]) for s in columns
        )
        flag = "  ✗" if row.state == "broken" else "   "
        lines.append(f"{head}{cells}{flag} {row.note}".rstrip())
    lines.append(MATRIX_NOTE)
    return "\n".join(lines)


def divergence_text(divergence: Divergence) -> str:
    where = (
        "set-up" if divergence.step == 0 else (f"step {divergence.step}" if divergence.step else "")
    )
    head = f"{where}: {divergence.sent}" if where else divergence.sent
    lines = [f"  at {head}", f"  {divergence.what}"]
    picture = ""
    if divergence.kind == "position" and divergence.expected and divergence.actual:
        picture = positions_picture(divergence.expected, divergence.actual)
    elif divergence.kind == "grid" and divergence.expected and divergence.actual:
        try:
            picture = grids_picture(divergence.expected, divergence.actual, divergence.marks)
        except (IndexError, ValueError):
            picture = f"expected {divergence.expected}\nengine   {divergence.actual}"
        picture += "\n" + (
            "(cancelled cells are bracketed; * a cell that differs)"
            if any(divergence.marks)
            else "(* a cell that differs)"
        )
    elif divergence.kind == "result":
        picture = result_picture(divergence.expected, divergence.actual, divergence.context)
    elif divergence.expected or divergence.actual:
        picture = f"expected: {divergence.expected}\nengine:   {divergence.actual}"
    if picture:
        lines.extend(("    " + line).rstrip() for line in picture.splitlines())
    return "\n".join(lines)


def blame_text(outcome: Outcome) -> str:
    """`rule S3 (ranking)`, the words every report uses for an attributed outcome."""
    return f"rule {outcome.blame}" if outcome.blame is not None else "no single rule"


def outcome_text(outcome: Outcome) -> str:
    case = outcome.case
    level = " (should)" if case.get("level") == "should" else ""
    lines = [f"{LABELS[outcome.status].upper()}{level} {outcome.id} {case['title']}"]
    covers = f"the case covers {', '.join(case['rules'])}"
    if outcome.status in ("fail", "xfail", "error"):
        lines.append(f"  {blame_text(outcome)}; {covers}")
    else:
        lines.append(f"  {covers}")
    if outcome.reason:
        lines.append(f"  listed in --expect: {outcome.reason}")
    if outcome.divergence is not None:
        lines.append(divergence_text(outcome.divergence))
    if outcome.message:
        lines.append("  " + outcome.message)
    return "\n".join(lines)


def run_text(run: Run, show: int = 20) -> str:
    """The whole human report of one engine's run."""
    info = run.info
    name = f"{info.get('name', run.engine)} {info.get('version', '')}".strip()
    totals = ", ".join(f"{run.count(s)} {LABELS[s]}" for s in STATUSES if run.count(s))
    verdict = verdict_line(judged(run))
    parts = [
        verdict,
        f"engine {name} ({run.engine}), suite {run.suite}, protocol {PROTOCOL_VERSION}",
        matrix_text(run),
        f"{len(run.outcomes)} case{'' if len(run.outcomes) == 1 else 's'}: {totals}",
        coverage_text(run),
    ]
    shown = first_of_each_rule(
        run.not_passing,
        lambda o: o.blame.rule if o.blame is not None else "",
        lambda o: o.case.get("level") == "must",
    )
    for outcome in shown[:show]:
        parts.append(outcome_text(outcome))
    if len(shown) > show:
        parts.append(f"… and {len(shown) - show} more (use --json or --junit for all)")
    lenient = len(shown) - len(run.unexpected)
    if lenient:
        parts.append(
            f"{lenient} of these are `should`-level cases: reported, not counted (see --strict)"
        )
    if run.stopped:
        parts.append(f"run stopped: {run.stopped}")
    if run.aborted:
        parts.append(f"run stopped: {run.aborted}")
    parts.append(verdict)
    return "\n\n".join(parts)


def divergence_json(d: Divergence) -> dict[str, Any]:
    return {
        "step": d.step,
        "sent": d.sent,
        "what": d.what,
        "expected": d.expected,
        "actual": d.actual,
        "kind": d.kind,
        "marks": [list(d.marks[0]), list(d.marks[1])],
        "context": d.context,
        "rule": d.rule,
        "field": d.field,
    }


def divergence_from_json(data: dict[str, Any]) -> Divergence:
    """The Divergence a report's JSON describes: `divergence_json` read back, so a saved
    report can be drawn again (divergence_text) without the suite or the engine."""
    marks = data.get("marks") or [[], []]
    return Divergence(
        step=data["step"],
        sent=data["sent"],
        what=data["what"],
        expected=data.get("expected", ""),
        actual=data.get("actual", ""),
        kind=data.get("kind", "text"),
        marks=(tuple(marks[0]), tuple(marks[1])),
        rule=data.get("rule", ""),
        field=data.get("field", ""),
        context=data.get("context", ""),
    )


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """One outcome, complete: enough to draw it again without the suite."""
    blame = outcome.blame
    return {
        "id": outcome.id,
        "kind": outcome.case["kind"],
        "title": outcome.case["title"],
        "status": outcome.status,
        "level": outcome.case.get("level"),
        "rules": outcome.case["rules"],
        "needs": outcome.case.get("needs", {}),
        "rule": blame.rule if blame else None,
        "field": blame.field if blame else None,
        "blame": str(blame) if blame else None,  # "S3 (ranking)", as the text report says it
        "counted_under": counted_under(outcome),
        "divergence": divergence_json(outcome.divergence) if outcome.divergence else None,
        "message": outcome.message or None,
        "reason": outcome.reason or None,
        "seconds": round(outcome.seconds, 4),
    }


def run_json(run: Run) -> dict[str, Any]:
    return {
        "engine": run.engine,
        "suite": run.suite,
        "strict": run.strict,  # should-level failures count (--strict): the verdict says so
        "hello": run.info,
        "summary": summary(run),
        "rules": rule_matrix(run),
        "coverage": coverage_json(run),
        "aborted": run.aborted or None,
        "stopped": run.stopped or None,
        "not_run": [case["id"] for case in run.not_run],
        "cases": [outcome_json(o) for o in run.outcomes],
    }


def suite_of(runs: list[Run]) -> str:
    """The suite a report names: the one its runs were loaded from ("v1, v2" should runs of
    two suites ever be reported together; the current suite for no run at all)."""
    return ", ".join(sorted({run.suite for run in runs})) or SUITE_VERSION


def report_json(runs: list[Run]) -> dict[str, Any]:
    return {
        "report_version": REPORT_VERSION,
        "suite": suite_of(runs),
        "protocol": PROTOCOL_VERSION,
        "ok": all(not run.unexpected and not run.aborted for run in runs),
        "matrix": MATRIX_NOTE.strip("()"),
        "engines": [run_json(run) for run in runs],
    }


def _properties(parent: ET.Element, values: dict[str, str]) -> None:
    properties = ET.SubElement(parent, "properties")
    for name, value in values.items():
        ET.SubElement(properties, "property", name=name, value=value)


def coverage_properties(run: Run) -> dict[str, str]:
    """The coverage of a run as JUnit properties (name -> value)."""
    values: dict[str, str] = {
        "report_version": str(REPORT_VERSION),
        "verdict": verdict_line(judged(run)),
    }
    for judged_row in rule_rows(
        judged(run)
    ):  # the matrix's judgement of each rule, as text and HTML
        values[f"rule.{judged_row.rule}"] = f"{judged_row.title}: {judged_row.state}" + (
            f"; {judged_row.note}" if judged_row.note else ""
        )
    for key, figure in (("claimed", claimed_coverage(run)), ("core", core_coverage(run))):
        values[f"coverage.{key}"] = f"{figure.count}/{figure.of}"
        values[f"coverage.{key}.text"] = str(figure)
    for reason, count in skip_reasons(run).most_common():
        values[f"skipped.{reason}"] = str(count)
    for rule, row in rule_coverage(run).items():
        needs = ", ".join(f"{need} {n}" for need, n in row.skipped.most_common())
        values[f"coverage.{rule}"] = (
            f"claimed {row.claimed}, run {row.run}, passed {row.passed}, "
            f"skipped {row.skipped_cases}" + (f" ({needs})" if needs else "")
        )
    return values


def junit_xml(runs: list[Run]) -> str:
    """JUnit XML: one testsuite per engine (coverage in its properties), one testcase per
    case (classname = kind); a failure's message starts with the rule it breaks."""
    root = ET.Element("testsuites", name=f"dekal-conformance-{suite_of(runs)}")
    for run in runs:
        suite = ET.SubElement(
            root,
            "testsuite",
            name=str(run.info.get("name", run.engine)),
            tests=str(len(run.outcomes)),
            failures=str(run.count("fail") + run.count("xpass")),
            errors=str(run.count("error")),
            skipped=str(run.count("skip") + run.count("xfail")),
        )
        _properties(suite, coverage_properties(run))
        for outcome in run.outcomes:
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"{outcome.id} {outcome.case['title']}",
                classname=f"{run.suite}.{outcome.case['kind']}",
                time=f"{outcome.seconds:.4f}",
            )
            if outcome.blame is not None:
                _properties(case, {"rule": outcome.blame.rule, "field": outcome.blame.field})
            text = outcome_text(outcome)
            blamed = f"{outcome.blame}: " if outcome.blame is not None else ""
            if outcome.status in ("fail", "xpass"):
                what = (
                    outcome.divergence.what
                    if outcome.divergence
                    else "listed in --expect but passed"
                )
                ET.SubElement(case, "failure", message=blamed + what).text = text
            elif outcome.status == "error":
                first_line = outcome.message.splitlines()[0] if outcome.message else "error"
                ET.SubElement(case, "error", message=blamed + first_line).text = text
            elif outcome.status in ("skip", "xfail"):
                ET.SubElement(
                    case,
                    "skipped",
                    message=outcome.message or f"expected failure: {outcome.reason}",
                )
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
