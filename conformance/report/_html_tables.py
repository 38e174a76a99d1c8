"""Tables that set an expected value beside an engine's for the HTML report, escaped.

Every text here may come from an engine, so each reaches the page through html.escape and is
cut to SHOWN_CHARS. A row whose two sides differ is `<tr class="differs">`, and within it the
characters where a long text parts from the other side are in <mark> (a pile of 68 cards, a
grids field); rows that agree are folded under a <details>.
"""

from __future__ import annotations

import html
import json
import re

from dekal.conformance.drive._protocol import position_fields

SHOWN_CHARS = 2000  # the most characters of one engine text put on the page
MAX_ROWS = 200  # the most rows of one table (a perft divide can have thousands)
VERDICT = re.compile(r"^(?:[\w ]+: )?expected (?P<expected>.+?), the engine (?P<engine>.+)$")
"""The runner's words for two verdicts: `expected refused with rule T4, the engine accepted`."""


def esc(text: object, limit: int = SHOWN_CHARS) -> str:
    """Text for the page: cut to `limit` characters (its length said), then escaped (quotes
    too: it may land in an attribute); a value that is not text is shown as JSON."""
    if text is None:
        value = ""
    else:
        value = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
    if len(value) > limit:
        value = f"{value[:limit]}… ({len(value)} characters)"
    return html.escape(value, quote=True)


def comparison_table(
    rows: list[tuple[str, str, str]], name: str, head: tuple[str, str, str]
) -> str:
    """One row per item: (label, expected, engine); the rows that differ first and marked
    `differs`, the ones that agree folded under a <details> (they are rarely the point)."""
    differ = [row for row in rows if row[1] != row[2]]
    agree = [row for row in rows if row[1] == row[2]]

    def table(chosen: list[tuple[str, str, str]]) -> str:
        lines = ["<tr>" + "".join(f"<th>{esc(h, 60)}</th>" for h in head) + "</tr>"]
        for label, want, got in chosen[:MAX_ROWS]:
            cls = ' class="differs"' if want != got else ""
            lines.append(
                f'<tr{cls} data-row="{esc(label, 200)}"><td>{esc(label, 200)}</td>'
                f"<td>{marked(want, got)}</td><td>{marked(got, want)}</td></tr>"
            )
        if len(chosen) > MAX_ROWS:
            lines.append(f'<tr><td colspan="3">… and {len(chosen) - MAX_ROWS} more</td></tr>')
        return f'<table class="{name}">' + "".join(lines) + "</table>"

    shown = table(differ) if differ else "<p>No row differs.</p>"
    if agree:
        shown += (
            f"<details><summary>{len(agree)} the same on both sides</summary>"
            f"{table(agree)}</details>"
        )
    return shown


def verdict_table(what: str) -> str:
    """`expected refused with rule T4, the engine accepted` as a two-column table."""
    found = VERDICT.match(what)
    if found is None:
        return ""
    return (
        '<table class="verdict"><tr><th></th><th>expected</th><th>engine</th></tr>'
        f'<tr class="differs"><td>verdict</td><td>{esc(found["expected"], 300)}</td>'
        f"<td>{esc(found['engine'], 300)}</td></tr></table>"
    )


def marked(text: str, other: str, limit: int = SHOWN_CHARS) -> str:
    """`text` escaped, each character that differs from `other`'s at the same place in a
    <mark> (a long field, like a pile of 68 cards, shows where it parts)."""
    if len(text) > limit or text == other:
        return esc(text, limit)
    return "".join(
        html.escape(char) if index < len(other) and other[index] == char
        else f"<mark>{html.escape(char)}</mark>"
        for index, char in enumerate(text)
    )  # fmt: skip


def fields_table(expected: str, actual: str) -> str:
    """The fields of two positions (or public views), the ones that differ marked."""
    want, got = position_fields(expected), position_fields(actual)
    rows = ["<tr><th>field</th><th>expected</th><th>engine</th></tr>"]
    for name in dict.fromkeys([*want, *got]):
        a, b = want.get(name, ""), got.get(name, "")
        cls = ' class="differs"' if a != b else ""
        rows.append(
            f'<tr{cls} data-field="{esc(name, 100)}"><td>{esc(name, 100)}</td>'
            f"<td>{marked(a, b)}</td><td>{marked(b, a)}</td></tr>"
        )
    return '<table class="fields">' + "".join(rows) + "</table>"
