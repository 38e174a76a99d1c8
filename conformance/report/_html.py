"""A conformance report as one self-contained HTML page, drawn from JSON reports (report.py).

The page reads without JavaScript and loads nothing: inline CSS, inline SVG pictures
(dekal_ref.svg). It holds a header (suite, protocol, each engine's name and version), the
rule × engine matrix (a failure counts under the rule it breaks, as in the text report),
the two coverage figures per engine, and each failure with its first diverging step drawn
(dekal.conformance.report._divergence: every kind of divergence as a picture or a table).

The input is the JSON of `dekal conformance run --json` (report_version 1), possibly read
back from a file: everything in it, and above all what an engine said, is untrusted. So
`check_report` reads the shape before anything is drawn, every text reaches the page
through html.escape (or an SVG serializer), and engine text is cut to SHOWN_CHARS.

Elements carry data attributes that tools and tests read without parsing the drawing:

    <td class="cell fail" data-rule="T5" data-engine="dekal-js" data-pass="9" data-fail="19" …>
    <section class="failure" data-case="game-0005" data-engine="…" data-rule="T5"
             data-field="phase" data-status="fail" data-kind="position">
    <div class="drawing" data-drawing="public"> around a divergence's drawing
    <div class="picture" data-side="expected"> (or "engine") around each SVG
    <tr class="differs" …> a row of a table whose two sides differ
"""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree as ET

from dekal.conformance.judge._coverage import RULE_ORDER
from dekal.conformance.report._divergence import divergence_html
from dekal.conformance.report._html_tables import SHOWN_CHARS, esc
from dekal.conformance.report._report_schema import problem as schema_problem
from dekal.conformance.report._rule_rows import first_of_each_rule, rule_rows, verdict_line
from dekal.conformance.report._rule_titles import rule_titles
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import read_json
from dekal_ref.reading import shortened
from dekal_ref.svg import SVG_NAMESPACE

KNOWN_VERSIONS = (1,)
"""The report_version values this module reads
(dekal.conformance.report._formats.REPORT_VERSION)."""

STATUSES = ("pass", "fail", "error", "skip", "xfail", "xpass")
NOT_PASSING = ("fail", "error", "xfail", "xpass")

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
td { overflow-wrap: anywhere; } td:first-child { overflow-wrap: normal; }
mark { background: #f5b041; }
td.cell { text-align: right; font-variant-numeric: tabular-nums; }
.pass { background: #e3f4e1; } .fail { background: #f9d6d2; }
.error { background: #fbe3b8; } .skip { background: #eeeeee; color: #666; }
.none { color: #777; background: #f4f4f4; }
.elsewhere { background:
  repeating-linear-gradient(45deg, #e3f4e1 0 6px, #f9d6d2 6px 12px); }
.should { background: #fdf2c4; } .title { font-weight: normal; color: #555; }
p.verdict.fail strong { color: #a61b0d; }
p.verdict.pass strong { color: #1e6b1a; }
section.failure { border-top: 1px solid #ccc; padding: 0.5em 0; }
.pictures, .seats { display: flex; flex-wrap: wrap; gap: 1.5em; }
.picture h4 { margin: 0.2em 0; }
pre { background: #f6f6f6; padding: 0.5em; white-space: pre-wrap; word-break: break-all; }
tr.differs { background: #f9d6d2; }
.seat p { margin: 0.2em 0; font-size: 0.9em; }
details summary { color: #666; cursor: pointer; }
table.verdict td:first-child, table.result td:first-child { font-weight: bold; }
""".strip()


class ReportError(NotationError):
    """A JSON report this module cannot draw: its field and why (one line)."""


# --- Reading a report ---------------------------------------------------------------------


def read_report(text: str, where: str) -> dict[str, Any]:
    """A saved JSON report, read as untrusted input and checked by `check_report`."""
    return check_report(read_json(text, where), where)


def check_report(data: Any, where: str) -> dict[str, Any]:
    """`data` itself when it has the shape of a known report version; else ReportError naming
    the field. Only what the page draws is checked: a report may hold more (fields are added)."""
    if not isinstance(data, dict):
        raise ReportError(where, "not a conformance report: a JSON object is expected")
    version = data.get("report_version")
    if version not in KNOWN_VERSIONS:
        raise ReportError(
            where,
            f"report_version {shortened(json.dumps(version))} is not known: "
            f"this dekal reads version {', '.join(map(str, KNOWN_VERSIONS))}",
        )
    broken = schema_problem(data)  # spec/schemas/conformance-report.schema.json
    if broken is not None:
        raise ReportError(f"{where}: {broken[0]}", broken[1])
    engines = data.get("engines")
    if not isinstance(engines, list) or not engines:
        raise ReportError(where, "engines: a non-empty list of engines is expected")
    for number, engine in enumerate(engines):
        field = f"{where}: engines[{number}]"
        if not isinstance(engine, dict):
            raise ReportError(field, "an object is expected")
        for key, kind in (("hello", dict), ("rules", dict), ("coverage", dict), ("cases", list)):
            if not isinstance(engine.get(key), kind):
                raise ReportError(f"{field}.{key}", f"a JSON {kind.__name__} is expected")
        for rule, row in engine["rules"].items():
            if not isinstance(row, dict) or not all(
                isinstance(row.get(s, 0), int) for s in STATUSES
            ):
                raise ReportError(f"{field}.rules.{shortened(rule)}", "counts of cases expected")
        apart = engine["coverage"].get("cannot_run") or {}  # drawn as a note when counted
        if not isinstance(apart, dict) or (
            apart.get("count") and not isinstance(apart.get("reason"), str)
        ):
            raise ReportError(f"{field}.coverage.cannot_run", "a count and a text reason expected")
        for index, case in enumerate(engine["cases"]):
            if not isinstance(case, dict) or not isinstance(case.get("id"), str):
                raise ReportError(f"{field}.cases[{index}]", "a case with a text id is expected")
            if case.get("divergence") is not None and not isinstance(case["divergence"], dict):
                raise ReportError(f"{field}.cases[{index}].divergence", "an object is expected")
    return data


# --- Small pieces -------------------------------------------------------------------------


def _short(text: object, limit: int = SHOWN_CHARS) -> str:
    """Engine text as shown: a string, cut to `limit` characters with its length said."""
    value = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
    return value if len(value) <= limit else f"{value[:limit]}… ({len(value)} characters)"


def attributes(values: dict[str, object]) -> str:
    """` data-x="…"` for each value that is not None, escaped."""
    shown = {name: value for name, value in values.items() if value is not None}
    return "".join(f' {name}="{esc(value, 200)}"' for name, value in shown.items())


def engine_name(engine: dict[str, Any]) -> str:
    """What a column is called: the hello's name, else the engine's command line."""
    name = engine["hello"].get("name")
    return _short(name if isinstance(name, str) and name else engine.get("engine", "?"), 100)


def version(engine: dict[str, Any]) -> str:
    return _short(engine["hello"].get("version") or "", 100)


def _count(row: dict[str, Any], status: str) -> int:
    value = row.get(status, 0)
    return value if isinstance(value, int) else 0


def cell_class(counts: dict[str, int]) -> str:
    """A matrix cell's colour: the worst thing that happened under its rule."""
    if counts["fail"] or counts["xpass"]:
        return "fail"
    if counts["error"]:
        return "error"
    if counts["pass"] or counts["xfail"]:
        return "pass"
    return "skip" if counts["skip"] else "none"


def figure(coverage: dict[str, Any], key: str) -> tuple[int, int]:
    """A headline coverage figure (count, of) from a report's coverage; (0, 0) if absent."""
    data = coverage.get(key)
    if not isinstance(data, dict):
        return 0, 0
    count, of = data.get("count"), data.get("of")
    return (count, of) if isinstance(count, int) and isinstance(of, int) else (0, 0)


def figure_text(count: int, of: int) -> str:
    return f"{100 * count / of:.1f}% ({count} of {of})" if of else "n/a (0 of 0)"


# --- The matrix ---------------------------------------------------------------------------


def matrix_html(columns: list[dict[str, Any]]) -> str:
    """Rules M1…B1 down (each with its title), one column per engine; each cell counts its
    cases by status, and says what the counts do not (dekal.conformance.report._rule_rows):
    failures blamed on other rules (never coloured as a pass), not run."""
    head = "".join(
        f"<th{attributes({'data-engine': engine_name(e), 'data-column': i})}>"
        f"{esc(engine_name(e))}</th>"
        for i, e in enumerate(columns)
    )
    judged = [{row.rule: row for row in rule_rows(engine)} for engine in columns]
    rows = [f'<tr><th scope="col">rule</th>{head}</tr>']
    for rule in RULE_ORDER:
        cells = []
        for column, engine in enumerate(columns):
            row = engine["rules"].get(rule, {})
            counts = {status: _count(row, status) for status in STATUSES}
            judged_row = judged[column].get(rule)
            state = judged_row.state if judged_row is not None else "not run"
            note = judged_row.note if judged_row is not None else "not run"
            shown = [f"{counts[s]} {s}" for s in STATUSES if counts[s]]
            text = (
                "not run"
                if state == "not run"
                else "; ".join(part for part in (", ".join(shown), note) if part)
            )
            data = {
                "data-rule": rule,
                "data-engine": engine_name(engine),
                "data-column": column,
                "data-state": state,
                "data-elsewhere": judged_row.elsewhere if judged_row is not None else 0,
                **{f"data-{s}": counts[s] for s in STATUSES},
            }
            cls = {"elsewhere": "elsewhere", "should": "should", "not run": "none"}.get(
                state, cell_class(counts)
            )
            cells.append(f'<td class="cell {cls}"{attributes(data)}>{esc(text)}</td>')
        title = rule_titles().get(rule, "")
        rows.append(
            f'<tr data-rule="{rule}"><th scope="row">{rule} <span class="title">'
            f"{esc(title)}</span></th>{''.join(cells)}</tr>"
        )
    legend = (
        '<p class="legend">Colours: <span class="pass">passes</span>, <span class="fail">'
        'failures under this rule</span>, <span class="error">errors</span>, <span '
        'class="elsewhere">its own cases pass, cases covering it fail (blamed on other rules)'
        '</span>, <span class="should">should-level failures only</span>, <span class="none">'
        "not run</span>.</p>"
    )
    return '<table class="matrix">\n' + "\n".join(rows) + "\n</table>" + legend


def verdicts_html(columns: list[dict[str, Any]], where: str) -> str:
    """Each engine's verdict line (`FAIL: 3 rules broken, …` / `PASS: 1403 cases`)."""
    lines = "".join(
        f'<p class="verdict {"pass" if verdict_line(e).startswith("PASS") else "fail"}"'
        f"{attributes({'data-engine': engine_name(e), 'data-where': where})}>"
        f"<strong>{esc(engine_name(e))}: {esc(verdict_line(e))}</strong></p>"
        for e in columns
    )
    return f'<div class="verdicts">{lines}</div>'


def coverage_html(columns: list[dict[str, Any]]) -> str:
    """The two headline coverage figures (docs/validate.md, "Coverage") per engine."""
    rows = ['<tr><th>engine</th><th>must-level coverage of what it claims</th>'
            "<th>core coverage</th></tr>"]  # fmt: skip
    for column, engine in enumerate(columns):
        claimed, core = figure(engine["coverage"], "claimed"), figure(engine["coverage"], "core")
        data = {
            "data-engine": engine_name(engine),
            "data-column": column,
            "data-claimed": f"{claimed[0]}/{claimed[1]}",
            "data-core": f"{core[0]}/{core[1]}",
        }
        rows.append(
            f'<tr class="coverage"{attributes(data)}><td>{esc(engine_name(engine))}</td>'
            f"<td>{esc(figure_text(*claimed))}</td><td>{esc(figure_text(*core))}</td></tr>"
        )
    apart = [(e, e["coverage"].get("cannot_run")) for e in columns]  # own-deal mode
    notes = [f'<p class="cannot-run">{esc(engine_name(e))}: {n["count"]} cases cannot be run in'
             f' this mode ({esc(str(n.get("reason", "")))}); not counted as claimed.</p>'
             for e, n in apart
             if isinstance(n, dict) and isinstance(n.get("count"), int) and n["count"] > 0
             ]  # fmt: skip
    return '<table class="coverage">\n' + "\n".join(rows) + "\n</table>" + "".join(notes)


def skipped_html(engine: dict[str, Any]) -> str:
    """Why cases were not run (a variant or feature not claimed, a deal the engine cannot be
    given…): one row per reason as the runner words it, with the cases folded under it.

    Read from each case's status and message alone, so that a status this page does not know
    (a later report's "cannot be run in this mode", say) is listed here too, by its name,
    rather than dropped."""
    reasons: dict[str, list[str]] = {}
    for case in engine["cases"]:
        status = case.get("status")
        if status == "skip" or status not in STATUSES:
            said = case.get("message")
            why = said if isinstance(said, str) and said else "(no reason given)"
            if status != "skip":
                why = f"{_short(status, 40)}: {why}"
            reasons.setdefault(why, []).append(case["id"])
    if not reasons:
        return ""
    rows = ["<tr><th>not run because the case…</th><th>cases</th></tr>"]
    for why, ids in sorted(reasons.items(), key=lambda item: -len(item[1])):
        listed = esc(" ".join(ids), 4000)
        rows.append(
            f'<tr class="skip"{attributes({"data-reason": why, "data-count": len(ids)})}>'
            f"<td>{esc(why, 300)}</td><td><details><summary>{len(ids)}</summary>{listed}"
            "</details></td></tr>"
        )
    return (
        f"<h3>{esc(engine_name(engine))}: {sum(map(len, reasons.values()))} skipped</h3>"
        '<table class="skipped">' + "".join(rows) + "</table>"
    )


# --- Failures ----------------------------------------------------------------------------


def failure_html(case: dict[str, Any], engine: dict[str, Any], drawn: bool) -> str:
    """One failing (or erring, or unexpectedly passing) case; its divergence drawn if `drawn`."""
    divergence = case.get("divergence") or {}
    data = {
        "data-case": case["id"],
        "data-engine": engine_name(engine),
        "data-rule": case.get("rule"),
        "data-field": case.get("field"),
        "data-status": case.get("status"),
        "data-kind": divergence.get("kind"),
    }
    blamed = (
        f"rule {esc(case.get('rule'), 20)} ({esc(case.get('field'), 200)})"
        if case.get("rule")
        else "no single rule"
    )
    covers = ", ".join(map(str, case.get("rules") or []))
    parts = [
        f'<section class="failure"{attributes(data)}>',
        f"<h3>{esc(str(case.get('status', '')).upper(), 10)} {esc(case['id'], 200)}: "
        f"{esc(case.get('title'), 300)}</h3>",
        f'<p class="blame">{blamed}; the case covers {esc(covers, 200)}</p>',
    ]
    if divergence:
        step = divergence.get("step")
        where = "set-up" if step == 0 else (f"step {step}" if step else "request")
        parts.append(
            f'<p class="step">at {esc(where, 30)}: <code>{esc(divergence.get("sent"))}</code>'
            f" — {esc(divergence.get('what'))}</p>"
        )
        if drawn:
            parts.append(divergence_html(divergence))
    if case.get("message"):
        parts.append(f'<pre class="message">{esc(case["message"])}</pre>')
    parts.append("</section>")
    return "\n".join(parts)


def failures_html(engine: dict[str, Any], show: int) -> str:
    """Every case not passing: must before should, the first failure of each rule before
    the second of any; the first `show` drawn in full."""
    failing = first_of_each_rule([c for c in engine["cases"] if c.get("status") in NOT_PASSING])
    name = esc(engine_name(engine))
    if not failing:
        return f"<h2>{name}: no failure</h2>"
    head = f"<h2>{name}: {len(failing)} not passing</h2>"
    if len(failing) > show:
        head += f"<p>The first {show} are drawn in full (--show N).</p>"
    return head + "\n".join(failure_html(c, engine, i < show) for i, c in enumerate(failing))


# --- The page -----------------------------------------------------------------------------


def header_html(reports: list[dict[str, Any]], columns: list[dict[str, Any]]) -> str:
    versions = sorted({(str(r.get("suite")), str(r.get("protocol"))) for r in reports})
    said = "; ".join(f"suite {esc(s, 40)}, protocol {esc(p, 40)}" for s, p in versions)
    engines = "".join(
        f"<li{attributes({'data-engine': engine_name(e), 'data-version': version(e)})}>"
        f"{esc(engine_name(e))} {esc(version(e), 100)} "
        f"<code>{esc(e.get('engine', ''), 300)}</code></li>"
        for e in columns
    )
    return (
        f'<h1>Dékal conformance</h1>\n<p class="versions">{said}</p>\n'
        f'<ul class="engines">{engines}</ul>'
    )


def html_page(reports: list[dict[str, Any]], show: int = 20) -> str:
    """One page for the engines of every report (checked by check_report), side by side."""
    columns = [engine for report in reports for engine in report["engines"]]
    body = [
        header_html(reports, columns),
        verdicts_html(columns, "first"),
        "<h2>Rules</h2>",
        "<p>A failure or error counts under the rule it breaks; passes and skips under every"
        " rule the case covers.</p>",
        matrix_html(columns),
        "<h2>Coverage</h2>",
        coverage_html(columns),
        *(skipped_html(engine) for engine in columns),
        *(failures_html(engine, show) for engine in columns),
        verdicts_html(columns, "last"),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>Dékal conformance report</title>\n"
        f"<style>\n{STYLE}\n</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


# A shields-style SVG badge of a conformance run: "dekal conformance | 1362/1362".
#
# The figure is the first engine's must-level coverage of what it claims (passed ÷ `must`
# cases whose needs it claims, docs/validate.md "Coverage"): the badge belongs to the engine
# a project publishes, which is the one it runs first (`--engine CMD` judges one engine).
# Green when every claimed must case passes (and there is at least one), red otherwise.
#
# The text is measured with a fixed width per character, so the same report gives the same
# bytes; Verdana 11 px, the badge font, averages close to it.

LABEL = "dekal conformance"
GREEN = "#4c1"
RED = "#e05d44"
GREY = "#555"
CHAR_WIDTH = 7  # px per character at 11 px
PADDING = 6


def badge_figure(report: dict[str, Any]) -> tuple[int, int]:
    """(passed, claimed) of the report's first engine (html_report.check_report's shape)."""
    return figure(report["engines"][0]["coverage"], "claimed")


def badge_svg(passed: int, claimed: int) -> str:
    """The badge for `passed` of `claimed` must cases; its root carries data-passed and
    data-claimed for tools."""
    value = f"{passed}/{claimed}"
    colour = GREEN if claimed and passed == claimed else RED
    left = len(LABEL) * CHAR_WIDTH + 2 * PADDING
    right = len(value) * CHAR_WIDTH + 2 * PADDING
    width = left + right
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NAMESPACE,
            "width": str(width),
            "height": "20",
            "viewBox": f"0 0 {width} 20",
            "role": "img",
            "aria-label": f"{LABEL}: {value}",
            "data-passed": str(passed),
            "data-claimed": str(claimed),
        },
    )
    ET.SubElement(root, "title").text = f"{LABEL}: {value}"
    ET.SubElement(root, "rect", width=str(left), height="20", fill=GREY, rx="3")
    ET.SubElement(root, "rect", x=str(left), width=str(right), height="20", fill=colour, rx="3")
    text = ET.SubElement(
        root,
        "g",
        {"fill": "#fff", "font-family": "Verdana,DejaVu Sans,sans-serif", "font-size": "11"},
    )
    ET.SubElement(text, "text", x=str(PADDING), y="14").text = LABEL
    ET.SubElement(
        text, "text", {"x": str(left + PADDING), "y": "14", "class": "value"}
    ).text = value
    return ET.tostring(root, encoding="unicode") + "\n"


def report_badge(report: dict[str, Any]) -> str:
    return badge_svg(*badge_figure(report))
