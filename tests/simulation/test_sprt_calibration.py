"""The SPRT of `dekal match` (dekal.simulation._sprt) keeps its promises on simulated
pentanomial score streams: a bot against itself is sent to H1 at most alpha of the time,
a bot truly elo1 stronger at least 1 − beta of the time; and its LLR is the one the normal
approximation gives where that approximation holds (a second, independent path)."""

from __future__ import annotations

import math
import random

import pytest

from dekal.simulation._sprt import PAIR_SCORES, Sprt, elo_estimate, llr, score_of_elo

SELF_PLAY = (0.2, 0.02, 0.56, 0.02, 0.2)
"""A symmetric pentanomial (mean score 1/2): a bot against itself, two-player pairs that
mostly split (each seat of a deal wins once), few shared first places."""


def tilted(p: tuple[float, ...], elo: float) -> list[float]:
    """The distribution nearest p whose mean score is that of `elo` (exponential tilt)."""
    target = score_of_elo(elo)
    low, high = -50.0, 50.0
    for _ in range(200):
        t = (low + high) / 2
        weights = [pi * math.exp(t * x) for pi, x in zip(p, PAIR_SCORES, strict=True)]
        mean = sum(w * x for w, x in zip(weights, PAIR_SCORES, strict=True)) / sum(weights)
        low, high = (t, high) if mean < target else (low, t)
    total = sum(weights)
    return [w / total for w in weights]


def accepted_h1(p: list[float] | tuple[float, ...], sprt: Sprt, runs: int, seed: int) -> float:
    rng = random.Random(seed)
    accepted = 0
    for _ in range(runs):
        counts = [0] * 5
        verdict = None
        while verdict is None:
            counts[rng.choices(range(5), p)[0]] += 1
            _, verdict = sprt.verdict(counts)
        accepted += verdict == "H1"
    return accepted / runs


def test_a_bot_against_itself_is_rarely_found_stronger() -> None:
    """Wide bounds (elo1 = 100), so that each test ends within some thirty pairs: the
    default run's cheap form of the deep test below."""
    runs, alpha = 500, 0.05
    rate = accepted_h1(SELF_PLAY, Sprt(0, 100, alpha, 0.05), runs, seed=1)
    assert rate <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / runs)


@pytest.mark.deep
def test_over_1000_sprts_of_a_bot_against_itself_at_most_5_percent_accept_h1() -> None:
    """The issue's calibration: elo0 = 0, elo1 = 20, alpha = beta = 0.05, 1,000 SPRTs: the
    share that accepts H1 is at most 5% + 1.4% (two standard errors of 1,000 runs)."""
    assert accepted_h1(SELF_PLAY, Sprt(0, 20), 1000, seed=2) <= 0.05 + 0.014


@pytest.mark.deep
def test_a_bot_elo1_stronger_is_found_so_at_least_1_minus_beta_of_the_time() -> None:
    assert accepted_h1(tilted(SELF_PLAY, 20), Sprt(0, 20), 1000, seed=3) >= 0.95 - 0.014


def test_the_llr_is_the_normal_approximation_where_that_holds() -> None:
    """For many pairs and close hypotheses, the GSPRT's LLR tends to Wald's normal one,
    N (s1 − s0)(2 s̄ − s0 − s1) / (2 σ²) with σ² the variance of a pair's mean score."""
    counts = [1900, 210, 5400, 250, 2240]
    pairs = sum(counts)
    mean = sum(n * x for n, x in zip(counts, PAIR_SCORES, strict=True)) / pairs
    var = sum(n * (x - mean) ** 2 for n, x in zip(counts, PAIR_SCORES, strict=True)) / pairs
    s0, s1 = score_of_elo(0), score_of_elo(5)
    normal = pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert llr(counts, 0, 5) == pytest.approx(normal, rel=0.01)


def test_the_llr_leans_to_the_hypothesis_the_scores_are_nearer() -> None:
    assert llr([10, 0, 20, 0, 30], 0, 20) > 0  # A scores 0.67 a game: beyond elo1
    assert llr([30, 0, 20, 0, 10], 0, 20) < 0
    assert llr([10, 0, 20, 0, 30], 20, 20.0000001) == pytest.approx(0, abs=1e-6)


def test_wald_bounds_are_those_of_alpha_and_beta() -> None:
    lower, upper = Sprt(0, 20, 0.05, 0.1).bounds
    assert (lower, upper) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


def test_the_elo_interval_holds_the_elo_of_its_score() -> None:
    estimate = elo_estimate([5, 10, 50, 20, 15], [60, 20, 120])
    assert estimate.low < estimate.elo < estimate.high
    assert score_of_elo(estimate.elo) == pytest.approx(estimate.score)
    assert estimate.score == pytest.approx((10 * 0.25 + 50 * 0.5 + 20 * 0.75 + 15) / 100)
