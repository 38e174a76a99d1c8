"""A failing case's first divergence drawn for the HTML report: one drawing per kind.

Every divergence the runner can produce (dekal.conformance.judge._runner.Divergence) gets a picture
or a table, chosen by `drawing_of` from what it holds:

    position  positions (or their grids) side by side, the fields table, differing cells outlined
    public    the public views' grids seat by seat, the leaked or hidden cells outlined (M3)
    grid      a `score` or `push` grid, both sides, cancelled cells struck, differences outlined
    result    the scores seat by seat and the ranking row by row, the differing rows marked;
              each seat whose cancelled cells differ drawn on its final grid, both ways
    actions   legal actions or pushes, one row each: listed by the reference, by the engine
    twice     an action the engine lists twice
    perft     the perft count and the divide entries that differ, then where the moves part
    deal      a seeded deal: each seat's grid both ways, the pile as a table
    answer    any other answer (JSON): one row per value, the differing ones marked
    verdict   accepted against refused, or another rule: a two-column table
    values    anything else: the expected and engine values as a table (never raw text)

The drawing is named in the wrapper's `data-drawing`; a verdict that differs is tabled above
the picture of any kind. All input is untrusted: texts go through html.escape (grid_pictures
for the pictures) and are cut; nothing is parsed beyond JSON and the grids' notation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from dekal.conformance.drive._protocol import position_fields
from dekal.conformance.report._grid_pictures import (
    MAX_SEATS,
    cancelled_pictures,
    differing_cells,
    grid_picture,
    grids_field,
    grids_pictures,
    picture,
    position_pictures,
    read_grid,
)
from dekal.conformance.report._html_tables import (
    VERDICT,
    comparison_table,
    esc,
    fields_table,
    verdict_table,
)
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import read_json

VERBS = ("reveal", "take", "push", "new_round")  # the words that start an action
PERFT_ENTRY = re.compile(r"^\s+(?P<node>.+?): expected (?P<expected>.+), engine (?P<engine>.+)$")
PERFT_NODES = re.compile(r"^nodes: expected (?P<expected>.+), engine (?P<engine>.+)$")

Divergence = dict[str, Any]
WHY = {"leaked": "leaked: M3 hides it", "hidden": "hidden: it is public", "true": "another card"}


def texts(divergence: Divergence) -> tuple[str, str]:
    expected, actual = divergence.get("expected"), divergence.get("actual")
    return (
        expected if isinstance(expected, str) else "",
        actual if isinstance(actual, str) else "",
    )


def field_of(divergence: Divergence) -> str:
    field = divergence.get("field")
    return field if isinstance(field, str) else ""


def what_of(divergence: Divergence) -> str:
    what = divergence.get("what")
    return what if isinstance(what, str) else ""


def pictures(inner: str) -> str:
    return f'<div class="pictures">{inner}</div>'


# --- One drawing per kind -----------------------------------------------------------------


CARD_FIELDS = ("centre", "pile", "removed")  # the cards a position lists outside the grids


def draw_position(divergence: Divergence) -> str:
    """The fields table, then both positions drawn; when only cards outside the grids differ
    (the centre, the pile, the removed cards), those card by card instead of the same grids
    twice."""
    expected, actual = texts(divergence)
    want, got = position_fields(expected), position_fields(actual)
    differing = {name for name in {*want, *got} if want.get(name) != got.get(name)}
    if not differing or not differing <= set(CARD_FIELDS):
        return fields_table(expected, actual) + pictures(position_pictures(expected, actual))
    parts = [
        fields_table(expected, actual),
        '<p class="same">every grid is the same on both sides</p>',
    ]
    for name in CARD_FIELDS:
        a, b = want.get(name, ""), got.get(name, "")
        if a != b:
            a, b = ("" if a == "-" else a), ("" if b == "-" else b)
            rows = [
                (
                    f"{name}, card {k + 1}",
                    a[k] if k < len(a) else "absent",
                    b[k] if k < len(b) else "absent",
                )
                for k in range(max(len(a), len(b)))
            ]
            parts.append(comparison_table(rows, f"cards {name}", (name, "expected", "engine")))
    return "".join(parts)


def draw_public(divergence: Divergence) -> str:
    """M3: the engine's public view shows a card or pick nobody may see (leaked), or hides
    one everybody sees; its grids drawn beside the expected public view."""
    expected, actual = texts(divergence)
    want, got = grids_field(expected), grids_field(actual)
    drawn = grids_pictures(want, got, expected, actual)
    note = (
        "<p>A public view shows <code>?</code> for a face-down card or a pick (M3). Outlined: "
        "a cell the engine shows but should hide (leaked), or hides but should show.</p>"
    )
    rows = [
        (f"seat {at.replace(':', ' ')}: {WHY[why]}", symbol(want, at), symbol(got, at))
        for at, why in differing_cells(want, got).items()
    ]
    cells = comparison_table(rows, "cells", ("cell", "expected", "engine")) if rows else ""
    return fields_table(expected, actual) + pictures(drawn) + note + cells


def symbol(grids: list[str], where: str) -> str:
    """The symbol a list of grids shows at "seat:cell" ("" when it has none)."""
    seat, _, cell = where.partition(":")
    if not seat.isdigit() or int(seat) >= len(grids) or len(cell) != 2:
        return ""
    index = (int(cell[1]) - 1) * 4 + "abcd".index(cell[0])
    return grids[int(seat)].replace("/", "")[index : index + 1]


def draw_grid(divergence: Divergence) -> str:
    expected, actual = texts(divergence)
    marks = divergence.get("marks")
    pair = marks if isinstance(marks, list) and len(marks) == 2 else [[], []]
    sides = [[str(c) for c in m] if isinstance(m, list) else [] for m in pair]
    differs = {f"0:{cell}" for cell in set(sides[0]) ^ set(sides[1])}
    if expected and actual:  # a side that gave no grid (a refusal) differs as a whole
        differs |= set(differing_cells([expected], [actual]))
    drawn = picture("expected", grid_picture(expected, sides[0], differs), expected)
    drawn += picture("engine", grid_picture(actual, sides[1], differs), actual)
    note = "<p>Cancelled cells are struck through.</p>" if any(sides) else ""
    return pictures(drawn) + note


def draw_result(divergence: Divergence) -> str:
    """A result (S1–S4): scores seat by seat, the ranking row by row, the cancelled cells of
    each seat where they differ drawn on its final grid (the divergence's context)."""
    expected, actual = texts(divergence)
    try:
        want, got = read_json(expected, "expected"), read_json(actual, "engine")
        seats = min(max(len(want["scores"]), len(got["scores"])), MAX_SEATS)
        rows = ["<tr><th>seat</th><th>side</th><th>points</th><th>cards left</th>"
                "<th>total</th><th>cancelled</th></tr>"]  # fmt: skip
        for seat in range(seats):
            sides = [("expected", seat_row(want, seat)), ("engine", seat_row(got, seat))]
            cls = ' class="differs"' if sides[0][1] != sides[1][1] else ""
            for side, values in sides:
                cells = "".join(f"<td>{esc(v, 200)}</td>" for v in values[:3])
                count = len(values[3])
                rows.append(
                    f'<tr{cls} data-seat="{seat}" data-side="{side}"><td>{seat}</td>'
                    f"<td>{side}</td>{cells}<td>{count} card{'' if count == 1 else 's'}</td></tr>"
                )
        drawn = '<table class="result">' + "".join(rows) + "</table>"
        drawn += ranking_table(want.get("ranking"), got.get("ranking"))
        context = divergence.get("context")
        grids = grids_field(context) if isinstance(context, str) and context else []
        for seat in range(seats):
            cancelled = seat_row(want, seat)[3], seat_row(got, seat)[3]
            if cancelled[0] == cancelled[1]:
                continue
            grid = cancelled_pictures(grids[seat], seat, *cancelled) if seat < len(grids) else ""
            drawn += f"<h4>seat {seat}: cancelled cells (S1), struck through</h4>"
            drawn += pictures(grid) if grid else comparison_table(
                [("cancelled", " ".join(cancelled[0]), " ".join(cancelled[1]))],
                "cancelled", ("", "expected", "engine"),
            )  # fmt: skip
        return drawn
    except (NotationError, KeyError, TypeError, AttributeError):
        return draw_values(divergence)


def seat_row(result: dict[str, Any], seat: int) -> tuple[object, object, object, list[str]]:
    """(points, cards left, total, cancelled cells) of one seat in a result (runner's shape)."""
    scores, totals = result["scores"], result.get("totals")
    score = scores[seat] if seat < len(scores) and isinstance(scores[seat], dict) else {}
    total = totals[seat] if isinstance(totals, list) and seat < len(totals) else None
    cancelled = score.get("cancelled")
    cells = [str(cell) for cell in cancelled] if isinstance(cancelled, list) else []
    return score.get("points"), score.get("remaining"), total, cells


def ranking_table(expected: object, actual: object) -> str:
    """The rankings ([place, seat] pairs, in the order given) row by row: `1st: seat 0`."""
    want = expected if isinstance(expected, list) else []
    got = actual if isinstance(actual, list) else []
    rows = []
    for index in range(min(max(len(want), len(got)), MAX_SEATS * 2)):
        a = placed(want[index]) if index < len(want) else "(none)"
        b = placed(got[index]) if index < len(got) else "(none)"
        rows.append((f"row {index + 1}", a, b))
    head = "<h4>ranking (place: seat, in the order given)</h4>"
    return head + comparison_table(rows, "ranking", ("", "expected", "engine"))


def placed(pair: object) -> str:
    if isinstance(pair, list) and len(pair) == 2:
        place, seat = pair
        return f"place {place}: seat {seat}"
    return json.dumps(pair)


def actions_of(text: str) -> list[str]:
    """A space-joined list of actions (`reveal 0 a1 reveal 0 b1`) or pushes (`L R B`) split
    back: a verb starts an action."""
    items: list[str] = []
    for word in text.split():
        if word in VERBS or not items or items[-1].split()[0] not in VERBS:
            items.append(word)
        else:
            items[-1] += f" {word}"
    return items


def draw_actions(divergence: Divergence) -> str:
    """Legal actions (or pushes): every one either side lists, with who lists it."""
    expected, actual = texts(divergence)
    want, got = actions_of(expected), actions_of(actual)
    rows = [
        (item, "listed" if item in want else "—", "listed" if item in got else "—")
        for item in dict.fromkeys([*want, *got])
    ]
    name = field_of(divergence) or "legal actions"
    return comparison_table(rows, "actions", (name, "expected", "engine"))


def draw_twice(divergence: Divergence) -> str:
    """The engine lists an action twice: the runner names them after `listed twice:`."""
    listed = what_of(divergence).partition("listed twice:")[2]
    names = re.findall(r"'((?:[^'\\]|\\.)*)'", listed) or [listed.strip()]
    rows = [(name, "once", "twice or more") for name in names]
    return comparison_table(rows, "actions", (field_of(divergence), "expected", "engine"))


def draw_perft(divergence: Divergence) -> str:
    """The runner's perft account (actual): the node count, the divide entries that differ,
    then the first position whose moves differ."""
    rows, notes = [], []
    for line in texts(divergence)[1].splitlines():
        nodes, entry = PERFT_NODES.match(line), PERFT_ENTRY.match(line)
        if nodes:
            rows.append(("nodes (total)", nodes["expected"], nodes["engine"]))
        elif entry:
            rows.append((entry["node"], entry["expected"], entry["engine"]))
        elif line.strip() not in ("", "…"):
            notes.append(f"<p>{esc(line.strip(), 500)}</p>")
    return comparison_table(rows, "perft", ("node", "expected", "engine")) + "".join(notes)


def draw_deal(divergence: Divergence) -> str:
    """A seeded deal (M3): each seat's grid both ways, then the pile."""
    expected, actual = texts(divergence)
    try:
        want, got = read_json(expected, "expected"), read_json(actual, "engine")
        grids = [
            [str(g) for g in side.get("grids", [])] if isinstance(side, dict) else []
            for side in (want, got)
        ]
        drawn = pictures(grids_pictures(grids[0], grids[1], expected, actual))
        piles = [str(side.get("pile")) if isinstance(side, dict) else "" for side in (want, got)]
        rows = [
            ("pile", piles[0], piles[1]),
            ("cards in the pile", pile_size(piles[0]), pile_size(piles[1])),
        ]
        return drawn + comparison_table(rows, "deal", ("", "expected", "engine"))
    except (NotationError, TypeError, AttributeError):
        return draw_values(divergence)


def pile_size(pile: str) -> str:
    return "0" if pile in ("-", "") else str(len(pile))


def draw_answer(divergence: Divergence) -> str:
    """An answer as JSON: one row per value, nested keys joined by `›`."""
    expected, actual = texts(divergence)
    want, got = flattened(read_json(expected, "expected")), flattened(read_json(actual, "engine"))
    rows = [(key, want.get(key, "—"), got.get(key, "—")) for key in dict.fromkeys([*want, *got])]
    return comparison_table(rows, "answer", ("value", "expected", "engine"))


def flattened(value: object, prefix: str = "") -> dict[str, str]:
    """A JSON value as path -> JSON text of each leaf (objects and lists walked)."""
    if isinstance(value, dict) and value:
        found: dict[str, str] = {}
        for key, item in value.items():
            found.update(flattened(item, f"{prefix} › {key}" if prefix else str(key)))
        return found
    if isinstance(value, list) and value:
        found = {}
        for index, item in enumerate(value):
            found.update(flattened(item, f"{prefix} › {index}" if prefix else str(index)))
        return found
    return {prefix or "(the answer)": json.dumps(value, ensure_ascii=False)}


def draw_verdict(divergence: Divergence) -> str:
    return verdict_table(what_of(divergence))


def draw_values(divergence: Divergence) -> str:
    """The last resort: whatever the divergence holds, as a table (what, expected, engine)."""
    expected, actual = texts(divergence)
    rows = [(field_of(divergence) or "value", expected or "—", actual or "—")]
    if not expected and not actual:
        rows = [("what differs", what_of(divergence) or "—", "")]
    return comparison_table(rows, "values", ("", "expected", "engine"))


DRAWINGS: dict[str, Callable[[Divergence], str]] = {
    "position": draw_position,
    "public": draw_public,
    "grid": draw_grid,
    "result": draw_result,
    "actions": draw_actions,
    "twice": draw_twice,
    "perft": draw_perft,
    "deal": draw_deal,
    "answer": draw_answer,
    "verdict": draw_verdict,
    "values": draw_values,
}
"""Every drawing, by the name `drawing_of` gives; `values` is the last resort."""


def is_json_object(text: str) -> bool:
    try:
        return isinstance(read_json(text, "answer"), dict)
    except NotationError:
        return False


def drawing_of(divergence: Divergence) -> str:
    """The drawing for a divergence, read from its kind, its field and what it holds."""
    kind, field, what = divergence.get("kind"), field_of(divergence), what_of(divergence)
    expected, actual = texts(divergence)
    if kind == "position" and expected and actual:
        return "position"
    if kind == "grid" and (read_grid(expected) or read_grid(actual)):
        return "grid"
    if kind == "result" and expected and actual:
        return "result"
    if (field == "public view" or "public view" in what) and expected and actual:
        return "public"
    if "listed twice:" in what:
        return "twice"
    if field.startswith("legal") and (expected or actual):
        return "actions"
    if what.startswith("the perft count differs") and actual.startswith("nodes:"):
        return "perft"
    if field == "deal" and is_json_object(expected) and is_json_object(actual):
        return "deal"
    if is_json_object(expected) and is_json_object(actual):
        return "answer"
    if not expected and not actual and VERDICT.match(what):
        return "verdict"
    return "values"


def divergence_html(divergence: Divergence) -> str:
    """The first diverging step drawn by `drawing_of`, in a <div data-drawing=…>; a verdict
    that differs is tabled first whatever the drawing."""
    name = drawing_of(divergence)
    verdict = "" if name == "verdict" else verdict_table(what_of(divergence))
    body = DRAWINGS[name](divergence)
    if "<svg" not in body and "<table" not in body:  # nothing in it read: table it as it is
        name, body = "values", draw_values(divergence)
    return f'<div class="drawing" data-drawing="{name}">{verdict}{body}{legend_html(body)}</div>'


LEGEND = (  # (what in a drawing shows the mark, what the mark means)
    ('data-differs="', "outlined: a cell that differs between the two sides"),
    ('data-state="face-down"', "dark: a face-down card (its value drawn, unseen by the players)"),
    ('data-state="hole"', "dashed: the hole, the empty cell a push fills"),
    ('data-state="cancelled"', "struck through: a card S1 cancels"),
    ('data-picked="true"', "thick border: a cell picked this turn, not revealed yet"),
    ('class="differs"', "highlighted row: the two sides differ"),
)


def legend_html(body: str) -> str:
    """A legend for the marks the drawing holds (none when it holds none)."""
    items = [meaning for mark, meaning in LEGEND if mark in body]
    if not items:
        return ""
    return '<p class="legend">' + "; ".join(esc(item) for item in items) + ".</p>"
