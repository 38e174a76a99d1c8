"""A conformance report as one self-contained HTML page, drawn from JSON reports (report.py).

The page reads without JavaScript and loads nothing: inline CSS, inline SVG pictures
(dekal_ref.svg). It holds a header (suite, protocol, each engine's name and version), the
rule × engine matrix (a failure counts under the rule it breaks, as in the text report),
the two coverage figures per engine, and each failure with its first diverging step drawn:
positions and grids as SVG side by side, a result as a table, anything else as text.

The input is the JSON of `dekal conformance run --json` (report_version 1), possibly read
back from a file: everything in it, and above all what an engine said, is untrusted. So
`check_report` reads the shape before anything is drawn, every text reaches the page
through html.escape (or an SVG serializer), and engine text is cut to SHOWN_CHARS.

Elements carry data attributes that tools and tests read without parsing the drawing:

    <td class="cell fail" data-rule="T5" data-engine="dekal-js" data-pass="9" data-fail="19" …>
    <section class="failure" data-case="game-0005" data-engine="…" data-rule="T5"
             data-field="phase" data-status="fail" data-kind="position">
    <div class="picture" data-side="expected"> (or "engine") around each SVG
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from typing import Any
from xml.etree import ElementTree as ET

from dekal.conformance.coverage import RULE_ORDER
from dekal.conformance.protocol import position_fields
from dekal_ref.errors import DekalError, NotationError
from dekal_ref.json_reading import read_json
from dekal_ref.notation import HOLE, SIZE, Grid, cell_name, parse_grid, parse_value
from dekal_ref.position import HIDDEN_LETTERS, parse_position
from dekal_ref.reading import shortened
from dekal_ref.svg import SVG_NAMESPACE, grid_svg, position_svg

KNOWN_VERSIONS = (1,)
"""The report_version values this module reads (dekal.conformance.report.REPORT_VERSION)."""

STATUSES = ("pass", "fail", "error", "skip", "xfail", "xpass")
NOT_PASSING = ("fail", "error", "xfail", "xpass")
SHOWN_CHARS = 2000
"""The most characters of one engine text (a message, a position, a reply) put on the page."""

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
td.cell { text-align: right; font-variant-numeric: tabular-nums; }
.pass { background: #e3f4e1; } .fail { background: #f9d6d2; }
.error { background: #fbe3b8; } .skip { background: #eeeeee; color: #666; }
.none { color: #aaa; }
section.failure { border-top: 1px solid #ccc; padding: 0.5em 0; }
.pictures, .seats { display: flex; flex-wrap: wrap; gap: 1.5em; }
.picture h4 { margin: 0.2em 0; }
pre { background: #f6f6f6; padding: 0.5em; white-space: pre-wrap; word-break: break-all; }
tr.differs { background: #f9d6d2; }
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


def esc(text: object, limit: int = SHOWN_CHARS) -> str:
    """Text for the page: cut, then escaped (quotes too: it may land in an attribute)."""
    return html.escape(_short("" if text is None else text, limit), quote=True)


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
    """Rules M1…B1 down, one column per engine; each cell counts its cases by status."""
    head = "".join(
        f"<th{attributes({'data-engine': engine_name(e), 'data-column': i})}>"
        f"{esc(engine_name(e))}</th>"
        for i, e in enumerate(columns)
    )
    rows = [f'<tr><th scope="col">rule</th>{head}</tr>']
    for rule in RULE_ORDER:
        cells = []
        for column, engine in enumerate(columns):
            row = engine["rules"].get(rule, {})
            counts = {status: _count(row, status) for status in STATUSES}
            shown = [f"{counts[s]} {s}" for s in STATUSES if counts[s]]
            data = {
                "data-rule": rule,
                "data-engine": engine_name(engine),
                "data-column": column,
                **{f"data-{s}": counts[s] for s in STATUSES},
            }
            cls = cell_class(counts)
            cells.append(
                f'<td class="cell {cls}"{attributes(data)}>{esc(", ".join(shown) or "·")}</td>'
            )
        rows.append(f'<tr data-rule="{rule}"><th scope="row">{rule}</th>{"".join(cells)}</tr>')
    return '<table class="matrix">\n' + "\n".join(rows) + "\n</table>"


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
    apart = [(e, e["coverage"].get("cannot_run") or {}) for e in columns]  # own-deal mode
    notes = [f'<p class="cannot-run">{esc(engine_name(e))}: {n["count"]} cases cannot be run in'
             f' this mode ({esc(n["reason"])}); not counted as claimed.</p>'
             for e, n in apart if n.get("count")]  # fmt: skip
    return '<table class="coverage">\n' + "\n".join(rows) + "\n</table>" + "".join(notes)


# --- Pictures of a divergence -------------------------------------------------------------


DIFFERS = "#e67e22"  # the outline of a cell that differs between expected and engine
MAX_SEATS = 8


def annotated(
    svg: str, seat: int | None = None, cancelled: Iterable[str] = (), differing: Iterable[str] = ()
) -> str:
    """A picture of dekal_ref.svg with `cancelled` cells drawn cancelled (a side's own claim,
    not recomputed) and `differing` cells ("seat:cell", like "1:b2") outlined and marked
    data-differs="true"; the cards of a lone grid get `seat` as their data-seat."""
    gone, differs = set(cancelled), set(differing)
    ET.register_namespace("", SVG_NAMESPACE)
    root = ET.fromstring(svg)
    for group in root.iter(f"{{{SVG_NAMESPACE}}}g"):
        if group.get("class") != "card":
            continue
        if seat is not None:
            group.set("data-seat", str(seat))
        rect = group.find(f"{{{SVG_NAMESPACE}}}rect")
        if group.get("data-cell") in gone:
            group.set("data-state", "cancelled")
            if rect is not None:
                rect.set("fill", "#ececec")
            group.append(
                ET.Element(
                    f"{{{SVG_NAMESPACE}}}line",
                    {"x1": "6", "y1": "34", "x2": "34", "y2": "6", "stroke": "#c0392b",
                     "stroke-width": "2"},
                )
            )  # fmt: skip
        if f"{group.get('data-seat')}:{group.get('data-cell')}" in differs:
            group.set("data-differs", "true")
            if rect is not None:
                rect.set("stroke", DIFFERS)
                rect.set("stroke-width", "4")
    return ET.tostring(root, encoding="unicode")


def picture(side: str, svg: str | None, notation: str) -> str:
    """One side (expected or engine): its SVG, or its notation as text when it does not read."""
    body = svg if svg is not None else f"<pre>{esc(notation)}</pre><p>(not a readable notation)</p>"
    title = "expected" if side == "expected" else "engine"
    return f'<div class="picture" data-side="{side}"><h4>{title}</h4>{body}</div>'


def seat_grids(position: str) -> list[tuple[Grid, frozenset[int]]] | None:
    """Each seat's grid and face-down cells, read from the grids field alone: an engine's
    position can be wrong elsewhere (not even a consistent game state) and still be drawn."""
    seats = grids_field(position)
    if not 0 < len(seats) <= MAX_SEATS:
        return None
    grids = []
    for text in seats:
        rows = text.split("/")
        if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
            return None
        values, down = [], set()
        for cell, symbol in enumerate("".join(rows)):
            if symbol == ".":
                values.append(HOLE)
            elif symbol in HIDDEN_LETTERS:
                values.append(HIDDEN_LETTERS.index(symbol) + 1)
                down.add(cell)
            else:
                try:
                    values.append(parse_value(symbol, "grids"))
                except NotationError:
                    return None
        grids.append((tuple(values), frozenset(down)))
    return grids


def differing_cells(expected: list[str], actual: list[str]) -> set[str]:
    """The cells ("seat:cell") whose symbol differs between two lists of grids (notation)."""
    cells = set()
    for seat in range(min(max(len(expected), len(actual)), MAX_SEATS)):
        a = expected[seat].replace("/", "") if seat < len(expected) else ""
        b = actual[seat].replace("/", "") if seat < len(actual) else ""
        for cell in range(SIZE * SIZE):
            if a[cell : cell + 1] != b[cell : cell + 1]:
                cells.add(f"{seat}:{cell_name(cell)}")
    return cells


def grids_field(position: str) -> list[str]:
    return position_fields(position).get("grids", "").split("|")


def position_pictures(expected: str, actual: str) -> str:
    """Both positions side by side (position_svg), or, when one is not a position the
    reference can hold, both sides' grids seat by seat (grid_svg); differing cells outlined."""
    differs = differing_cells(grids_field(expected), grids_field(actual))
    try:
        sides = [position_svg(parse_position(expected)), position_svg(parse_position(actual))]
        return "".join(
            picture(side, annotated(svg, differing=differs), text)
            for side, svg, text in zip(
                ("expected", "engine"), sides, (expected, actual), strict=True
            )
        )
    except (DekalError, ValueError, IndexError):
        pass
    drawn = []
    for side, text in (("expected", expected), ("engine", actual)):
        grids = seat_grids(text)
        svg = None
        if grids is not None:
            svg = "".join(
                f'<div class="seat" data-seat="{seat}"><p>seat {seat}</p>'
                + annotated(grid_svg(grid, face_down=down, scored=False), seat, (), differs)
                + "</div>"
                for seat, (grid, down) in enumerate(grids)
            )
            svg = f'<div class="seats">{svg}</div>'
        drawn.append(picture(side, svg, text))
    return "".join(drawn)


def grid_picture(text: str, cancelled: Iterable[str], differing: Iterable[str]) -> str | None:
    try:
        return annotated(grid_svg(parse_grid(text), scored=False), 0, cancelled, differing)
    except (DekalError, ValueError, IndexError, ET.ParseError):
        return None


def fields_html(expected: str, actual: str) -> str:
    """The fields of two positions, the ones that differ marked."""
    want, got = position_fields(expected), position_fields(actual)
    rows = ["<tr><th>field</th><th>expected</th><th>engine</th></tr>"]
    for name in dict.fromkeys([*want, *got]):
        a, b = want.get(name, ""), got.get(name, "")
        cls = ' class="differs"' if a != b else ""
        rows.append(
            f'<tr{cls} data-field="{esc(name, 100)}"><td>{esc(name, 100)}</td>'
            f"<td>{esc(a)}</td><td>{esc(b)}</td></tr>"
        )
    return '<table class="fields">' + "".join(rows) + "</table>"


def result_html(expected: str, actual: str) -> str:
    """A result divergence: seat by seat, points, cards left, total and cancelled cells."""
    try:
        want, got = read_json(expected, "expected"), read_json(actual, "engine")
        rows = ["<tr><th>seat</th><th>side</th><th>points</th><th>cards left</th>"
                "<th>total</th><th>cancelled</th></tr>"]  # fmt: skip
        seats = min(max(len(want["scores"]), len(got["scores"])), MAX_SEATS)
        for seat in range(seats):
            sides = [("expected", _seat(want, seat)), ("engine", _seat(got, seat))]
            cls = ' class="differs"' if sides[0][1] != sides[1][1] else ""
            for side, values in sides:
                cells = "".join(f"<td>{esc(v)}</td>" for v in values)
                rows.append(f'<tr{cls} data-seat="{seat}" data-side="{side}"><td>{seat}</td>'
                            f"<td>{side}</td>{cells}</tr>")  # fmt: skip
        ranking = (
            f"<p>ranking, expected: {esc(want.get('ranking'))}; "
            f"engine: {esc(got.get('ranking'))}</p>"
        )
        return '<table class="result">' + "".join(rows) + "</table>" + ranking
    except (NotationError, KeyError, TypeError, AttributeError):
        return text_html(expected, actual)


def _seat(result: dict[str, Any], seat: int) -> tuple[object, ...]:
    scores, totals = result["scores"], result.get("totals")
    score = scores[seat] if seat < len(scores) and isinstance(scores[seat], dict) else {}
    total = totals[seat] if isinstance(totals, list) and seat < len(totals) else None
    cancelled = score.get("cancelled")
    cells = " ".join(map(str, cancelled)) if isinstance(cancelled, list) else cancelled
    return (score.get("points"), score.get("remaining"), total, cells)


def text_html(expected: str, actual: str) -> str:
    return f"<pre>expected: {esc(expected)}\nengine:   {esc(actual)}</pre>"


def divergence_html(divergence: dict[str, Any]) -> str:
    """The first diverging step, drawn by its kind."""
    kind = divergence.get("kind")
    expected, actual = str(divergence.get("expected") or ""), str(divergence.get("actual") or "")
    if kind == "position" and expected and actual:
        pictures = position_pictures(expected, actual)
        return fields_html(expected, actual) + f'<div class="pictures">{pictures}</div>'
    if kind == "grid" and expected and actual:
        marks = divergence.get("marks")
        pair = marks if isinstance(marks, list) and len(marks) == 2 else [[], []]
        sides = [[str(c) for c in m] if isinstance(m, list) else [] for m in pair]
        differs = {f"0:{cell}" for cell in set(sides[0]) ^ set(sides[1])}
        differs |= differing_cells([expected], [actual])
        pictures = picture("expected", grid_picture(expected, sides[0], differs), expected)
        pictures += picture("engine", grid_picture(actual, sides[1], differs), actual)
        note = "<p>Cancelled cells are struck through.</p>" if any(sides) else ""
        return f'<div class="pictures">{pictures}</div>{note}'
    if kind == "result":
        return result_html(expected, actual)
    return text_html(expected, actual) if expected or actual else ""


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
    failing = [c for c in engine["cases"] if c.get("status") in NOT_PASSING]
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
        "<h2>Rules</h2>",
        "<p>A failure or error counts under the rule it breaks; passes and skips under every"
        " rule the case covers.</p>",
        matrix_html(columns),
        "<h2>Coverage</h2>",
        coverage_html(columns),
        *(failures_html(engine, show) for engine in columns),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>Dékal conformance report</title>\n"
        f"<style>\n{STYLE}\n</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )
