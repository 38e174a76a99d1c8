"""The spec's definitions, cell by cell, over symbolic values: what the kernels are proved against.

Each definition is the reference engine's own, restated over z3 terms where Python's
`any`/`if` cannot take a symbolic value, and reused verbatim where it can:
* S1 (`dekal_ref.scoring.cancelled_cells`): a card is cancelled when one of its
  `dekal_ref.scoring.neighbours` holds the same value; a hole (0) is never cancelled;
* S2 (`dekal_ref.scoring.score_grid`): the points are the sum of the values left, the cards
  left are how many remain;
* P1/P2: `dekal_ref.push.apply_chain` itself, run on a list of symbolic nibbles along the
  chain `dekal_ref.push.push_chain` computes.
"""

from __future__ import annotations

from collections.abc import Sequence

import z3  # type: ignore[import-untyped]

from dekal.proofs._encoding import BoolExpr
from dekal_ref.notation import CELLS
from dekal_ref.push import apply_chain
from dekal_ref.scoring import neighbours


def cancelled(values: Sequence[BoolExpr]) -> list[BoolExpr]:
    """S1, per cell: holds a card and shares a side with an equal card."""
    return [
        z3.And(values[cell] != 0, z3.Or([values[cell] == values[o] for o in neighbours(cell)]))
        for cell in CELLS
    ]


def points(values: Sequence[BoolExpr]) -> BoolExpr:
    """S2: the sum of the values left, as an unbounded integer."""
    gone = cancelled(values)
    return z3.Sum([z3.If(gone[c], 0, z3.BV2Int(values[c])) for c in CELLS])


def remaining(values: Sequence[BoolExpr]) -> BoolExpr:
    """S2: how many cards are left (holes are no card)."""
    gone = cancelled(values)
    return z3.Sum([z3.If(z3.Or(gone[c], values[c] == 0), 0, 1) for c in CELLS])


def pushed(values: Sequence[BoolExpr], chain: Sequence[int], card: BoolExpr) -> list[BoolExpr]:
    """P1/P2: the reference engine's apply_chain on symbolic values."""
    return list(apply_chain(list(values), chain, card))


def int_points(values: Sequence[BoolExpr]) -> BoolExpr:
    """S2 over integer-valued cells (for the deck bounds): the sum of the values left."""
    gone = [z3.Or([values[c] == values[o] for o in neighbours(c)]) for c in CELLS]
    return z3.Sum([z3.If(gone[c], 0, values[c]) for c in CELLS])
