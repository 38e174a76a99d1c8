"""A literal brute force of the solo game with unknown cards (spec/solo-unknown.md, U1–U9),
on the reference engine only: `dekal_ref.push` moves the cards, `dekal_ref.scoring` scores
them. No memo, no pruning, no bit words: every reveal, every value, every push is played.

The grid is a tuple of sixteen entries: a value 1..10 for a face-up card, UNSEEN for a
face-down card whose value is unknown (U1). The unseen cards are a value -> count dict (U2).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from dekal_ref.notation import HOLE, Push
from dekal_ref.push import apply_chain, legal_pushes, push_card, push_chain
from dekal_ref.scoring import score_grid

UNSEEN = -1
"""A face-down card of unknown value (never HOLE: the reference's hole_of looks for 0)."""


def _revealed(grid: tuple[int, ...], cell: int) -> tuple[int, ...]:
    return tuple(HOLE if c == cell else v for c, v in enumerate(grid))


def guaranteed(grid: tuple[int, ...], unseen: dict[int, int], variant: str) -> int:
    """U5: min over the face-down cells, max over the unseen values, min over the pushes."""
    cells = [c for c, v in enumerate(grid) if v == UNSEEN]
    if not cells:
        return score_grid(grid).points
    best = None
    for cell in cells:
        worst = None
        for value in [v for v, n in unseen.items() if n > 0]:
            rest = {**unseen, value: unseen[value] - 1}
            least = min(
                guaranteed(push_card(_revealed(grid, cell), push, value, variant), rest, variant)
                for push in legal_pushes(cell, variant)
            )
            worst = least if worst is None else max(worst, least)
        assert worst is not None
        best = worst if best is None else min(best, worst)
    assert best is not None
    return best


def expected(grid: tuple[int, ...], unseen: dict[int, int], variant: str) -> Fraction:
    """U6: min over the face-down cells of Σ P(value) · min over the pushes."""
    cells = [c for c, v in enumerate(grid) if v == UNSEEN]
    if not cells:
        return Fraction(score_grid(grid).points)
    total = sum(unseen.values())
    best = None
    for cell in cells:
        mean = Fraction(0)
        for value in [v for v, n in unseen.items() if n > 0]:
            rest = {**unseen, value: unseen[value] - 1}
            mean += Fraction(unseen[value], total) * min(
                expected(push_card(_revealed(grid, cell), push, value, variant), rest, variant)
                for push in legal_pushes(cell, variant)
            )
        best = mean if best is None else min(best, mean)
    assert best is not None
    return best


def expected_after(
    grid: tuple[int, ...], unseen: dict[int, int], variant: str, cell: int, value: int, push: Push
) -> Fraction:
    """The expected value once `cell` is revealed, `value` came and entered by `push`."""
    rest = {**unseen, value: unseen[value] - 1}
    return expected(push_card(_revealed(grid, cell), push, value, variant), rest, variant)


def expected_of_reveal(
    grid: tuple[int, ...], unseen: dict[int, int], variant: str, cell: int
) -> Fraction:
    """Σ P(value) · min over pushes, when the first reveal is `cell`."""
    total = sum(unseen.values())
    return sum(
        (
            Fraction(n, total)
            * min(
                expected_after(grid, unseen, variant, cell, v, p)
                for p in legal_pushes(cell, variant)
            )
            for v, n in unseen.items()
            if n > 0
        ),
        Fraction(0),
    )


def known_optimum(grid: tuple[int, ...], down: tuple[bool, ...], variant: str) -> int:
    """The solo optimum when every value is known: reveal a face-down card, push it back."""
    cells = [c for c in range(16) if down[c]]
    if not cells:
        return score_grid(grid).points
    best = None
    for cell in cells:
        for push in legal_pushes(cell, variant):
            chain = push_chain(cell, push, variant)
            after = push_card(_revealed(grid, cell), push, grid[cell], variant)
            flags = apply_chain(_revealed_flags(down, cell), chain, False)
            points = known_optimum(after, flags, variant)
            best = points if best is None else min(best, points)
    assert best is not None
    return best


def _revealed_flags(down: tuple[bool, ...], cell: int) -> tuple[bool, ...]:
    return tuple(False if c == cell else f for c, f in enumerate(down))


def perfect_information(grid: tuple[int, ...], unseen: dict[int, int], variant: str) -> Fraction:
    """U9: over every ordered deal of unseen values onto the face-down cells (its probability
    the product of the draws), the known-values optimum."""
    cells = [c for c, v in enumerate(grid) if v == UNSEEN]
    total = sum(unseen.values())
    mean = Fraction(0)
    values = [v for v, n in unseen.items() if n > 0]
    for deal in itertools.product(values, repeat=len(cells)):
        chance, left, drawn = Fraction(1), dict(unseen), total
        for value in deal:
            chance *= Fraction(left[value], drawn)
            left[value] -= 1
            drawn -= 1
        if chance == 0:
            continue
        placed = list(grid)
        for cell, value in zip(cells, deal, strict=True):
            placed[cell] = value
        down = tuple(v == UNSEEN for v in grid)
        mean += chance * known_optimum(tuple(placed), down, variant)
    return mean


def guaranteed_after(
    grid: tuple[int, ...], unseen: dict[int, int], variant: str, cell: int, value: int, push: Push
) -> int:
    """The guarantee once `cell` is revealed, `value` came and entered by `push` (U5)."""
    rest = {**unseen, value: unseen[value] - 1}
    return guaranteed(push_card(_revealed(grid, cell), push, value, variant), rest, variant)
