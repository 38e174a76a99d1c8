"""Shuffling and dealing (rules M1, M3, M5), reproducible in any language.

A seeded deal uses SplitMix64 and a Fisher–Yates shuffle, exactly as spec/rules.md states,
so that another implementation given the same seed deals the same cards:

    state = seed mod 2^64
    next(): state = (state + 0x9E3779B97F4A7C15) mod 2^64
            z = state
            z = ((z xor (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2^64
            z = ((z xor (z >> 27)) * 0x94D049BB133111EB) mod 2^64
            return z xor (z >> 31)

    deck = [1]*10 + [2]*10 + … + [10]*10          (sorted, 100 cards)
    for i from 99 down to 1: j = next() mod (i + 1); swap deck[i], deck[j]

Seat s gets deck[16s : 16s + 16] in reading order (a1, b1, …, d4); the rest, in order, is the
set-aside pile (first card on top). Round r of a match shuffles a fresh sorted deck with the
same generator, continuing where round r − 1 stopped.
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal_ref.errors import IllegalAction
from dekal_ref.notation import Grid
from dekal_ref.reading import SEED_MAX, check_number

MASK64 = (1 << 64) - 1
DECK = tuple(value for value in range(1, 11) for _ in range(10))
CARDS_PER_GRID = 16
MIN_PLAYERS, MAX_PLAYERS = 2, 6


class SplitMix64:
    """The project's documented generator (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def shuffled_deck(generator: SplitMix64) -> list[int]:
    """M3: a Fisher–Yates shuffle of the sorted 100-card deck."""
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = generator.next() % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True)
class Deal:
    """Every seat's grid (all face down) and the set-aside pile, top card first."""

    grids: tuple[Grid, ...]
    pile: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.grids)


def check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction("M2", f"Dékal is played by 2 to 6 players, not {players}")


def deal_from_deck(deck: list[int], players: int) -> Deal:
    """M3: seat s takes the 16 cards deck[16s:16s+16]; the rest is the set-aside pile."""
    check_players(players)
    grids = tuple(
        tuple(deck[CARDS_PER_GRID * seat : CARDS_PER_GRID * (seat + 1)]) for seat in range(players)
    )
    return Deal(grids=grids, pile=tuple(deck[CARDS_PER_GRID * players :]))


def seeded_deals(seed: int, players: int, rounds: int) -> list[Deal]:
    """The deals of rounds 1..rounds of a match played from `seed` (M5: each round anew).

    A seed is 0 ≤ seed < 2^64 (spec/rules.md, "Seeded deals"): any other is refused, naming
    the field, rather than silently reduced to the seed it shares a deal with."""
    check_number(seed, "seed", most=SEED_MAX)
    generator = SplitMix64(seed)
    return [deal_from_deck(shuffled_deck(generator), players) for _ in range(rounds)]


def seeded_deal(seed: int, players: int, round_number: int = 1) -> Deal:
    """The deal of one round of a match played from `seed`."""
    return seeded_deals(seed, players, round_number)[-1]


def check_deal(deal: Deal) -> None:
    """M1, M3: every grid holds 16 cards, and grids plus pile are the 100 cards of the box."""
    check_players(deal.players)
    for seat, grid in enumerate(deal.grids):
        if len(grid) != CARDS_PER_GRID or any(not 1 <= v <= 10 for v in grid):
            raise IllegalAction("M3", f"seat {seat}'s grid must be 16 cards of value 1–10")
    cards = sorted([v for grid in deal.grids for v in grid] + list(deal.pile))
    if cards != sorted(DECK):
        raise IllegalAction(
            "M1", "the grids and the set-aside pile must be the 100 cards: ten of each value 1–10"
        )
