"""Guarantee puzzles: which reveal guarantees the lowest score when the face-down cards are
unknown (spec/solo-unknown.md, U3, U5, U7), generated from a seed, rated, and answered by the
exact search.

A guarantee puzzle is a solo position (U1, U2: the deck less the face-up cards is unseen)
drawn by the solo rules: sixteen cards dealt face down, then 16 − k steps played at random
(a random `?` cell revealed, its value drawn from the unseen cards, a random legal push),
leaving k = 2 or 3 unknown cells (eject: 2, UNKNOWN_CELLS). The question: *which `?` do
you reveal first to guarantee the lowest final score, whatever values come?* Its answer
is proved by the search of proofs/_unknown/search.py: every first reveal's guarantee is
exact (U5's max over values of min over pushes, each child's guarantee searched
exhaustively), and a seed is kept only when
exactly one reveal reaches the least guarantee (otherwise the next draw is tried, so the
same seed always gives the same puzzle).

The rating reads proved numbers only, as the bundled puzzles' does (proofs/_puzzle_rating.py):
`gap` (the second-best reveal's guarantee minus the best's), `close` (other reveals within
CLOSE_POINTS of the best) and `horizon` (how many steps ahead a player must look before the
answer's guarantee stands out alone: the guarantee of the visible score, face-down cards
counting nothing, after 1, 2, … steps), combined by the same formula into the same levels.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from dekal import bits, tables
from dekal.proofs._puzzle_rating import CLOSE_POINTS, LEVELS, difficulty_of, level_of
from dekal.proofs._unknown.position import (
    COPIES,
    VALUES,
    UnknownPosition,
    deck_less,
    format_unknown_grid,
)
from dekal.proofs._unknown.search import _Game, falling
from dekal.proofs.limits import Deadline
from dekal_ref.notation import cell_name

DECK = tuple(v for v in VALUES for _ in range(COPIES))
UNKNOWN_CELLS = {"slide": (2, 3), "eject": (2,)}
"""How many `?` a puzzle of each push rule has: the Python search answers three eject cells
in about a minute on a loaded machine, too long to wait for at the command line."""
MOST_DRAWS = 200
"""Draws tried for one seed and level before giving up (a level is met within a few)."""


@dataclass(frozen=True)
class RevealValue:
    """One first reveal, its exact guarantee (U5) and expected score (U6, as a float)."""

    cell: int
    guaranteed: int
    expected: float
    ahead: tuple[int, ...]
    """The guarantee of the visible score looking 1, 2, …, k − 1 steps ahead."""


@dataclass(frozen=True)
class GuaranteePuzzle:
    seed: int
    position: UnknownPosition
    reveals: tuple[RevealValue, ...]
    """Every first reveal, in reading order."""
    level: str
    difficulty: int
    gap: int
    close: int
    horizon: int

    @property
    def best(self) -> RevealValue:
        return min(self.reveals, key=lambda r: r.guaranteed)

    def reveal(self, cell: int) -> RevealValue | None:
        return next((r for r in self.reveals if r.cell == cell), None)

    def as_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "grid": format_unknown_grid(self.position.grid),
            "unknown": len(self.position.face_down),
            "unseen": "deck",
            "variant": self.position.variant,
            "question": "which reveal guarantees the lowest score?",
            "rating": {
                "level": self.level,
                "difficulty": self.difficulty,
                "gap": self.gap,
                "close": self.close,
                "horizon": self.horizon,
                "choices": len(self.reveals),
            },
            "guaranteed": self.best.guaranteed,
        }

    def solution_json(self) -> dict[str, Any]:
        return {
            "reveal": cell_name(self.best.cell),
            "guaranteed": self.best.guaranteed,
            "ranking": [
                {
                    "reveal": cell_name(r.cell),
                    "guaranteed": r.guaranteed,
                    "expected": round(r.expected, 4),
                }
                for r in sorted(self.reveals, key=lambda r: (r.guaranteed, r.cell))
            ],
            "proved_by": "exhaustive search (proofs/_unknown/search.py)",
        }


def drawn_position(rng: random.Random, k: int, variant: str) -> UnknownPosition:
    """Sixteen cards face down, then 16 − k random solo steps (U2, U3)."""
    legal = tables.LEGAL[variant]
    grid, down = 0, 0xFFFF
    unseen = list(DECK)
    for _ in range(16 - k):
        cell = rng.choice([c for c in range(16) if (down >> c) & 1])
        value = unseen.pop(rng.randrange(len(unseen)))
        _, step = rng.choice(legal[cell])
        grid, down = bits.push_grid(grid, step, value), bits.push_face_down(down, step)
    values = bits.unpack(grid)
    return UnknownPosition(grid=tuple(values), unseen=deck_less(values), variant=variant)


def visible_guarantee(
    grid: int, down: int, counts: list[int], steps: int, variant: str, first: int | None
) -> int:
    """U5's recursion cut `steps` steps ahead, the visible score (face-down cells count
    nothing) at the cut; `first`: the cell of the first reveal (None: every cell)."""
    if steps == 0 or down == 0:
        return bits.score(grid)[0]
    legal = tables.LEGAL[variant]
    cells = [c for c in range(16) if (down >> c) & 1] if first is None else [first]
    best = 1 << 30
    for cell in cells:
        worst = -1
        for value in VALUES:
            if counts[value - 1] == 0:
                continue
            counts[value - 1] -= 1
            least = min(
                visible_guarantee(
                    bits.push_grid(grid, step, value),
                    bits.push_face_down(down, step),
                    counts,
                    steps - 1,
                    variant,
                    None,
                )
                for _, step in legal[cell]
            )
            counts[value - 1] += 1
            worst = max(worst, least)
        best = min(best, worst)
    return best


def reveal_values(position: UnknownPosition) -> tuple[RevealValue, ...]:
    """Every first reveal's exact guarantee and expectation, by the exhaustive search."""
    game = _Game(position, Deadline(600.0), prune=True)
    grid, down = game.start, game.start_down
    k = len(position.face_down)
    scale = falling(position.unseen_total, k)
    out = []
    for cell in position.face_down:
        # best = infinity: G1 never fires, so the max over values is exact (G2 cannot lower it)
        guaranteed = game.guaranteed_after(grid, down, cell, 1 << 30)
        expected = game.expected_after(grid, down, cell, None) / scale
        counts = list(position.unseen)
        ahead = tuple(
            visible_guarantee(grid, down, counts, depth, position.variant, cell)
            for depth in range(1, k)
        )
        out.append(RevealValue(cell, guaranteed, expected, ahead))
    return tuple(out)


def rated(seed: int, position: UnknownPosition) -> GuaranteePuzzle | None:
    """The puzzle of a position, or None when no single reveal is best."""
    reveals = reveal_values(position)
    ranked = sorted(reveals, key=lambda r: r.guaranteed)
    best, second = ranked[0], ranked[1]
    gap = second.guaranteed - best.guaranteed
    if gap < 1:
        return None
    close = sum(1 for r in ranked[1:] if r.guaranteed - best.guaranteed <= CLOSE_POINTS)
    k = len(reveals)
    horizon = next(
        (
            depth
            for depth in range(1, k)
            if all(r.ahead[depth - 1] > best.ahead[depth - 1] for r in ranked[1:])
        ),
        k,
    )
    difficulty = difficulty_of(gap, close, horizon)
    return GuaranteePuzzle(
        seed, position, reveals, level_of(difficulty), difficulty, gap, close, horizon
    )


def guarantee_puzzle(
    seed: int, *, level: str | None = None, variant: str = "slide"
) -> GuaranteePuzzle:
    """The guarantee puzzle of a seed (and level): the first draw of the seed's sequence with
    a unique best reveal (of that level). ValueError if none within MOST_DRAWS draws."""
    if level is not None and level not in LEVELS:
        raise ValueError(f"{level!r} is not a level: {', '.join(LEVELS)}")
    rng = random.Random(f"guarantee-{variant}-{seed}")
    for _ in range(MOST_DRAWS):
        k = rng.choice(UNKNOWN_CELLS[variant])
        found = rated(seed, drawn_position(rng, k, variant))
        if found is not None and (level is None or found.level == level):
            return found
    raise ValueError(f"no {level or ''} guarantee puzzle within {MOST_DRAWS} draws of seed {seed}")
