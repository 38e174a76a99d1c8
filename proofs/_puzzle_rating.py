"""How hard a puzzle with a unique best first move is for a person, read off its search.

The rating is a pure function of numbers the search proves (and the bundled set's test
re-derives by brute force on the reference engine), never of timings or node counts, which
change whenever the solver gets faster:

* `choices`: how many legal first moves there are (T1 reveal × P1/P2 push);
* `gap`: the second-best first move's optimum minus the best one's, in points (≥ 1: the best
  first move is the only one that reaches the optimum score, S2);
* `close`: how many other first moves end within `CLOSE_POINTS` points of the optimum — the
  near misses a player has to tell apart from the answer;
* `horizon`: how many steps ahead a player must look before the answer stands out alone.
  Looking d steps ahead means scoring each first move by the lowest score reachable after d
  steps (the puzzle cut short); the horizon is the least d at which the best first move is
  strictly lowest. 1 means the move that looks best right now is the answer; `turns` means
  the answer only shows at the very end — the refutation of the other moves is as deep as
  the puzzle.

The difficulty is a small integer built from them, and its named level is what `dekal
puzzle --rating` selects by:

    difficulty = 2·(horizon − 1) + min(close, 3) + (1 if gap == 1 else 0)

    0–1 easy · 2–3 medium · 4–5 hard · 6 and more expert
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

CLOSE_POINTS = 2
"""A first move whose optimum is at most this many points above the best is a near miss."""

LEVELS = ("easy", "medium", "hard", "expert")
"""The named levels, easiest first."""

LEVEL_FLOORS = {"easy": 0, "medium": 2, "hard": 4, "expert": 6}
"""The least difficulty of each level."""


@dataclass(frozen=True)
class Rating:
    """A puzzle's rating: its level, the difficulty number, and what the number is made of."""

    level: str
    difficulty: int
    gap: int
    close: int
    horizon: int
    choices: int

    def as_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "difficulty": self.difficulty,
            "gap": self.gap,
            "close": self.close,
            "horizon": self.horizon,
            "choices": self.choices,
        }


def level_of(difficulty: int) -> str:
    """The named level of a difficulty number (the highest floor it reaches)."""
    return max(LEVELS, key=lambda name: (LEVEL_FLOORS[name] <= difficulty, LEVEL_FLOORS[name]))


def difficulty_of(gap: int, close: int, horizon: int) -> int:
    """The formula of the module docstring: depth weighs most, then near misses, then a
    one-point gap."""
    return 2 * (horizon - 1) + min(close, 3) + (1 if gap == 1 else 0)


def rate(optimum: Mapping[str, int], ahead: Mapping[str, Sequence[int]], turns: int) -> Rating:
    """The rating of a puzzle from, for every first move (by name), its optimum in points
    (`optimum`) and the lowest points reachable looking 1, 2, …, turns − 1 steps ahead
    (`ahead`). Raises ValueError when no first move is strictly best."""
    if len(optimum) < 2:
        raise ValueError("a puzzle needs at least two first moves to choose from")
    ranked = sorted(optimum, key=lambda move: optimum[move])
    best, second = ranked[0], ranked[1]
    gap = optimum[second] - optimum[best]
    if gap < 1:
        raise ValueError(f"{best} and {second} both reach {optimum[best]} points: no unique answer")
    close = sum(1 for move in ranked[1:] if optimum[move] - optimum[best] <= CLOSE_POINTS)
    horizon = next(
        (
            depth
            for depth in range(1, turns)
            if all(ahead[move][depth - 1] > ahead[best][depth - 1] for move in ranked[1:])
        ),
        turns,
    )
    difficulty = difficulty_of(gap, close, horizon)
    return Rating(level_of(difficulty), difficulty, gap, close, horizon, len(optimum))
