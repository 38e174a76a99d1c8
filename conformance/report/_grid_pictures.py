"""Grids of a failing case drawn as SVG for the HTML report, expected beside engine, with the
cells that matter marked.

The cards come from dekal_ref.svg (same look as every other picture of the project); this
module only reads the grids out of what a divergence holds and marks cells on the drawing:

* a cell that differs between the two sides is outlined and carries `data-differs`:
  `leaked` when the engine shows a card the public view hides (M3), `hidden` when it hides
  one that is shown, `true` for any other difference;
* a cancelled cell (S1, one side's own claim, not recomputed) carries
  `data-state="cancelled"` and is struck through;
* a card of a public view whose value nobody may see shows `?` and has no `data-value`.

An engine's grids are read from its text alone, symbol by symbol: a side that is not a
position the reference can hold (a wrong phase, a leaked pick) is still drawn seat by seat.
Everything here returns SVG or HTML fragments; nothing is executed from the input.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from xml.etree import ElementTree as ET

from dekal.conformance.drive._protocol import position_fields
from dekal_ref.errors import DekalError, NotationError
from dekal_ref.notation import HOLE, SIZE, Grid, cell_name, parse_value
from dekal_ref.position import HIDDEN_LETTERS, parse_position
from dekal_ref.svg import SVG_NAMESPACE, grid_svg, position_svg

DIFFERS = "#e67e22"  # the outline of a cell that differs between expected and engine
STRIKE = "#c0392b"  # the bar through a cancelled card, as dekal_ref.svg draws it
MAX_SEATS = 8
UNKNOWN = "?"  # a public view's face-down card or pick
SHOWN_NOTATION = 300  # the most characters of an unreadable side printed under its picture

Marks = Mapping[str, str]
"""Cells to outline: "seat:cell" (like "1:b2") -> why ("leaked", "hidden" or "true")."""


def escaped(text: str, limit: int = SHOWN_NOTATION) -> str:
    cut = text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"
    return html.escape(cut, quote=True)


def annotated(
    svg: str,
    seat: int | None = None,
    cancelled: Iterable[str] = (),
    differing: Marks | Iterable[str] = (),
    unknown: Iterable[str] = (),
) -> str:
    """A picture of dekal_ref.svg with marks: `cancelled` cells ("b2") struck through,
    `differing` cells ("seat:cell") outlined, `unknown` cells ("seat:cell") showing `?`; the
    cards of a lone grid get `seat` as their data-seat."""
    gone, hidden = set(cancelled), set(unknown)
    marks = dict(differing) if isinstance(differing, Mapping) else dict.fromkeys(differing, "true")
    ET.register_namespace("", SVG_NAMESPACE)
    root = ET.fromstring(svg)
    for group in root.iter(f"{{{SVG_NAMESPACE}}}g"):
        if group.get("class") != "card":
            continue
        if seat is not None:
            group.set("data-seat", str(seat))
        rect = group.find(f"{{{SVG_NAMESPACE}}}rect")
        where = f"{group.get('data-seat')}:{group.get('data-cell')}"
        if where in hidden:
            group.attrib.pop("data-value", None)
            label = group.find(f"{{{SVG_NAMESPACE}}}text")
            if label is not None:
                label.text = UNKNOWN
        if group.get("data-cell") in gone:
            group.set("data-state", "cancelled")
            if rect is not None:
                rect.set("fill", "#ececec")
            group.append(
                ET.Element(
                    f"{{{SVG_NAMESPACE}}}line",
                    {"x1": "6", "y1": "34", "x2": "34", "y2": "6", "stroke": STRIKE,
                     "stroke-width": "2"},
                )
            )  # fmt: skip
        if where in marks:
            group.set("data-differs", marks[where])
            if rect is not None:
                rect.set("stroke", DIFFERS)
                rect.set("stroke-width", "4")
    return ET.tostring(root, encoding="unicode")


def picture(side: str, svg: str | None, notation: str) -> str:
    """One side (expected or engine): its SVG, or its notation as text when it does not read
    (nothing at all on a side that gave none: a refusal has no grid)."""
    if svg is not None:
        body = svg
    elif notation:
        body = f"<pre>{escaped(notation)}</pre><p>(not a readable notation)</p>"
    else:
        body = '<p class="none">none given</p>'
    title = "expected" if side == "expected" else "engine"
    return f'<div class="picture" data-side="{side}"><h4>{title}</h4>{body}</div>'


# --- Reading grids out of text ------------------------------------------------------------


def read_grid(text: str) -> tuple[Grid, frozenset[int], frozenset[int]] | None:
    """One grid in notation, public views included: (values, face-down cells, cells whose
    value is unknown `?`); None when it does not read. An unknown value is drawn as 1 and
    then relabelled `?` (annotated)."""
    rows = text.split("/")
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        return None
    values, down, unknown = [], set(), set()
    for cell, symbol in enumerate("".join(rows)):
        if symbol == ".":
            values.append(HOLE)
        elif symbol == UNKNOWN:
            values.append(1)
            down.add(cell)
            unknown.add(cell)
        elif symbol in HIDDEN_LETTERS:
            values.append(HIDDEN_LETTERS.index(symbol) + 1)
            down.add(cell)
        else:
            try:
                values.append(parse_value(symbol, "grids"))
            except NotationError:
                return None
    return tuple(values), frozenset(down), frozenset(unknown)


def grids_field(position: str) -> list[str]:
    """Each seat's grid (notation) of a position or public view."""
    return position_fields(position).get("grids", "").split("|")


def differing_cells(expected: list[str], actual: list[str]) -> dict[str, str]:
    """The cells ("seat:cell") whose symbol differs between two lists of grids, each with
    why: `leaked` (expected `?`, the engine shows a card), `hidden` (the other way), `true`."""
    cells: dict[str, str] = {}
    for seat in range(min(max(len(expected), len(actual)), MAX_SEATS)):
        a = expected[seat].replace("/", "") if seat < len(expected) else ""
        b = actual[seat].replace("/", "") if seat < len(actual) else ""
        for cell in range(SIZE * SIZE):
            want, got = a[cell : cell + 1], b[cell : cell + 1]
            if want == got:
                continue
            why = "leaked" if want == UNKNOWN else "hidden" if got == UNKNOWN else "true"
            cells[f"{seat}:{cell_name(cell)}"] = why
    return cells


def seat_pictures(grids: list[str], marks: Marks) -> str:
    """Each seat's grid drawn alone, `marks` outlined; empty when a grid does not read (the
    caller prints the text instead)."""
    if not 0 < len(grids) <= MAX_SEATS:
        return ""
    drawn = []
    for seat, text in enumerate(grids):
        read = read_grid(text)
        if read is None:
            return ""
        grid, down, unknown = read
        svg = grid_svg(grid, face_down=down, scored=False)
        unknown_cells = {f"{seat}:{cell_name(cell)}" for cell in unknown}
        svg = annotated(svg, seat, (), marks, unknown_cells)
        drawn.append(f'<div class="seat" data-seat="{seat}"><p>seat {seat}</p>{svg}</div>')
    return f'<div class="seats">{"".join(drawn)}</div>'


# --- Pictures of each kind of divergence --------------------------------------------------


def position_pictures(expected: str, actual: str) -> str:
    """Both positions side by side (position_svg), or, when one is not a position the
    reference can hold, both sides' grids seat by seat; differing cells outlined."""
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
    return grids_pictures(grids_field(expected), grids_field(actual), expected, actual)


def grids_pictures(
    expected: list[str], actual: list[str], expected_text: str, actual_text: str
) -> str:
    """Two lists of seat grids (a public view's, a deal's), seat by seat, differences marked
    by why (leaked, hidden, other); a side that does not read is printed as its text."""
    marks = differing_cells(expected, actual)
    return "".join(
        picture(side, seat_pictures(grids, marks) or None, text)
        for side, grids, text in (
            ("expected", expected, expected_text),
            ("engine", actual, actual_text),
        )
    )


def grid_picture(
    text: str, cancelled: Iterable[str], differing: Iterable[str], seat: int = 0
) -> str | None:
    """One grid (a `score` or `push` request's), cancelled cells struck, differences outlined."""
    read = read_grid(text)
    if read is None:
        return None
    grid, down, _ = read
    try:
        return annotated(grid_svg(grid, face_down=down, scored=False), seat, cancelled, differing)
    except (DekalError, ValueError, IndexError, ET.ParseError):
        return None


def cancelled_pictures(grid: str, seat: int, expected: list[str], actual: list[str]) -> str:
    """One seat's final grid twice: struck through where the reference cancels (S1), and
    where the engine says it does; the cells they disagree on outlined. Empty if the grid
    does not read."""
    differs = {f"{seat}:{cell}" for cell in set(expected) ^ set(actual)}
    sides = [grid_picture(grid, cells, differs, seat) for cells in (expected, actual)]
    if any(svg is None for svg in sides):
        return ""
    return "".join(
        picture(side, svg, grid) for side, svg in zip(("expected", "engine"), sides, strict=True)
    )
