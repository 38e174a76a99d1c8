"""A puzzle's step as both searches keep it (proofs.search, proofs.compiled_search): the
revealed cell and the push's index among that cell's legal pushes, and the moves it stands for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dekal import bits
from dekal.proofs.puzzle import Move
from dekal_ref.notation import Push

Legal = Sequence[Sequence[tuple[Push, bits.PushStep]]]
"""tables.LEGAL[variant]: per hole, the legal (push, step) pairs in notation order."""
Step = tuple[int, int]
"""A step as both searches keep it: (the revealed cell, the push's index in
tables.LEGAL[variant][cell])."""


def steps_of(legal: Legal, moves: Iterable[Move]) -> tuple[Step, ...]:
    """The moves as (cell, push index) steps."""
    return tuple(
        (move.reveal, [push for push, _ in legal[move.reveal]].index(move.push)) for move in moves
    )


def moves_of(legal: Legal, steps: Iterable[Step]) -> list[Move]:
    """The (cell, push index) steps as moves."""
    return [Move(hole, legal[hole][index][0]) for hole, index in steps]
