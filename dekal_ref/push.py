"""Inserting a card into a grid by a push (rules P1 slide, P2 eject).

A push moves cards along a *chain* of cells: the card in each cell of the chain steps into the
next cell, the new card takes the first cell, and the last cell of the chain is the hole.

* Slide (P1): the chain runs from the entry edge of the hole's row or column to the hole.
* Eject (P2): along the hole's line as in P1; along a full line, the chain is that line from
  the entry edge to the far edge, and then the hole: the card pushed out goes into the hole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from dekal_ref.errors import IllegalAction
from dekal_ref.notation import (
    HOLE,
    SIDES,
    SIZE,
    Grid,
    Push,
    cell_at,
    cell_name,
    column_of,
    row_of,
)

T = TypeVar("T")


def hole_of(grid: Sequence[object]) -> int:
    """The cell of the hole. A push needs exactly one hole (rule T1 made it)."""
    holes = [cell for cell, card in enumerate(grid) if card == HOLE or card is None]
    if len(holes) != 1:
        raise IllegalAction(
            "T4", f"a push needs a grid with exactly one hole; this one has {len(holes)}"
        )
    return holes[0]


def line_cells(side: str, line: int) -> list[int]:
    """The four cells of a line, in the order a card entering from `side` meets them.

    `line` is 1–4: the row for L/R, the column for T/B.
    """
    index = line - 1
    steps = range(SIZE)
    if side == "L":
        return [cell_at(index, c) for c in steps]
    if side == "R":
        return [cell_at(index, SIZE - 1 - c) for c in steps]
    if side == "T":
        return [cell_at(r, index) for r in steps]
    return [cell_at(SIZE - 1 - r, index) for r in steps]


def hole_line(side: str, hole: int) -> int:
    """The line number (1–4) of the hole's row (for L/R) or column (for T/B)."""
    return row_of(hole) + 1 if side in ("L", "R") else column_of(hole) + 1


def push_chain(hole: int, push: Push, variant: str = "slide") -> list[int]:
    """The cells a push moves cards along, entry cell first, hole last.

    Raises IllegalAction when the rules forbid the push.
    """
    rule = "P1" if variant == "slide" else "P2"
    if push.side not in SIDES:
        raise IllegalAction(rule, f"{push.side!r} is not a side: L, R, T or B")
    own_line = hole_line(push.side, hole)
    line = own_line if push.line is None else push.line
    if variant == "slide" and line != own_line:
        raise IllegalAction(
            "P1",
            f"slide push {push}: a card can only enter the hole's row or column "
            f"(the hole is {cell_name(hole)}; use {push.side} alone)",
        )
    if variant == "eject" and push.line is None:
        raise IllegalAction(
            "P2", f"eject push {push}: name the line too, like {push.side}{own_line}"
        )
    if not 1 <= line <= SIZE:
        raise IllegalAction(rule, f"push {push}: lines are numbered 1–4")
    cells = line_cells(push.side, line)
    if hole in cells:
        chain = cells[: cells.index(hole) + 1]
        if len(chain) == 1:
            raise IllegalAction(
                rule,
                f"push {push} would put the card straight into the hole at {cell_name(hole)}: "
                "it must enter at the other end of the line and push cards into the hole",
            )
        return chain
    return cells + [hole]


def apply_chain(cells: Sequence[T], chain: Sequence[int], card: T) -> tuple[T, ...]:
    """Every card on the chain steps one cell along it; `card` takes the entry cell."""
    after = list(cells)
    for source, target in zip(chain[-2::-1], chain[:0:-1], strict=True):
        after[target] = cells[source]
    after[chain[0]] = card
    return tuple(after)


def push_card(grid: Grid, push: Push, card: int, variant: str = "slide") -> Grid:
    """The grid after `card` enters by `push` (rule P1, or P2 for the eject variant)."""
    if not 1 <= card <= 10:
        raise IllegalAction("M1", f"{card} is not a card: values are 1 to 10")
    chain = push_chain(hole_of(grid), push, variant)
    return apply_chain(grid, chain, card)


def legal_pushes(hole: int, variant: str = "slide") -> list[Push]:
    """Every push the rules allow into a grid whose hole is `hole`, in notation order.

    Slide: 2 for a corner hole, 3 for an edge hole, 4 for an inner hole (P1).
    Eject: the same along the hole's lines, plus both ends of every full line (P2).
    """
    pushes: list[Push] = []
    for side in SIDES:
        lines = [None] if variant == "slide" else list(range(1, SIZE + 1))
        for line in lines:
            push = Push(side, line)
            try:
                push_chain(hole, push, variant)
            except IllegalAction:
                continue
            pushes.append(push)
    return pushes
