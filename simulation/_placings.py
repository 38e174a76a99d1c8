"""Ratings of three to six bots from their placings (rules S3, S4), with 95% intervals
(`dekal match` with more than two bots).

Each game's placings are read as every pair of seats meeting once: the better place wins, a
shared place is half a win each. The ratings are those of the Bradley–Terry model (Bradley
and Terry, Biometrika 39, 1952), P(i beats j) = γ_i / (γ_i + γ_j), fitted by maximum
likelihood with Hunter's MM iteration ("MM algorithms for generalized Bradley–Terry models",
Annals of Statistics 32, 2004): γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j). They are written on the
Elo scale (R_i = 400·log10 γ_i, so that a difference of 400 is odds of ten to one), centred
on their mean. A prior of one drawn meeting between every two bots (BayesElo's "draw prior")
keeps a bot that never won finite.

The pairs of one game are not independent (they share a deal and a game), so the intervals do
not come from the model's own information matrix, which would take every meeting as
independent and be too narrow: they are percentile bootstrap intervals over the *deals* (each
deal with all the games played on it, seats rotated), the unit that is independent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dekal.extras import needed

with needed("dekal match"):
    import numpy as np
    from numpy.typing import NDArray

PRIOR_DRAWS = 1.0
"""Virtual drawn meetings between every two bots (half a win each way)."""
BOOTSTRAP = 200
"""Bootstrap resamples of the deals for the intervals."""

Placings = Sequence[Sequence[int]]
"""One game: places[b] is the place of bot b (1 is first; shared places as in sport)."""


Matrices = tuple["NDArray[np.float64]", "NDArray[np.float64]"]


def meetings(deals: Sequence[Placings], bots: int) -> Matrices:
    """Per deal, (wins[d, i, j], met[d, i, j]) over its games: a better place is a win, a
    shared one half a win each."""
    places = np.array([list(deal) for deal in deals], dtype=np.int64)  # (deals, games, bots)
    better = places[:, :, :, None] < places[:, :, None, :]
    tied = places[:, :, :, None] == places[:, :, None, :]
    off_diagonal = ~np.eye(bots, dtype=bool)
    wins = (better + 0.5 * tied).sum(axis=1) * off_diagonal
    met = np.broadcast_to(off_diagonal * places.shape[1], wins.shape).astype(np.float64)
    return wins, met


def bradley_terry(wins: NDArray[np.float64], met: NDArray[np.float64]) -> NDArray[np.float64]:
    """Elo-scale Bradley–Terry ratings, centred on 0, from summed (wins, met) matrices with
    PRIOR_DRAWS (module docstring)."""
    n = len(wins)
    off_diagonal = ~np.eye(n, dtype=bool)
    m = (met + PRIOR_DRAWS) * off_diagonal
    total_wins = (wins + PRIOR_DRAWS / 2 * off_diagonal).sum(axis=1)
    gamma = np.ones(n)
    for _ in range(10_000):
        new = total_wins / (m / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())
        done = np.abs(np.log(new / gamma)).max() < 1e-10
        gamma = new
        if done:
            break
    return np.asarray(400 * np.log10(gamma), dtype=np.float64)


@dataclass(frozen=True)
class Rating:
    """A bot's Elo-scale rating (centred on the bots' mean) with its 95% bootstrap interval."""

    elo: float
    low: float
    high: float


def ratings(deals: Sequence[Placings], bots: int, seed: int = 0) -> list[Rating]:
    """Every bot's rating from the placings of every game of every deal (module docstring);
    the bootstrap draws from numpy's generator seeded `seed`, so the same match gives the
    same intervals. ValueError for no deal."""
    if not deals:
        raise ValueError("deals: no deal played yet")
    wins, met = meetings(deals, bots)
    elos = bradley_terry(wins.sum(axis=0), met.sum(axis=0))
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(len(deals), [1 / len(deals)] * len(deals), size=BOOTSTRAP)
    flat_wins, flat_met = wins.reshape(len(deals), -1), met.reshape(len(deals), -1)
    drawn = np.array(
        [
            bradley_terry((w @ flat_wins).reshape(bots, bots), (w @ flat_met).reshape(bots, bots))
            for w in weights.astype(np.float64)
        ]
    )
    low, high = np.percentile(drawn, [2.5, 97.5], axis=0)
    return [Rating(float(elos[b]), float(low[b]), float(high[b])) for b in range(bots)]
