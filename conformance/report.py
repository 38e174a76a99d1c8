"""Reports of a conformance run: a rule × result matrix, failures with pictures, JUnit, JSON."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from dekal.conformance import PROTOCOL_VERSION, SUITE_VERSION
from dekal.conformance.pictures import grids_picture, positions_picture
from dekal.conformance.runner import STATUSES, Divergence, Outcome, Run

RULE_ORDER = [
    f"{letter}{n}"
    for letter, count in (("M", 5), ("T", 5), ("P", 2), ("F", 4), ("S", 4), ("B", 1))
    for n in range(1, count + 1)
]
LABELS = {
    "pass": "pass",
    "fail": "fail",
    "error": "error",
    "skip": "skipped",
    "xfail": "expected failure",
    "xpass": "unexpected pass",
}


def rule_matrix(run: Run) -> dict[str, dict[str, int]]:
    """rule ID -> status -> number of cases (a case counts under each rule it tests)."""
    matrix: dict[str, dict[str, int]] = {}
    for outcome in run.outcomes:
        for rule in outcome.case["rules"]:
            row = matrix.setdefault(rule, dict.fromkeys(STATUSES, 0))
            row[outcome.status] += 1
    order = {rule: index for index, rule in enumerate(RULE_ORDER)}
    return dict(sorted(matrix.items(), key=lambda item: order.get(item[0], len(order))))


def summary(run: Run) -> dict[str, int]:
    return {status: run.count(status) for status in STATUSES}


def matrix_text(run: Run) -> str:
    columns = [s for s in STATUSES if run.count(s) or s in ("pass", "fail", "error")]
    header = "rule  " + "".join(LABELS[s].rjust(max(7, len(LABELS[s]) + 2)) for s in columns)
    lines = [header]
    for rule, row in rule_matrix(run).items():
        cells = "".join(
            (str(row[s]) if row[s] else "·").rjust(max(7, len(LABELS[s]) + 2)) for s in columns
        )
        flag = "  ✗" if row["fail"] or row["error"] or row["xpass"] else ""
        lines.append(f"{rule:<5} {cells}{flag}")
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
    elif divergence.expected or divergence.actual:
        picture = f"expected: {divergence.expected}\nengine:   {divergence.actual}"
    if picture:
        lines.extend("    " + line for line in picture.splitlines())
    return "\n".join(lines)


def outcome_text(outcome: Outcome) -> str:
    case = outcome.case
    rules = ", ".join(case["rules"])
    level = " (should)" if case.get("level") == "should" else ""
    title = f"{LABELS[outcome.status].upper()}{level} {outcome.id} [{rules}] {case['title']}"
    lines = [title]
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
    parts = [
        f"engine {name} ({run.engine}), suite {SUITE_VERSION}, protocol {PROTOCOL_VERSION}",
        matrix_text(run),
        f"{len(run.outcomes)} case{'' if len(run.outcomes) == 1 else 's'}: {totals}",
    ]
    shown = run.not_passing
    for outcome in shown[:show]:
        parts.append(outcome_text(outcome))
    if len(shown) > show:
        parts.append(f"… and {len(shown) - show} more (use --json or --junit for all)")
    lenient = len(shown) - len(run.unexpected)
    if lenient:
        parts.append(
            f"{lenient} of these are `should`-level cases: reported, not counted (see --strict)"
        )
    if run.aborted:
        parts.append(f"run stopped: {run.aborted}")
    return "\n\n".join(parts)


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": outcome.id,
        "status": outcome.status,
        "level": outcome.case.get("level"),
        "rules": outcome.case["rules"],
    }
    if outcome.divergence is not None:
        d = outcome.divergence
        item["divergence"] = {
            "step": d.step,
            "sent": d.sent,
            "what": d.what,
            "expected": d.expected,
            "actual": d.actual,
        }
    if outcome.message:
        item["message"] = outcome.message
    if outcome.reason:
        item["reason"] = outcome.reason
    return item


def run_json(run: Run) -> dict[str, Any]:
    return {
        "engine": run.engine,
        "hello": run.info,
        "summary": summary(run),
        "rules": rule_matrix(run),
        "aborted": run.aborted or None,
        "cases": [outcome_json(o) for o in run.outcomes],
    }


def report_json(runs: list[Run]) -> dict[str, Any]:
    return {
        "suite": SUITE_VERSION,
        "protocol": PROTOCOL_VERSION,
        "ok": all(not run.unexpected and not run.aborted for run in runs),
        "engines": [run_json(run) for run in runs],
    }


def junit_xml(runs: list[Run]) -> str:
    """JUnit XML: one testsuite per engine, one testcase per case (classname = kind)."""
    root = ET.Element("testsuites", name=f"dekal-conformance-{SUITE_VERSION}")
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
        for outcome in run.outcomes:
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"{outcome.id} {outcome.case['title']}",
                classname=f"{SUITE_VERSION}.{outcome.case['kind']}",
                time=f"{outcome.seconds:.4f}",
            )
            text = outcome_text(outcome)
            if outcome.status in ("fail", "xpass"):
                what = (
                    outcome.divergence.what
                    if outcome.divergence
                    else "listed in --expect but passed"
                )
                ET.SubElement(case, "failure", message=what).text = text
            elif outcome.status == "error":
                ET.SubElement(
                    case,
                    "error",
                    message=outcome.message.splitlines()[0] if outcome.message else "error",
                ).text = text
            elif outcome.status in ("skip", "xfail"):
                ET.SubElement(
                    case,
                    "skipped",
                    message=outcome.message or f"expected failure: {outcome.reason}",
                )
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
