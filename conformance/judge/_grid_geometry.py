"""The geometry of a grid as the situation map (spec/situations.json) reads it: the shape of
each group S1 cancels and where it lies, what the points left hold (S2), and the side and
line of a push (P1, P2).

These are the values that change the outcome of the grid rules whatever the game around
them: a fault that cancels only across, leaves the middle of a run, stops a group at a bend,
cancels a diagonal, merges groups of two values, scores a 10 as 1 or ejects the wrong card
lives in one of them (issue 27).
"""

from __future__ import annotations

from collections.abc import Sequence

from dekal_ref.notation import HOLE, SIZE, Push, column_of, row_of
from dekal_ref.push import hole_line, hole_of, line_cells
from dekal_ref.scoring import neighbours

Values = dict[str, str]


def groups(grid: Sequence[int]) -> list[frozenset[int]]:
    """S1's groups: every orthogonally connected set of two or more equal cards."""
    seen: set[int] = set()
    found = []
    for cell, value in enumerate(grid):
        if cell in seen or value == HOLE:
            continue
        group, frontier = {cell}, [cell]
        while frontier:
            for other in neighbours(frontier.pop()):
                if other not in group and grid[other] == value:
                    group.add(other)
                    frontier.append(other)
        seen |= group
        if len(group) > 1:
            found.append(frozenset(group))
    return found


def shape(group: frozenset[int]) -> str:
    """`pair across`, `pair down`, `run` (3-4 cards in one line), `block` (holds a 2x2
    square) or `bent` (3+ cards turning a corner, no square)."""
    rows = {row_of(c) for c in group}
    columns = {column_of(c) for c in group}
    if len(group) == 2:
        return "pair across" if len(rows) == 1 else "pair down"
    if len(rows) == 1 or len(columns) == 1:
        return "run"
    square = any(
        {c, c + 1, c + SIZE, c + SIZE + 1} <= group
        for c in group
        if column_of(c) < SIZE - 1 and row_of(c) < SIZE - 1
    )
    return "block" if square else "bent"


def border(group: frozenset[int]) -> str:
    """`corner` (a card on a corner cell), `edge` (on the border, no corner) or `inner`."""
    edges = max((row_of(c) in (0, SIZE - 1)) + (column_of(c) in (0, SIZE - 1)) for c in group)
    return ("inner", "edge", "corner")[edges]


def _diagonals(cell: int) -> list[int]:
    row, column = row_of(cell), column_of(cell)
    return [
        (row + dr) * SIZE + column + dc
        for dr in (-1, 1)
        for dc in (-1, 1)
        if 0 <= row + dr < SIZE and 0 <= column + dc < SIZE
    ]


def corner_only(grid: Sequence[int], cells: frozenset[int] | None = None) -> bool:
    """A card equal to one of `cells` (every cell, when None) touches it by a corner only,
    and shares no side with a card of its value: it stays (S1)."""
    within = range(len(grid)) if cells is None else cells
    cancelled = {c for g in groups(grid) for c in g}
    return any(
        grid[other] == grid[cell] and other not in cancelled
        for cell in within
        if grid[cell] != HOLE
        for other in _diagonals(cell)
    )


def company(group: frozenset[int], found: list[frozenset[int]], grid: Sequence[int]) -> str:
    """What else the grid cancels: `alone`, `same value apart` (another group of its value),
    `other value touching` (a group of another value shares a side with it) or `others
    apart`."""
    others = [g for g in found if g != group]
    value = grid[next(iter(group))]
    if any(grid[next(iter(g))] == value for g in others):
        return "same value apart"
    sides = {n for c in group for n in neighbours(c)}
    if any(g & sides for g in others):
        return "other value touching"
    return "others apart" if others else "alone"


def cancellations(grid: Sequence[int]) -> list[Values]:
    """S1's situations of a scored grid: one for each group it cancels (its shape, where it
    lies, what else cancels, and whether an equal card touches it by a corner only), or one
    `none` when nothing cancels."""
    found = groups(grid)
    if not found:
        return [{"group": "none", "diagonal": "yes" if corner_only(grid) else "no"}]
    return [
        {
            "group": shape(group),
            "border": border(group),
            "company": company(group, found, grid),
            "diagonal": "yes" if corner_only(grid, group) else "no",
        }
        for group in found
    ]


def points_left(grid: Sequence[int]) -> Values:
    """S2's situation of a scored grid: how many cards are left (`none`, `some`, `all`) and
    whether a 10 is among them."""
    cancelled = {c for g in groups(grid) for c in g}
    left = [v for c, v in enumerate(grid) if c not in cancelled and v != HOLE]
    count = "none" if not left else "all" if len(left) == len(grid) else "some"
    return {"left": count, "ten": "yes" if 10 in left else "no"}


def push_geometry(grid: Sequence[object], push: Push, variant: str) -> Values:
    """P1/P2's situation of a push: the side it enters by and, under eject, the line it runs
    along (the hole's own, or a full line: the first, an inner or the last)."""
    values = {"side": push.side}
    if variant == "eject":
        hole = hole_of(grid)
        line = hole_line(push.side, hole) if push.line is None else push.line
        cells = line_cells(push.side, line)
        if hole in cells:
            values["line"] = "hole's"
        else:
            values["line"] = {1: "first", SIZE: "last"}.get(line, "inner")
    return values
