"""The statistics of a run, computed once from its integer tally (dekal.simulation._tally).

Every estimate comes with a 95% confidence interval:

* a rate of a yes/no event per game (a seat won, the first player won, an F2 draw, …):
  the Wilson score interval, which stays inside [0, 1] and is honest near 0 and 1;
* a mean (a seat's score, rounds per game, and a bot's per-seat figures over its seats in
  one game): mean ± z·s/√N over the N games (normal approximation; games are independent,
  a game's seats are not, so a bot's figures are per-game sums divided by its seat count).

The sums of squares are exact integers and every float is computed here, from them, in one
fixed order: the same tally gives the same digits, whoever counted it and in what chunks.
Floats are rounded to DIGITS decimals, far below any interval's width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from dekal.extras import needed

with needed("dekal simulate's statistics"):
    import numpy as np

from dekal.simulation._tally import Histogram, Tally

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963984540054
DIGITS = 6


@dataclass(frozen=True)
class Estimate:
    """A value and its 95% confidence interval [low, high]."""

    value: float
    low: float
    high: float

    def __contains__(self, x: float) -> bool:
        return self.low <= x <= self.high

    def json(self) -> list[float]:
        return [round(self.low, DIGITS), round(self.high, DIGITS)]

    def __str__(self) -> str:
        return f"{self.value:.4g} [{self.low:.4g}, {self.high:.4g}]"


def _count(field: str, value: object, low: int, high: int | None = None) -> int:
    """ValueError naming the argument unless `value` is a whole number low..high."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{field}: a whole number, not {repr(value)[:40]}")
    value = int(value)
    if value < low or (high is not None and value > high):
        allowed = f"{low} to {high}" if high is not None else f"at least {low}"
        shown = f"{value}" if abs(value) < 10**30 else "a larger number"
        raise ValueError(f"{field}: {allowed}, not {shown}")
    return value


def rate(successes: int, trials: int) -> Estimate:
    """A yes/no event seen `successes` times in `trials`: the Wilson score interval.

    ValueError naming the argument unless 1 <= trials and 0 <= successes <= trials."""
    trials = _count("trials", trials, 1)
    successes = _count("successes", successes, 0, trials)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials**2))
    # at p = 0 and p = 1 the bound is exactly 0 or 1: no rounding left over
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Estimate(p, low, high)


def mean(histogram: Histogram, scale: int = 1) -> Estimate:
    """The mean of the values of `histogram` divided by `scale`, ± z·s/√N (s from exact sums).

    ValueError naming the argument: scale from 1, counts from 0, at least one value."""
    _count("scale", scale, 1)
    for value, count in histogram.items():
        _count("histogram value", value, -(2**62), 2**62)
        _count("histogram count", count, 0)
    n = sum(histogram.values())
    if n < 1:
        raise ValueError("histogram: a mean needs at least one value")
    total = sum(value * count for value, count in histogram.items())
    squares = sum(value * value * count for value, count in histogram.items())
    average = Fraction(total, n * scale)
    # the sample variance, exactly: (n Σx² − (Σx)²) / (n (n − 1)), then of x/scale
    variance = Fraction(n * squares - total * total, n * (n - 1) * scale * scale) if n > 1 else 0
    half = Z95 * math.sqrt(variance / n)
    return Estimate(float(average), float(average) - half, float(average) + half)


def per_seat_rate(wins: Histogram, seats: int) -> Estimate:
    """The win rate of one of `seats` seats, from how many of them won each game."""
    _count("seats", seats, 1)
    if seats == 1:
        return rate(wins.get(1, 0), sum(wins.values()))
    return mean(wins, seats)


def quantile(histogram: Histogram, q: float) -> int:
    """The smallest value v with at least a share q of the values ≤ v (0 ≤ q ≤ 1)."""
    if not isinstance(q, int | float) or not 0 <= q <= 1:
        raise ValueError(f"q: a share from 0 to 1, not {repr(q)[:40]}")
    n = sum(histogram.values())
    need = max(1, math.ceil(q * n))
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= need:
            return value
    raise ValueError("an empty histogram has no quantile")


def value_at_rank(histogram: Histogram, rank: int) -> int:
    """The rank-th smallest value (from 1), ranks outside 1..N clamped to the extremes."""
    if isinstance(rank, bool) or not isinstance(rank, int | np.integer):
        raise ValueError(f"rank: a whole number, not {repr(rank)[:40]}")
    n = sum(histogram.values())
    return quantile(histogram, min(max(rank, 1), n) / n)


def median_interval(histogram: Histogram) -> tuple[int, int]:
    """A 95% confidence interval for the median, free of any assumed distribution: the
    values at ranks N/2 ∓ z·√N/2 (the order statistics the binomial B(N, 1/2) brackets)."""
    n = sum(histogram.values())
    half = Z95 * math.sqrt(n) / 2
    return (
        value_at_rank(histogram, math.floor(n / 2 - half)),
        value_at_rank(histogram, math.ceil(1 + n / 2 + half)),
    )


def distribution(histogram: Histogram) -> dict[str, Any]:
    """Quartiles (the median with its 95% interval), extremes and the whole histogram as
    [value, count] pairs."""
    return {
        "min": min(histogram),
        "q1": quantile(histogram, 0.25),
        "median": quantile(histogram, 0.5),
        "median_ci95": list(median_interval(histogram)),
        "q3": quantile(histogram, 0.75),
        "max": max(histogram),
        "histogram": [[value, histogram[value]] for value in sorted(histogram)],
    }


def pooled(histograms: Sequence[Histogram]) -> dict[int, int]:
    merged: dict[int, int] = {}
    for histogram in histograms:
        for value, count in histogram.items():
            merged[value] = merged.get(value, 0) + count
    return dict(sorted(merged.items()))


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    bot: str
    score: Estimate
    win_rate: Estimate
    scores: Histogram


@dataclass(frozen=True)
class BotSummary:
    bot: str
    seats: tuple[int, ...]
    score: Estimate  # per seat
    win_rate: Estimate  # per seat
    scores: Histogram  # its seats' scores pooled


@dataclass(frozen=True)
class Summary:
    """Everything a run reports, from its tally."""

    tally: Tally
    seats: tuple[SeatSummary, ...]
    bots: tuple[BotSummary, ...]
    first_player_win_rate: Estimate
    shared_rate: Estimate
    f2_draw_rate: Estimate
    pile_exhausted_rate: Estimate
    rounds: Estimate


def summarize(tally: Tally, bots: Sequence[str]) -> Summary:
    """The estimates of a run whose seat s was played by bots[s]."""
    games = tally.games
    seats = tuple(
        SeatSummary(seat, bots[seat], mean(scores), rate(tally.wins[seat], games), scores)
        for seat, scores in enumerate(tally.scores)
    )
    by_bot = tuple(
        BotSummary(
            name,
            counts.seats,
            mean(counts.score_sums, len(counts.seats)),
            per_seat_rate(counts.wins, len(counts.seats)),
            pooled([tally.scores[seat] for seat in counts.seats]),
        )
        for name, counts in tally.bots.items()
    )
    return Summary(
        tally,
        seats,
        by_bot,
        rate(tally.first_player_wins, games),
        rate(tally.shared, games),
        rate(tally.f2_ties, games),
        rate(tally.pile_exhausted, games),
        mean(tally.rounds),
    )


def _figures(score: Estimate, win_rate: Estimate, scores: Histogram) -> dict[str, Any]:
    return {
        "mean_score": round(score.value, DIGITS),
        "ci95": score.json(),
        "win_rate": round(win_rate.value, DIGITS),
        "win_rate_ci95": win_rate.json(),
        "distribution": distribution(scores),
    }


def _rate_fields(name: str, estimate: Estimate) -> dict[str, Any]:
    return {name: round(estimate.value, DIGITS), f"{name}_ci95": estimate.json()}


def summary_json(summary: Summary) -> dict[str, Any]:
    """The statistics part of `dekal simulate --json` (docs/simulate.md lists every key)."""
    return {
        "seats": [
            {"seat": s.seat, "bot": s.bot} | _figures(s.score, s.win_rate, s.scores)
            for s in summary.seats
        ],
        "bots": [
            {"bot": b.bot, "seats": list(b.seats)} | _figures(b.score, b.win_rate, b.scores)
            for b in summary.bots
        ],
        **_rate_fields("first_player_win_rate", summary.first_player_win_rate),
        **_rate_fields("shared_rate", summary.shared_rate),
        **_rate_fields("f2_draw_rate", summary.f2_draw_rate),
        **_rate_fields("pile_exhausted_rate", summary.pile_exhausted_rate),
        "rounds": {
            "mean": round(summary.rounds.value, DIGITS),
            "ci95": summary.rounds.json(),
            "histogram": [[r, c] for r, c in sorted(summary.tally.rounds.items())],
        },
    }
