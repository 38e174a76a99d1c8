"""Two bots on paired deals: Elo with its 95% interval, and the sequential probability ratio
test that stops a match as soon as it decides (`dekal match`).

A *pair* is one deal played twice with the seats swapped (docs/bots.md, "Matches"). Bot A
scores 1 for a win, 1/2 for a shared first place and 0 for a loss in each game, so a pair
scores 0, 1/2, 1, 3/2 or 2 points: its outcome is one of five, and the match is a
*pentanomial* sample, `counts[i]` pairs that scored i/2 points (i = 0 … 4). Pairs are
independent (each its own deal); the two games of a pair are not (they share a deal), which
is why the pair, not the game, is the unit of every variance here: the pentanomial model of
the Stockfish testing framework (fishtest), which replaced the trinomial (game) model for
exactly that reason.

Elo is logistic: an expected score s per game is an Elo difference of −400·log10(1/s − 1).

The SPRT is the generalized SPRT (GSPRT) of Lai ("Nearly optimal sequential tests of
composite hypotheses", Annals of Statistics 16, 1988), in the form Michel Van den Bergh wrote
for fishtest ("A generalized SPRT", 2021, fishtest's `stat_util.py`): H0 "the Elo difference
is elo0" against H1 "it is elo1"; each hypothesis is a set of pentanomial distributions (those
whose mean per game is the score of that Elo), and the log-likelihood ratio compares the best
distribution of each set given the counts seen:

    LLR = N · Σ p̂_i · log(p1_i / p0_i)

where p̂ is the observed frequency and p_k the distribution nearest to p̂ (in Kullback–Leibler
divergence, i.e. the maximum likelihood) whose mean score is s_k:
p_k,i = p̂_i / (1 + λ_k (x_i − s_k)), with x_i = i/4 the per-game score of outcome i and
λ_k the root of Σ p̂_i (x_i − s_k) / (1 + λ_k (x_i − s_k)) = 0. The match stops when the LLR
leaves (log(β/(1−α)), log((1−β)/α)) (Wald's bounds): below, H0 is accepted; above, H1.
Counts of zero are given a pseudo-count of 10⁻³, as fishtest does, so that every λ exists.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

OUTCOMES = 5
"""A pair scores 0, 1/2, 1, 3/2 or 2 points: counts[i] is the number that scored i/2."""
PAIR_SCORES = tuple(i / 4 for i in range(OUTCOMES))
"""The mean score per game of each outcome: 0, 1/4, 1/2, 3/4, 1."""
PSEUDO_COUNT = 1e-3
Z95 = NormalDist().inv_cdf(0.975)  # 1.959963984540054


def score_of_elo(elo: float) -> float:
    """The expected score per game of a logistic Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of_score(score: float) -> float:
    """The logistic Elo difference of an expected score per game (±inf at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def _check(counts: Sequence[int]) -> int:
    if len(counts) != OUTCOMES or any(count < 0 for count in counts):
        raise ValueError(f"counts: {OUTCOMES} pair counts, none negative, not {list(counts)}")
    return sum(counts)


@dataclass(frozen=True)
class EloEstimate:
    """A's Elo over B with its 95% interval, from pairs; `score` per game with its SE."""

    pairs: int
    score: float
    score_se: float
    elo: float
    low: float
    high: float
    unpaired_se: float
    """The standard error the same number of games would have if each were dealt apart
    (the per-game variance over 2N games): what pairing saves is 1 − score_se/unpaired_se."""


def elo_estimate(counts: Sequence[int], games: Sequence[int]) -> EloEstimate:
    """Elo of A over B from pentanomial counts: the mean score per game, its standard error
    from the variance between pairs (N pairs: SE = sd(pair mean)/√N), and the 95% interval
    mapped through the logistic curve. `games` counts A's games lost, drawn (first place
    shared) and won, which gives the unpaired SE. ValueError for no pair, or game counts
    that are not two games a pair."""
    pairs = _check(counts)
    if pairs == 0:
        raise ValueError("counts: no pair played yet")
    if len(games) != 3 or sum(games) != 2 * pairs:
        raise ValueError(f"games: losses, draws, wins of {2 * pairs} games, not {list(games)}")
    score = sum(n * x for n, x in zip(counts, PAIR_SCORES, strict=True)) / pairs
    pair_var = sum(n * (x - score) ** 2 for n, x in zip(counts, PAIR_SCORES, strict=True)) / pairs
    game_var = sum(n * (y - score) ** 2 for n, y in zip(games, (0, 0.5, 1), strict=True)) / (
        2 * pairs
    )
    se = math.sqrt(pair_var / pairs)
    return EloEstimate(
        pairs=pairs,
        score=score,
        score_se=se,
        elo=elo_of_score(score),
        low=elo_of_score(score - Z95 * se),
        high=elo_of_score(score + Z95 * se),
        unpaired_se=math.sqrt(game_var / (2 * pairs)),
    )


def _lambda(p: Sequence[float], d: Sequence[float]) -> float:
    """The root λ of Σ p_i d_i / (1 + λ d_i) = 0 on the interval where every 1 + λ d_i > 0
    (a decreasing function there: bisection, then Newton steps that stay inside)."""
    low = -1 / max(d) if max(d) > 0 else -math.inf
    high = -1 / min(d) if min(d) < 0 else math.inf
    lam = 0.0
    for _ in range(100):
        f = sum(pi * di / (1 + lam * di) for pi, di in zip(p, d, strict=True))
        if abs(f) < 1e-13:
            return lam
        if f > 0:
            low = lam
        else:
            high = lam
        slope = -sum(pi * di * di / (1 + lam * di) ** 2 for pi, di in zip(p, d, strict=True))
        step = lam - f / slope
        lam = step if low < step < high else (low + high) / 2
    return lam


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (Elo elo1) against H0 (elo0) given pentanomial
    counts (module docstring); 0 for no pair."""
    pairs = _check(counts)
    if pairs == 0:
        return 0.0
    regular = [count if count > 0 else PSEUDO_COUNT for count in counts]
    total = sum(regular)
    p = [count / total for count in regular]
    terms = []
    for elo in (elo0, elo1):
        s = score_of_elo(elo)
        d = [x - s for x in PAIR_SCORES]
        lam = _lambda(p, d)
        terms.append([math.log1p(lam * di) for di in d])  # log(p̂_i / p_k,i)
    return total * sum(pi * (t0 - t1) for pi, t0, t1 in zip(p, terms[0], terms[1], strict=True))


@dataclass(frozen=True)
class Sprt:
    """An SPRT's hypotheses (logistic Elo) and error rates: alpha (accepting H1 when H0 is
    true) and beta (accepting H0 when H1 is true)."""

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"sprt: elo0 < elo1, not elo0={self.elo0}, elo1={self.elo1}")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise ValueError(f"sprt: {name} is between 0 and 0.5, not {getattr(self, name)}")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the LLR: (log(β/(1−α)), log((1−β)/α))."""
        return (
            math.log(self.beta / (1 - self.alpha)),
            math.log((1 - self.beta) / self.alpha),
        )

    def verdict(self, counts: Sequence[int]) -> tuple[float, str | None]:
        """The LLR of the counts and "H0" or "H1" once it has left the bounds (None: go on)."""
        value = llr(counts, self.elo0, self.elo1)
        lower, upper = self.bounds
        if value <= lower:
            return value, "H0"
        if value >= upper:
            return value, "H1"
        return value, None
