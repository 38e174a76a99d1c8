"""The deals of U9 (spec/solo-unknown.md): every ordered deal of unseen values onto the
face-down cards with its weight, and what the deals' known-values optima add up to. Shared by
the Python layouts (`_unknown.perfect`) and the compiled ones (`_unknown.perfect_compiled`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from dekal.proofs._unknown.position import VALUES, UnknownPosition


def deals(position: UnknownPosition) -> list[tuple[tuple[int, ...], int]]:
    """Every ordered deal of unseen values onto the k face-down cards with its weight, the
    number of ways to draw it (U2): the weights add up to falling(N, k)."""
    values = [v for v in VALUES if position.unseen[v - 1] > 0]
    out: list[tuple[tuple[int, ...], int]] = []
    for deal in itertools.product(values, repeat=len(position.face_down)):
        weight, used = 1, [0] * 11
        for value in deal:
            weight *= position.unseen[value - 1] - used[value]
            used[value] += 1
        if weight > 0:
            out.append((deal, weight))
    return out


@dataclass(frozen=True)
class KnownOptima:
    """The best score of every deal when it is known in advance, summed up: the mean (U9's
    value, a lower bound on `expected`, U10) and the worst (a lower bound on `guaranteed`:
    whatever strategy is played, the deal with the highest known-values optimum scores at
    least that under it, so min over strategies of max over deals ≥ max over deals of min
    over lines of play)."""

    mean: Fraction
    worst: int
