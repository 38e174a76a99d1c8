"""What a run counts: integers only, added chunk by chunk (the statistics come later, once).

A chunk of games becomes a `Tally`: per seat a histogram of final scores (S2; a match's
totals, S4) and a count of wins (place 1, S3/S4, shared victories included); per bot, per
game, the sum of its seats' scores and how many of its seats won; and for the game as a
whole how often the first player won, the victory was shared, turn 1 of round 1 tied for the
lowest card (an F2 draw), F2's short-pile ruling was used, and how many rounds a game took.

Tallies add exactly (`a + b`), so however the games are cut into chunks, and in whatever
order the chunks finish, the sum is the same integers: the floats of dekal.simulation.stats
are computed from it once, at the end, and cannot change by a digit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from dekal.extras import needed

with needed("dekal simulate"):
    import numpy as np
    from numpy.typing import NDArray

Histogram = Mapping[int, int]
"""value -> how many times it was seen."""


class ResultArrays(Protocol):
    """The fields of dekal.kernel.GameResults a tally reads (numpy arrays over N games)."""

    @property
    def totals(self) -> NDArray[np.int64]: ...  # (N, n): final totals (= points, single round)
    @property
    def places(self) -> NDArray[np.int64]: ...  # (N, n): 1 = a winner (S3/S4)
    @property
    def first_player(self) -> NDArray[np.int64]: ...  # (N,): round 1's start
    @property
    def f2_tie(self) -> NDArray[np.bool_]: ...  # (N,): turn 1 of round 1 tied for the lowest
    @property
    def pile_exhausted(self) -> NDArray[np.bool_]: ...  # (N,): F2's short-pile ruling used
    @property
    def rounds(self) -> NDArray[np.int64]: ...  # (N,)


def _added(a: Histogram, b: Histogram) -> dict[int, int]:
    total = Counter(a)
    total.update(b)
    return dict(sorted(total.items()))


def _histogram(values: NDArray[np.int64]) -> dict[int, int]:
    seen, counts = np.unique(values, return_counts=True)
    return {int(value): int(count) for value, count in zip(seen, counts, strict=True)}


@dataclass(frozen=True)
class BotTally:
    """One bot's seats, game by game: a histogram of the per-game sum of their scores, and of
    how many of them won. With one seat these are that seat's own figures."""

    seats: tuple[int, ...]
    score_sums: Histogram
    wins: Histogram

    def __add__(self, other: BotTally) -> BotTally:
        assert self.seats == other.seats
        return BotTally(
            self.seats, _added(self.score_sums, other.score_sums), _added(self.wins, other.wins)
        )


@dataclass(frozen=True)
class Tally:
    """The counts of a set of games (see the module docstring); `+` merges two sets."""

    games: int
    scores: tuple[Histogram, ...]  # per seat: final score -> games
    wins: tuple[int, ...]  # per seat: games it won (shared victories too)
    bots: Mapping[str, BotTally]  # per bot name, in seat order of first appearance
    first_player_wins: int
    shared: int  # games with two or more winners
    f2_ties: int
    pile_exhausted: int
    rounds: Histogram  # rounds played -> games

    @property
    def players(self) -> int:
        return len(self.scores)

    def __add__(self, other: Tally) -> Tally:
        if self.players != other.players or list(self.bots) != list(other.bots):
            raise ValueError("only tallies of the same seats and bots add up")
        return Tally(
            games=self.games + other.games,
            scores=tuple(_added(a, b) for a, b in zip(self.scores, other.scores, strict=True)),
            wins=tuple(a + b for a, b in zip(self.wins, other.wins, strict=True)),
            bots={name: self.bots[name] + other.bots[name] for name in self.bots},
            first_player_wins=self.first_player_wins + other.first_player_wins,
            shared=self.shared + other.shared,
            f2_ties=self.f2_ties + other.f2_ties,
            pile_exhausted=self.pile_exhausted + other.pile_exhausted,
            rounds=_added(self.rounds, other.rounds),
        )


def seats_of(bots: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """Each bot's seats, bots in the order of their first seat."""
    seats: dict[str, list[int]] = {}
    for seat, bot in enumerate(bots):
        seats.setdefault(bot, []).append(seat)
    return {bot: tuple(held) for bot, held in seats.items()}


def tally(results: ResultArrays, bots: Sequence[str]) -> Tally:
    """Count the games of `results` (GameResults-shaped), seat s played by bots[s]."""
    totals = np.asarray(results.totals, dtype=np.int64)
    won = np.asarray(results.places) == 1
    games, players = totals.shape
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots for {players} seats")
    first = np.asarray(results.first_player, dtype=np.int64)
    rows = np.arange(games)
    return Tally(
        games=games,
        scores=tuple(_histogram(totals[:, seat]) for seat in range(players)),
        wins=tuple(int(won[:, seat].sum()) for seat in range(players)),
        bots={
            bot: BotTally(
                seats,
                _histogram(totals[:, list(seats)].sum(axis=1)),
                _histogram(won[:, list(seats)].sum(axis=1).astype(np.int64)),
            )
            for bot, seats in seats_of(bots).items()
        },
        first_player_wins=int(won[rows, first].sum()),
        shared=int((won.sum(axis=1) > 1).sum()),
        f2_ties=int(np.asarray(results.f2_tie).sum()),
        pile_exhausted=int(np.asarray(results.pile_exhausted).sum()),
        rounds=_histogram(np.asarray(results.rounds, dtype=np.int64)),
    )
