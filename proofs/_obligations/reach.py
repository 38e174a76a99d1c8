"""Obligation: a slide step moves every card at most one cell, in the push's direction (P1).

This is what the search's distance bound stands on (`bounds.lower_key`): when every card that
moves in a step moves by the same one-cell vector, the distance (rows + columns apart) between
two cards that stay changes by at most one, so two cards more than `steps + 1` apart can never
end as neighbours.

The claim is stated on the optimized engine's own push table (`dekal.tables.LEGAL`, applied
by `bits.push_grid`), for every slide entry and every grid: the fifteen cards around the hole
are tagged with fifteen different values and the incoming card with 0, so where a tag lands
shows where its card went. After the push, every cell holds the new card, its own card, or
the card of its neighbour on the side the card entered from (L: the cell to the left, T: the
cell above, and so on). No eject entry is claimed: an eject push drops the card it pushes out
into the hole, wherever the hole is.
"""

from __future__ import annotations

from typing import Any

import z3  # type: ignore[import-untyped]

from dekal.proofs._encoding import BoolExpr
from dekal.proofs._obligations.obligation import Kernels, Obligation, grid_of, nibbles, refute
from dekal_ref.notation import CELLS, cell_name

SIZE = 4
FROM = {"L": (0, -1), "R": (0, 1), "T": (-1, 0), "B": (1, 0)}
"""Where a card moved by a push of this side comes from: (rows, columns) away."""


def source(cell: int, side: str) -> int | None:
    """The neighbour a card pushed from `side` reaches `cell` from (None: off the grid)."""
    row, column = divmod(cell, SIZE)
    down, across = FROM[side]
    row, column = row + down, column + across
    if 0 <= row < SIZE and 0 <= column < SIZE:
        return row * SIZE + column
    return None


def one_cell(k: Kernels, timeout: float) -> tuple[bool, str, str]:
    b = k.bits
    entries: list[tuple[str, Any, Any, BoolExpr]] = []
    for hole in CELLS:
        word = z3.BitVec(f"tagged{hole}", 64)
        before = nibbles(word)
        tags = [v for c, v in enumerate(before) if c != hole]
        domain = z3.And(before[hole] == 0, z3.Distinct(*tags), *[v != 0 for v in tags])
        for push, step in k.legal["slide"][hole]:
            after = nibbles(b.push_grid(b.sym(word), step, 0).bv)
            claims = []
            for cell in CELLS:
                options = [after[cell] == 0, after[cell] == before[cell]]
                neighbour = source(cell, push.side)
                if neighbour is not None:
                    options.append(after[cell] == before[neighbour])
                claims.append(z3.Or(options))
            entries.append((f"hole {cell_name(hole)}, push {push}", word, domain, z3.And(claims)))
    for label, word, domain, claim in entries:

        def explain(model: Any, label: str = label, word: Any = word) -> str:
            return f"{label}: on the tagged grid {grid_of(model, word)} a card moves further"

        proved, counterexample = refute(claim, explain, timeout=timeout, assuming=[domain])
        if not proved:
            return False, counterexample, ""
    return True, "", f"{len(entries)} slide table entries"


OBLIGATIONS = (
    Obligation(
        "reach.slide-one-cell",
        "P1: every slide table entry moves each card at most one cell, in the push's "
        "direction (so a step changes the distance between two cards by at most one)",
        one_cell,
    ),
)
