"""Seeded random draws for games played by policies and bots (simulation, bots, the kernel).

Every random choice of a simulated game comes from the project's SplitMix64 generator
(dekal_ref.deal), so the Python bots and the compiled kernel draw the very same numbers:

* game i of a run seeded S is played from `game_seed(S, i)`; its deals are
  `dekal_ref.deal.seeded_deals(game_seed(S, i), players, rounds)` (M3, M5);
* seat s of that game decides with its own stream `Draws(seat_seed(game_seed(S, i), s))`, so
  one seat's draws never depend on how many draws another seat made;
* `Draws.below(k)` is one draw: a uniform index 0..k-1 from the top 53 bits of one output.

Chunks of games may then run on any number of workers and give the same results.
"""

from __future__ import annotations

from dekal_ref.deal import SplitMix64

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment: consecutive games land far apart
SEAT_GAMMA = 0xD1B54A32D192ED03  # an odd 64-bit constant, not a multiple of GOLDEN_GAMMA


def game_seed(run_seed: int, game: int) -> int:
    """The seed of game `game` (from 0) of a run seeded `run_seed`: one SplitMix64 output."""
    return SplitMix64((run_seed + game * GOLDEN_GAMMA) & MASK64).next()


def seat_seed(seed_of_game: int, seat: int) -> int:
    """The seed of seat `seat`'s decision stream in the game seeded `seed_of_game`."""
    return (seed_of_game ^ ((seat + 1) * SEAT_GAMMA)) & MASK64


class Draws:
    """A stream of uniform choices: `below(k)` is an index 0..k-1, one generator output each."""

    def __init__(self, seed: int) -> None:
        self.generator = SplitMix64(seed)

    def below(self, k: int) -> int:
        if k < 1:
            raise ValueError(f"a choice needs at least one option, not {k}")
        return int((self.generator.next() >> 11) * 2.0**-53 * k)

    def __repr__(self) -> str:
        return f"Draws(state={self.generator.state:#x})"
