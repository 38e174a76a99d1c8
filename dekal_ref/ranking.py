"""Scores and winners (rules S2–S4).

S3: in a round, the lowest score wins; a tie goes to fewer cards left; still tied, the
victory is shared. S4: in a match, the lowest total wins; equal totals share (ruling).
Places are shared the way sport shares them: two seats tied for first are both 1st, the
next seat is 3rd.
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal_ref.scoring import Score, score_grid
from dekal_ref.state import GameState, Phase


def round_scores(state: GameState) -> list[Score]:
    """S1–S2 for every seat's grid (meaningful once the round's 16 turns are played)."""
    return [score_grid(state.values(seat)) for seat in range(state.players)]


@dataclass(frozen=True)
class Standing:
    place: int
    seat: int
    points: int  # this round's score (S2)
    remaining: int  # cards left this round (S2)
    total: int  # match total (S4); equals points in a single round


def places(keys: list[tuple[int, ...]]) -> list[int]:
    """Shared places: a seat's place is 1 + the number of seats with a strictly better key."""
    return [1 + sum(other < key for other in keys) for key in keys]


def ranking(state: GameState) -> list[Standing]:
    """The full ranking with shared places, best first (S3 for a round, S4 for a match)."""
    if state.phase not in (Phase.OVER, Phase.NEXT_ROUND):
        raise ValueError("ranking: the round has not been scored yet")
    scores = round_scores(state)
    keys: list[tuple[int, ...]]
    if state.rules.threshold is None:
        keys = [(s.points, s.remaining) for s in scores]
    else:
        keys = [(total,) for total in state.totals]
    standings = [
        Standing(place, seat, scores[seat].points, scores[seat].remaining, state.totals[seat])
        for seat, place in enumerate(places(keys))
    ]
    return sorted(standings, key=lambda s: (s.place, s.seat))


def winners(state: GameState) -> list[int]:
    return [s.seat for s in ranking(state) if s.place == 1]
