"""The greedy strategy of a solo position with unknown cards, evaluated exactly
(spec/solo-unknown.md, U10): the strategy at hand when the exact search runs out of time,
whose guarantee and expectation bound the optimal ones from above.

Greedy: reveal the lowest `?` cell in reading order; push the card where the grid scores
least at once (S1, S2 on the grid after the push, the `?` cells counting nothing), ties to
the first push in notation order. Its values follow the same recursions as U5 and U6 with
the reveal and the push fixed, so they are exact: a guarantee (the max over the values) and
an expectation (integer-scaled by the falling factorial, as in `_unknown.search`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dekal import bits, tables
from dekal.proofs._unknown.position import VALUES, UnknownPosition
from dekal.proofs._unknown.search import OutOfTime, falling
from dekal.proofs.limits import Deadline


@dataclass(frozen=True)
class StrategyValues:
    """A strategy's guarantee (U5's worst case) and expectation (U6's mean), exact."""

    guaranteed: int
    expected: Fraction


def greedy_values(position: UnknownPosition, deadline: Deadline | None = None) -> StrategyValues:
    """The greedy strategy's guarantee and expectation (OutOfTime past the deadline)."""
    legal = tables.LEGAL[position.variant]
    counts = list(position.unseen)
    memo: dict[int, tuple[int, int]] = {}
    visited = [0]

    def value(grid: int, down: int) -> tuple[int, int]:
        if down == 0:
            points = int(bits.score_points(grid))
            return points, points
        key = grid | (down << 64)
        known = memo.get(key)
        if known is not None:
            return known
        visited[0] += 1
        if visited[0] % 1024 == 0 and deadline is not None and deadline.expired():
            raise OutOfTime
        cell = (down & -down).bit_length() - 1  # the lowest `?` cell in reading order
        worst, total = -1, 0
        for v in VALUES:
            count = counts[v - 1]
            if count == 0:
                continue
            after = [(bits.push_grid(grid, step, v), step) for _, step in legal[cell]]
            child, step = min(after, key=lambda pair: int(bits.score_points(pair[0])))
            counts[v - 1] -= 1
            guaranteed, scaled = value(child, bits.push_face_down(down, step))
            counts[v - 1] += 1
            worst = max(worst, guaranteed)
            total += count * scaled
        memo[key] = (worst, total)
        return worst, total

    guaranteed, scaled = value(bits.pack(position.grid), position.face_down_mask)
    scale = falling(position.unseen_total, len(position.face_down))
    return StrategyValues(guaranteed, Fraction(scaled, scale))
