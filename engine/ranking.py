"""Scores and winners of packed states (S2–S4), with the reference's result types.

S3: in a round, lowest score, then fewest cards left; still tied, shared. S4: in a match,
lowest total; equal totals share. Places are shared as in sport (1, 1, 3).
"""

from __future__ import annotations

from dekal import bits
from dekal._grid import cells_of
from dekal.state import FastState
from dekal_ref.ranking import Standing
from dekal_ref.scoring import Score
from dekal_ref.state import Phase


def round_scores(state: FastState) -> list[Score]:
    """S1–S2 for every seat's grid (meaningful once the round's 16 turns are played)."""
    scores = []
    for word in state.grids:
        points, remaining = bits.score(word)
        gone = frozenset(cells_of(bits.compact(bits.cancelled(word))))
        scores.append(Score(points=points, remaining=remaining, cancelled=gone))
    return scores


def ranking(state: FastState) -> list[Standing]:
    """The full ranking with shared places, best first (S3 for a round, S4 for a match)."""
    if state.phase not in (Phase.OVER, Phase.NEXT_ROUND):
        raise ValueError("ranking: the round has not been scored yet")
    scores = [bits.score(word) for word in state.grids]
    keys = scores if state.rules.threshold is None else [(total,) for total in state.totals]
    places = [1 + sum(other < key for other in keys) for key in keys]
    standings = [
        Standing(place, seat, points, remaining, state.totals[seat])
        for seat, (place, (points, remaining)) in enumerate(zip(places, scores, strict=True))
    ]
    return sorted(standings, key=lambda s: (s.place, s.seat))


def winners(state: FastState) -> list[int]:
    return [s.seat for s in ranking(state) if s.place == 1]
