"""The statistics of `dekal advise` (dekal.bots.advise): what a figure means, checked against
the standard library's own statistics and against the rules' ranking (S1–S3)."""

from __future__ import annotations

import math
import statistics
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from dekal.bots.advise import (
    Figures,
    Outcome,
    best_first,
    exact_mean_range,
    figures_of,
    mean_interval,
    outcome_of,
)
from dekal_ref.actions import Take
from dekal_ref.notation import parse_grid
from dekal_ref.scoring import score_grid

ACTION = Take(0, 3)
values = st.lists(st.integers(0, 160), min_size=2, max_size=200)
outcomes = st.lists(
    st.builds(Outcome, st.integers(0, 160), st.booleans()), min_size=2, max_size=200
)


@given(values)
def test_a_sampled_mean_comes_with_the_normal_95_percent_interval_of_the_mean(
    points: list[int],
) -> None:
    mean, (low, high) = mean_interval(points)
    z = statistics.NormalDist().inv_cdf(0.975)
    half = z * statistics.stdev(points) / math.sqrt(len(points))
    assert math.isclose(mean, statistics.fmean(points), abs_tol=1e-9)
    assert math.isclose(low, statistics.fmean(points) - half, abs_tol=1e-9)
    assert math.isclose(high, statistics.fmean(points) + half, abs_tol=1e-9)


@given(outcomes)
def test_p_win_is_the_share_of_sampled_worlds_won(sample: list[Outcome]) -> None:
    (figures,) = figures_of([ACTION], [[o] for o in sample])
    assert figures.p_win == sum(o.won for o in sample) / len(sample)


def test_one_outcome_in_every_world_has_a_zero_width_interval() -> None:
    (figures,) = figures_of([ACTION], [[Outcome(17, True)]] * 40)
    assert (figures.expected_score, figures.ci95, figures.p_win) == (17.0, (17.0, 17.0), 1.0)


def test_exact_figures_weigh_each_world_by_its_probability() -> None:
    per_world = [[Outcome(10, True)], [Outcome(20, False)]]
    (figures,) = figures_of([ACTION], per_world, [Fraction(1, 4), Fraction(3, 4)])
    assert (figures.expected_score, figures.p_win) == (17.5, 0.25)
    assert figures.ci95 == (10.0, 20.0)  # every score the action can end on


def test_an_exact_interval_has_zero_width_only_when_the_outcome_is_certain() -> None:
    assert exact_mean_range([12], [Fraction(1)]) == (12.0, (12.0, 12.0))
    _, (low, high) = exact_mean_range([12, 13], [Fraction(99, 100), Fraction(1, 100)])
    assert low < high


@given(st.lists(st.integers(0, 100), min_size=30, max_size=100), st.integers(1, 20))
def test_a_difference_on_the_same_worlds_is_known_better_than_either_score(
    luck: list[int], gap: int
) -> None:
    # the same worlds (common random numbers): action B always ends `gap` points above A,
    # however wide each score's own interval is
    a, b = Take(0, 1), Take(0, 2)
    per_world = [[Outcome(x, False), Outcome(x + gap, False)] for x in luck]
    best, other = figures_of([b, a], [[row[1], row[0]] for row in per_world])
    assert (best.action, other.action) == (a, b)
    assert best.versus_best == (0.0, 0.0)
    assert other.versus_best == (float(gap), float(gap))


def test_best_first_is_lowest_expected_score_then_highest_p_win() -> None:
    a = Figures(Take(0, 1), 20.0, (19.0, 21.0), 0.1)
    b = Figures(Take(0, 2), 18.0, (17.0, 19.0), 0.1)
    c = Figures(Take(0, 3), 18.0, (17.0, 19.0), 0.4)
    assert best_first([a, b, c]) == [c, b, a]


def scored(grids: list[str], seat: int) -> Outcome:
    scores = [score_grid(parse_grid(grid)) for grid in grids]
    return outcome_of([s.points for s in scores], [s.remaining for s in scores], seat)


def test_the_round_is_won_on_points_then_cards_left_and_shared_wins_count() -> None:
    # rules.md S3: three grids of 19 points; seats 1 and 2 (4 cards left) share the victory
    grids = ["9991/446T/T27T/T113", "9557/3388/2661/44TT", "7559/8833/1662/TT44"]
    assert [scored(grids, seat) for seat in range(3)] == [
        Outcome(19, False),
        Outcome(19, True),
        Outcome(19, True),
    ]


def test_in_a_match_the_round_is_judged_by_its_own_points_not_the_totals() -> None:
    # rules.md S4, round 4: seat 0 wins the round on 7 points, though on totals (92, 92,
    # 111) it only shares the match with seat 1
    grids = ["777T/887T/562T/66TT", "1535/5336/2T92/2292", "2437/4488/6595/6446"]
    assert [scored(grids, seat) for seat in range(3)] == [
        Outcome(7, True),
        Outcome(32, False),
        Outcome(37, False),
    ]
