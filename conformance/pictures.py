"""Expected and actual positions (or grids) drawn side by side, differences marked.

Plain text on purpose: it reads the same in a terminal, a CI log and a JUnit report. In a
grid, a face-up card is its value (`7`, `T`), a face-down card its value after a dot (`·7`),
the hole `.`; a cell that differs between the two sides carries a `*`, a cancelled cell is
bracketed (`[7]`).
"""

from __future__ import annotations

from dekal.conformance.protocol import position_fields
from dekal_ref.position import HIDDEN_LETTERS, POSITION_FIELDS

CELL_WIDTH = 4
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
    for seat in range(max(len(grids_want), len(grids_got))):
        a = grids_want[seat] if seat < len(grids_want) else ""
        b = grids_got[seat] if seat < len(grids_got) else ""
        if a == b and "grids" in differing and len(grids_want) > 2:
            continue  # many seats: draw only the grids that differ
        try:
            left = grid_lines(a, b, f"seat {seat}, expected")
            right = grid_lines(b, a, f"seat {seat}, engine")
        except (IndexError, ValueError):
            lines.append(f"seat {seat}: expected {a!r}, engine {b!r}")
            continue
        lines.extend(side_by_side(left, right))
    lines.append(f"expected: {expected}")
    lines.append(f"engine:   {actual}")
    return "\n".join(lines)
