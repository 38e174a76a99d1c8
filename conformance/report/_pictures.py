"""Expected and actual positions (or grids) drawn side by side, differences marked.

Plain text on purpose: it reads the same in a terminal, a CI log and a JUnit report. In a
grid, a face-up card is its value (`7`, `T`), a face-down card its value after a dot (`·7`),
the hole `.`; a cell that differs between the two sides carries a `*`, a cancelled cell is
bracketed (`[7]`). A result is a small table, seat by seat, expected beside engine.
"""

from __future__ import annotations

import json
from typing import Any

from dekal.conformance.drive._protocol import position_fields
from dekal_ref.position import HIDDEN_LETTERS, POSITION_FIELDS

CELL_WIDTH = 4
GRID_LEGEND = "(* a cell that differs; ·7 a face-down 7; . the hole)"
COLUMN_GAP = "    "


def _symbol(symbol: str) -> str:
    if symbol in HIDDEN_LETTERS:
        value = HIDDEN_LETTERS.index(symbol) + 1
        return "·" + ("T" if value == 10 else str(value))
    return symbol


def _rows(grid: str) -> list[list[str]]:
    rows = grid.split("/")
    return [list(row) for row in rows]


def grid_lines(grid: str, other: str | None, title: str, marked: tuple[str, ...] = ()) -> list[str]:
    """A 4×4 picture of `grid` (notation), cells that differ from `other` starred."""
    rows, others = _rows(grid), _rows(other) if other is not None else None
    lines = [title, "  " + "".join(c.rjust(CELL_WIDTH) + " " for c in "abcd").rstrip()]
    for r, row in enumerate(rows):
        text = f"{r + 1} "
        for c, symbol in enumerate(row):
            cell = _symbol(symbol)
            if f"{'abcd'[c] if c < 4 else '?'}{r + 1}" in marked:
                cell = f"[{cell}]"
            differs = others is not None and (
                r >= len(others) or c >= len(others[r]) or others[r][c] != symbol
            )
            text += cell.rjust(CELL_WIDTH) + ("*" if differs else " ")
        lines.append(text.rstrip())
    return lines


def side_by_side(left: list[str], right: list[str]) -> list[str]:
    width = max((len(line) for line in left), default=0) + len(COLUMN_GAP)
    height = max(len(left), len(right))
    left = left + [""] * (height - len(left))
    right = right + [""] * (height - len(right))
    return [(a.ljust(width) + b).rstrip() for a, b in zip(left, right, strict=True)]


def grids_picture(
    expected: str, actual: str, marks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
) -> str:
    return "\n".join(
        side_by_side(
            grid_lines(expected, actual, "expected", marks[0]),
            grid_lines(actual, expected, "engine", marks[1]),
        )
    )


def positions_picture(expected: str, actual: str) -> str:
    """Both positions: the fields that differ, then each seat's grids side by side."""
    want, got = position_fields(expected), position_fields(actual)
    lines: list[str] = []
    differing = [name for name in (*POSITION_FIELDS, "(fields)") if want.get(name) != got.get(name)]
    names = [n for n in differing if n != "grids"]
    if names:
        width = max(len(n) for n in names)
        lines.append(f"{'field'.ljust(width)}  expected | engine")
        for name in names:
            lines.append(
                f"{name.ljust(width)}  {want.get(name, '(missing)')} | {got.get(name, '(missing)')}"
            )
    grids_want = want.get("grids", "").split("|")
    grids_got = got.get("grids", "").split("|")
    if "grids" not in differing:
        lines.append("grids: the same on both sides")
    for seat in range(max(len(grids_want), len(grids_got))):
        a = grids_want[seat] if seat < len(grids_want) else ""
        b = grids_got[seat] if seat < len(grids_got) else ""
        if a == b and ("grids" not in differing or len(grids_want) > 2):
            continue  # draw only the grids that differ (both, when two seats)
        try:
            left = grid_lines(a, b, f"seat {seat}, expected")
            right = grid_lines(b, a, f"seat {seat}, engine")
        except (IndexError, ValueError):
            lines.append(f"seat {seat}: expected {a!r}, engine {b!r}")
            continue
        lines.extend(side_by_side(left, right))
    if any(line.startswith("seat ") and ", expected" in line for line in lines):
        lines.append(GRID_LEGEND)
    lines.append(f"expected: {expected}")
    lines.append(f"engine:   {actual}")
    return "\n".join(lines)


def result_picture(expected: str, actual: str, position: str = "") -> str:
    """A result divergence (S1–S4): every seat's points, cards left and total, expected and
    engine, a `*` on each seat that differs; the ranking both ways; then, for each seat whose
    cancelled cells differ, its final grid with the cancelled cells bracketed.

    `expected` and `actual` are results as JSON (dekal.conformance.judge._runner.result_shape);
    `position` is the position the result belongs to (its grids are drawn).
    """
    want, got = json.loads(expected), json.loads(actual)
    seats = max(len(want["scores"]), len(got["scores"]))
    header = f"{'':>4}  {'expected':^20}    {'engine':^20}"
    columns = f"{'seat':>4}  {'points':>6} {'cards':>6} {'total':>6}    "
    columns += f"{'points':>6} {'cards':>6} {'total':>6}"
    lines = [header, columns]
    differing: list[int] = []
    for seat in range(seats):
        a, b = _seat_row(want, seat), _seat_row(got, seat)
        differs = a != b
        lines.append(f"{seat:>4}  {_cells(a[:3])}    {_cells(b[:3])}{'  *' if differs else ''}")
        if a[3] != b[3]:
            differing.append(seat)
    lines.append(f"ranking, expected: {_ranking(want['ranking'])}")
    lines.append(f"ranking, engine:   {_ranking(got['ranking'])}")
    grids = position_fields(position).get("grids", "").split("|") if position else []
    for seat in differing:
        if seat >= len(grids):
            continue
        marks = (tuple(_seat_row(want, seat)[3]), tuple(_seat_row(got, seat)[3]))
        lines.append(f"seat {seat}'s final grid, cancelled cells bracketed:")
        try:
            lines.extend(grids_picture(grids[seat], grids[seat], marks).splitlines())
        except (IndexError, ValueError):
            lines.append(f"  {grids[seat]}: expected {marks[0]}, engine {marks[1]}")
    return "\n".join(lines)


def _seat_row(result: dict[str, Any], seat: int) -> tuple[object, object, object, list[str]]:
    scores, totals = result["scores"], result.get("totals")
    score = scores[seat] if seat < len(scores) else {}
    total = totals[seat] if isinstance(totals, list) and seat < len(totals) else None
    cancelled = score.get("cancelled")
    return (
        score.get("points"),
        score.get("remaining"),
        total,
        [str(cell) for cell in cancelled] if isinstance(cancelled, list) else [],
    )


def _cells(values: tuple[object, ...]) -> str:
    return " ".join(("-" if value is None else str(value)).rjust(6) for value in values)


def _ranking(pairs: list[list[object]]) -> str:
    return ", ".join(f"{place}. seat {seat}" for place, seat in pairs) or "(none)"
