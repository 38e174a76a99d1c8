"""Games played through the Python table loop (dekal.bots.table), as GameResults-shaped arrays.

The compiled kernel (dekal.kernel.play_games) plays the bots it has; any other bot (pimc,
ismcts) plays seat by seat through the table loop, one game at a time. This module plays a
chunk of games that way and describes each as the kernel would, so that one tally
(dekal.simulation._tally) counts both: final totals, places (S3 for one round, S4 for a match),
round 1's first player, whether turn 1 tied for the lowest card (F2) and whether F2's
short-pile ruling settled it, and the number of rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dekal.extras import needed
from dekal_ref.actions import Reveal
from dekal_ref.deal import seeded_deal
from dekal_ref.ranking import ranking
from dekal_ref.state import GameState, Rules

with needed("dekal simulate"):
    import numpy as np
    from numpy.typing import NDArray


@dataclass(frozen=True)
class TableResults:
    """The fields of dekal.kernel.GameResults that dekal.simulation._tally reads."""

    totals: NDArray[np.int64]
    places: NDArray[np.int64]
    first_player: NDArray[np.int64]
    f2_tie: NDArray[np.bool_]
    pile_exhausted: NDArray[np.bool_]
    rounds: NDArray[np.int64]


@dataclass(frozen=True)
class FirstTurn:
    """How turn 1 of round 1 chose the first player under the lowest-card rule (F1, F2)."""

    tie: bool  # two or more seats revealed the lowest card: F2's draws
    short_pile: bool  # F2's ruling: the pile could not serve every still-tied seat


def first_turn(revealed: Sequence[int], pile: Sequence[int]) -> FirstTurn:
    """F1–F2 on turn 1's revealed values (seat order) and the set-aside pile (top first):
    tied seats draw in ascending seat order, the lowest draw wins, ties draw again; when the
    pile cannot give every tied seat a card, the lowest tied seat starts (ruling)."""
    lowest = min(revealed)
    tied = [seat for seat, value in enumerate(revealed) if value == lowest]
    tie = len(tied) > 1
    left = list(pile)
    while len(tied) > 1:
        if len(left) < len(tied):
            return FirstTurn(tie, short_pile=True)
        draws, left = left[: len(tied)], left[len(tied) :]
        tied = [seat for seat, draw in zip(tied, draws, strict=True) if draw == min(draws)]
    return FirstTurn(tie, short_pile=False)


def describe_game(
    rules: Rules, seed: int, actions: Sequence[object], final: GameState
) -> tuple[list[int], list[int], int, FirstTurn, int]:
    """(totals, places, round 1's first player, turn 1's F2 facts, rounds) of one game played
    from `seed`, given its actions (turn 1's reveals first) and its final state."""
    n = rules.players
    places = [0] * n
    for standing in ranking(final):
        places[standing.seat] = standing.place
    assert final.start is not None
    first = (final.start - (final.round - 1)) % n  # F4: the start moved one seat a round
    turn_one = FirstTurn(False, False)
    if rules.first == "lowest":  # F3 (chosen): nobody reveals for the token, nobody draws
        deal = seeded_deal(seed, n)
        reveals = [a for a in actions[:n] if isinstance(a, Reveal)]
        revealed = [0] * n
        for reveal in reveals:
            revealed[reveal.seat] = deal.grids[reveal.seat][reveal.cell]
        turn_one = first_turn(revealed, deal.pile)
    return list(final.totals), places, first, turn_one, final.round


def play_table(
    rules: Rules, bots: Sequence[str], seeds: Sequence[int], first_players: Sequence[int] | None
) -> TableResults:
    """Play one game per seed through the table loop, seat s by make_bot(bots[s])."""
    from dekal.bots.bot import make_bot
    from dekal.bots.table import play_game

    rows = []
    # One bot a seat for the chunk: ours keep nothing from one game to the next (frozen
    # dataclasses), and a program (`cmd:`) is told each new game, so its process is reused
    # rather than started again for every game, and ended with the chunk.
    players = [make_bot(spec) for spec in bots]
    try:
        for k, seed in enumerate(seeds):
            first = None if first_players is None else first_players[k]
            played = play_game(rules, players, seed, first_player=first)
            rows.append(describe_game(rules, seed, list(played.actions), played.final))
    finally:
        for player in players:
            close = getattr(player, "close", None)
            if close is not None:
                close()
    return TableResults(
        totals=np.array([row[0] for row in rows], dtype=np.int64).reshape(len(rows), rules.players),
        places=np.array([row[1] for row in rows], dtype=np.int64).reshape(len(rows), rules.players),
        first_player=np.array([row[2] for row in rows], dtype=np.int64),
        f2_tie=np.array([row[3].tie for row in rows], dtype=np.bool_),
        pile_exhausted=np.array([row[3].short_pile for row in rows], dtype=np.bool_),
        rounds=np.array([row[4] for row in rows], dtype=np.int64),
    )
