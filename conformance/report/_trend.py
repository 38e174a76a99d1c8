"""A rule × report table across saved reports (`dekal conformance trend`), text, JSON, HTML.

Each engine of each saved `run --json` report is a column, in the order given (oldest
first: your builds 0.1, 0.2, 0.3); each rule of spec/rules.md a row, its title beside it.
A cell says what every report says of that rule (dekal.conformance.report._rule_rows): `✗ 13` (that
many failures that fail the run), `13 should`, `29 elsewhere` (its own cases pass, that
many covering it fail, blamed on other rules), `72 pass`, or `not run`. A row whose cell
changes from one column to the next is marked where it changes (`*`); the last rows are
each column's verdict line and case count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dekal.conformance.report._html_tables import esc
from dekal.conformance.report._rule_rows import RuleRow, rule_rows, verdict_line

TREND_VERSION = 1
"""The shape of `trend --json`; raised whenever a field changes meaning or goes away."""


@dataclass(frozen=True)
class Column:
    """One engine of one saved report."""

    file: str
    engine: Mapping[str, Any]

    @property
    def label(self) -> str:
        hello = self.engine.get("hello") or {}
        name = hello.get("name") or self.engine.get("engine") or "?"
        release = hello.get("version")
        return f"{name} {release}" if release else str(name)

    @property
    def verdict(self) -> str:
        return verdict_line(self.engine)


def columns_of(reports: Sequence[tuple[str, Mapping[str, Any]]]) -> list[Column]:
    """(file name, checked report) pairs -> one column per engine, in the order given."""
    return [Column(name, engine) for name, report in reports for engine in report["engines"]]


def cell_text(row: RuleRow) -> str:
    """A cell: what the report says of one rule, in a few characters."""
    if row.state == "broken":
        return f"✗ {row.broken}"
    if row.state == "should":
        return f"{row.lenient} should"
    if row.state == "elsewhere":
        return f"{row.elsewhere} elsewhere"
    if row.state == "pass":
        return f"{row.counts['pass'] + row.counts['xfail']} pass"
    return "not run"


def table(columns: Sequence[Column]) -> list[tuple[RuleRow, list[RuleRow]]]:
    """Per rule (in rule order): the first column's row (its ID and title), every column's."""
    per_column = [rule_rows(column.engine) for column in columns]
    rules = [row.rule for row in per_column[0]] if per_column else []
    by_rule = [{row.rule: row for row in rows} for rows in per_column]
    return [
        (per_column[0][index], [rows.get(rule) or RuleRow(rule, "") for rows in by_rule])
        for index, rule in enumerate(rules)
    ]


def changes(cells: Sequence[RuleRow]) -> list[bool]:
    """Whether each cell's state differs from the column before it (never the first)."""
    return [k > 0 and cells[k].state != cells[k - 1].state for k in range(len(cells))]


TITLE_CHARS = 28


def trend_text(columns: Sequence[Column]) -> str:
    """The table as text: one line per rule, then the verdicts, then a legend."""
    heads = [f"{k + 1}. {column.label} ({column.file})" for k, column in enumerate(columns)]
    rows = table(columns)
    cells = [
        [
            cell_text(row) + ("*" if moved else "")
            for row, moved in zip(cells, changes(cells), strict=True)
        ]
        for _, cells in rows
    ]
    width = max(
        [len(f"{k + 1}.") for k in range(len(columns))] + [len(c) for r in cells for c in r]
    )
    lead = 4 + TITLE_CHARS
    lines = heads + [""]
    lines.append(
        "rule".ljust(lead) + "".join(f"{k + 1}.".rjust(width + 2) for k in range(len(columns)))
    )
    for (first, _), texts in zip(rows, cells, strict=True):
        title = (
            first.title if len(first.title) <= TITLE_CHARS else first.title[: TITLE_CHARS - 1] + "…"
        )
        lines.append(
            f"{first.rule:<3} {title:<{TITLE_CHARS}}" + "".join(t.rjust(width + 2) for t in texts)
        )
    lines.append("")
    lines.extend(f"{k + 1}. {column.verdict}" for k, column in enumerate(columns))
    lines.append(
        "(✗ n: failures that fail the run; n should: should-level only; n elsewhere: its cases"
        " pass, n covering it fail blamed on other rules; * changed since the column before)"
    )
    return "\n".join(lines)


def trend_json(columns: Sequence[Column]) -> dict[str, Any]:
    return {
        "trend_version": TREND_VERSION,
        "columns": [
            {
                "file": c.file,
                "engine": c.label,
                "suite": c.engine.get("suite"),
                "verdict": c.verdict,
            }
            for c in columns
        ],
        "rules": [
            {
                "rule": first.rule,
                "title": first.title,
                "cells": [
                    {
                        "state": cell.state,
                        "text": cell_text(cell),
                        "changed": moved,
                        **cell.counts,
                        "elsewhere": cell.elsewhere,
                    }
                    for cell, moved in zip(cells, changes(cells), strict=True)
                ],
            }
            for first, cells in table(columns)
        ],
    }


STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; }
td.cell { text-align: right; font-variant-numeric: tabular-nums; }
.broken { background: #f9d6d2; } .should { background: #fdf2c4; }
.elsewhere { background: #fbe3b8; } .pass { background: #e3f4e1; }
.not-run { background: #eeeeee; color: #666; } .changed { outline: 2px solid #555; }
""".strip()


def trend_html(columns: Sequence[Column]) -> str:
    """The table as one self-contained page (inline CSS, nothing loaded), with its legend."""
    head = "".join(
        f'<th data-column="{k}" data-file="{esc(c.file)}">{esc(c.label)}<br>'
        f"<small>{esc(c.file)}</small></th>"
        for k, c in enumerate(columns)
    )
    rows = [f"<tr><th>rule</th>{head}</tr>"]
    for first, cells in table(columns):
        tds = "".join(
            f'<td class="cell {cell.state.replace(" ", "-")}{" changed" if moved else ""}"'
            f' data-rule="{first.rule}" data-column="{k}" data-state="{cell.state}">'
            f"{esc(cell_text(cell))}</td>"
            for k, (cell, moved) in enumerate(zip(cells, changes(cells), strict=True))
        )
        rows.append(
            f'<tr data-rule="{first.rule}"><th>{first.rule} {esc(first.title)}</th>{tds}</tr>'
        )
    verdicts = "".join(f'<td class="verdict">{esc(c.verdict)}</td>' for c in columns)
    rows.append(f"<tr><th>verdict</th>{verdicts}</tr>")
    legend = (
        '<p class="legend">✗ n: failures that fail the run; n should: should-level failures only;'
        " n elsewhere: the rule's own cases pass, n cases covering it fail, blamed on other"
        " rules; not run: no case covering it ran; outlined: changed since the column before.</p>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>Dékal conformance trend</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>\n"
        f'<h1>Dékal conformance trend</h1>\n<table class="trend">\n'
        + "\n".join(rows)
        + f"\n</table>\n{legend}\n</body>\n</html>\n"
    )
