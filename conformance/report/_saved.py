"""The text summary of saved JSON reports (`dekal conformance report`), read back from JSON.

`run` prints its report from the live run (dekal.conformance.report._formats.run_text); `report` has
only the JSON that `run --json` saved, already checked by html_report.read_report. This
prints, per engine, the headline a reader needs before opening the page: the engine, the
case counts by status, the two coverage figures, and the first `show` cases that did not
pass. The keys it reads are those of report_version 1 (docs/validate.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dekal.conformance.judge._runner import STATUSES
from dekal.conformance.report._formats import LABELS
from dekal.conformance.report._rule_rows import verdict_line

NOT_PASSING = ("fail", "error", "xpass")  # as Run.not_passing


def _share(figure: Mapping[str, Any], name: str) -> str:
    count, of = figure.get("count", 0), figure.get("of", 0)
    share = f"{100 * count / of:.1f}%" if of else "n/a"
    return f"{name}: {share} ({count} of {of})"


def engine_text(engine: Mapping[str, Any], show: int) -> str:
    """One engine of a report: its verdict line, who, how many cases of each status,
    coverage, what failed."""
    hello = engine.get("hello") or {}
    name = f"{hello.get('name', engine.get('engine', '?'))} {hello.get('version', '')}".strip()
    counts = engine.get("summary") or {}
    total = sum(int(counts.get(status, 0)) for status in STATUSES)
    by_status = ", ".join(
        f"{counts[status]} {LABELS[status]}" for status in STATUSES if counts.get(status)
    )
    lines = [
        verdict_line(engine),
        f"engine {name} ({engine.get('engine', '?')}), suite {engine.get('suite', '?')}: "
        f"{total} case{'' if total == 1 else 's'}: {by_status or 'none run'}",
    ]
    coverage = engine.get("coverage") or {}
    if "claimed" in coverage:
        lines.append("  " + _share(coverage["claimed"], "must-level coverage of what it claims"))
    if "core" in coverage:
        lines.append("  " + _share(coverage["core"], "core coverage"))
    bad: Sequence[Mapping[str, Any]] = [
        case for case in engine.get("cases") or [] if case.get("status") in NOT_PASSING
    ]
    bad = sorted(bad, key=lambda case: case.get("level") != "must")
    for case in bad[:show]:
        rule = f" {case['rule']}" if case.get("rule") else ""
        lines.append(f"  {case.get('status')}{rule}: {case.get('id')} ({case.get('level')})")
    if len(bad) > show:
        lines.append(f"  … and {len(bad) - show} more (--show, or the page)")
    for key in ("stopped", "aborted"):
        if engine.get(key):
            lines.append(f"  run stopped: {engine[key]}")
    return "\n".join(lines)


def reports_text(reports: Sequence[Mapping[str, Any]], show: int) -> str:
    """Every engine of every report, then the verdict (the exit code's reason)."""
    blocks = [engine_text(engine, show) for report in reports for engine in report["engines"]]
    failing = sum(report.get("ok") is not True for report in reports)
    verdict = (
        f"all {len(reports)} report{'' if len(reports) == 1 else 's'} passed"
        if not failing
        else f"{failing} of {len(reports)} report{'' if len(reports) == 1 else 's'} FAILED"
        " (unexpected failures, as `run` said)"
    )
    return "\n\n".join([*blocks, verdict])
