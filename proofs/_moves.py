"""Every step a puzzle allows, read off the reference engine (rules T1, P1, P2).

A step reveals a cell (the hole) and pushes a card in. Its *shape* is the reveal cell, the
push, and the chain of cells the cards move along (entry cell first, hole last), exactly as
`dekal_ref.push.push_chain` computes it. The Z3 encoding and the spec-side checks are built
from these shapes, so they mean what the reference engine means.

Slide (P1) has 48 shapes: 4 corners × 2 + 8 edges × 3 + 4 inner cells × 4.
Eject (P2) adds the 12 pushes along full lines for every hole: 240 shapes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from dekal.proofs.puzzle import Move
from dekal_ref.notation import CELLS, Push
from dekal_ref.push import legal_pushes, push_chain


@dataclass(frozen=True)
class Shape:
    """One legal (reveal, push) pair and the chain it moves cards along."""

    reveal: int
    push: Push
    chain: tuple[int, ...]

    @property
    def move(self) -> Move:
        return Move(self.reveal, self.push)

    @property
    def entry(self) -> int:
        return self.chain[0]

    def source_of(self, cell: int) -> int | None:
        """Where the card that ends in `cell` was before the push: a cell, ENTERS for the new
        card, or None when `cell` is off the chain (its card stays)."""
        if cell not in self.chain:
            return None
        index = self.chain.index(cell)
        return ENTERS if index == 0 else self.chain[index - 1]


ENTERS = -1
"""The source of the entry cell: the incoming card."""


@cache
def shapes(variant: str) -> tuple[Shape, ...]:
    """Every legal step shape of a variant, by reveal cell then push notation order."""
    return tuple(
        Shape(hole, push, tuple(push_chain(hole, push, variant)))
        for hole in CELLS
        for push in legal_pushes(hole, variant)
    )


@cache
def shape_index(variant: str) -> dict[Move, int]:
    """The position of each move in `shapes(variant)`."""
    return {shape.move: index for index, shape in enumerate(shapes(variant))}
