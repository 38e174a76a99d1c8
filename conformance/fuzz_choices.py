"""Where a fuzz game's choices come from: a seeded random generator, or Hypothesis.

A fuzz game is a function of a sequence of small whole numbers: the player count, the
variants, the deal's seed, then for every step whether to try a wrong action and which
legal action to play. `Chooser.below(n)` hands out the next number in 0 … n−1 and writes
it down, so the same game can be played twice: once from `random.Random(seed)` (fast,
uniform, the same games for the same seed), and again from Hypothesis, which replays the
numbers written down and then shrinks them (dekal.conformance.shrink).

Every choice is made so that 0 is the plainest one: the first player count the engine
claims, the first legal action, no steering, no wrong action. Shrinking numbers towards 0
therefore shrinks a game towards a plain one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

CHANCE_SCALE = 1000  # chance(p) is one choice below this; p is read to 1/1000


class Chooser:
    """Numbers for a game, from `below(n)`, each written down in `choices`."""

    def __init__(self, source: Callable[[int], int]) -> None:
        self._source = source
        self.choices: list[int] = []

    def below(self, n: int) -> int:
        """A number in 0 … n−1. With one option there is no choice: nothing is written down."""
        if n <= 1:
            return 0
        value = self._source(n)
        self.choices.append(value)
        return value

    def chance(self, p: float) -> bool:
        """True with probability p; the choice 0 is False, so shrinking turns it off."""
        return self.below(CHANCE_SCALE) >= CHANCE_SCALE - round(p * CHANCE_SCALE)

    def pick(self, options: Sequence[T]) -> T:
        return options[self.below(len(options))]

    def between(self, low: int, high: int) -> int:
        """A number in low … high, both included."""
        return low + self.below(high - low + 1)

    def sample(self, options: Sequence[T], k: int) -> list[T]:
        """k different options, in the order drawn."""
        pool = list(options)
        return [pool.pop(self.below(len(pool))) for _ in range(k)]


def seeded_chooser(seed: int) -> Chooser:
    """Uniform choices from random.Random(seed): the fuzzer's own games."""
    return Chooser(random.Random(seed).randrange)


def drawn_chooser(data: Any) -> Chooser:
    """Choices drawn from Hypothesis (`data` is what st.data() gives): one integer per
    choice, so a game written down by seeded_chooser replays number for number."""
    from hypothesis import strategies as st

    return Chooser(lambda n: int(data.draw(st.integers(0, n - 1))))
