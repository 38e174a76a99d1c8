"""The statistics of `dekal simulate` (dekal.simulation._tally and .stats), on GameResults-shaped
arrays: what is counted, that counts add up whatever the chunks, and that each interval is
the textbook one, computed from exact integers."""

from __future__ import annotations

import json
import math
import random
import statistics
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.typing import NDArray

from dekal.simulation._tally import tally
from dekal.simulation.stats import (
    Z95,
    mean,
    median_interval,
    quantile,
    rate,
    summarize,
    summary_json,
)


@dataclass(frozen=True)
class Results:
    """GameResults-shaped arrays (docs/contracts.md, Kernel), written by hand."""

    totals: NDArray[np.int64]
    places: NDArray[np.int64]
    first_player: NDArray[np.int64]
    f2_tie: NDArray[np.bool_]
    pile_exhausted: NDArray[np.bool_]
    rounds: NDArray[np.int64]

    def rows(self, start: int, stop: int) -> Results:
        return Results(
            self.totals[start:stop],
            self.places[start:stop],
            self.first_player[start:stop],
            self.f2_tie[start:stop],
            self.pile_exhausted[start:stop],
            self.rounds[start:stop],
        )


def results(rows: list[tuple[list[int], list[int], int, bool, bool, int]]) -> Results:
    """One row per game: (totals, places, first player, F2 tie, pile exhausted, rounds)."""
    return Results(
        np.array([r[0] for r in rows], dtype=np.int64),
        np.array([r[1] for r in rows], dtype=np.int64),
        np.array([r[2] for r in rows], dtype=np.int64),
        np.array([r[3] for r in rows], dtype=np.bool_),
        np.array([r[4] for r in rows], dtype=np.bool_),
        np.array([r[5] for r in rows], dtype=np.int64),
    )


def ranked(totals: list[int]) -> list[int]:
    """S4's places: 1 + the number of seats with a strictly lower total."""
    return [1 + sum(other < mine for other in totals) for mine in totals]


def random_results(games: int, players: int, seed: int) -> Results:
    draw = random.Random(seed)
    rows = []
    for _ in range(games):
        totals = [draw.randrange(0, 40) for _ in range(players)]
        tie = draw.random() < 0.3
        rows.append(
            (totals, ranked(totals), draw.randrange(players), tie, tie and draw.random() < 0.1, 1)
        )
    return results(rows)


THREE_GAMES = results(
    [
        ([10, 20, 30], [1, 2, 3], 0, False, False, 1),  # seat 0 first, and wins
        ([25, 25, 40], [1, 1, 3], 2, True, False, 2),  # a shared victory; the first player lost
        ([50, 5, 5], [3, 1, 1], 1, True, True, 3),  # shared again; the first player won
    ]
)


def test_a_win_is_place_one_and_a_shared_victory_counts_for_every_winner() -> None:
    counted = tally(THREE_GAMES, ("greedy", "random", "random"))
    assert counted.wins == (2, 2, 1)
    assert counted.shared == 2


def test_the_first_player_wins_when_round_one_s_start_is_among_the_winners() -> None:
    assert tally(THREE_GAMES, ("random",) * 3).first_player_wins == 2


def test_f2_ties_short_piles_and_rounds_are_counted_per_game() -> None:
    counted = tally(THREE_GAMES, ("random",) * 3)
    assert (counted.f2_ties, counted.pile_exhausted) == (2, 1)
    assert counted.rounds == {1: 1, 2: 1, 3: 1}


def test_each_seat_has_a_histogram_of_its_final_scores() -> None:
    counted = tally(THREE_GAMES, ("random",) * 3)
    assert counted.scores == ({10: 1, 25: 1, 50: 1}, {20: 1, 25: 1, 5: 1}, {30: 1, 40: 1, 5: 1})


def test_a_bot_holding_several_seats_is_counted_per_game_over_its_seats() -> None:
    bot = tally(THREE_GAMES, ("greedy", "random", "random")).bots["random"]
    assert bot.seats == (1, 2)
    assert bot.score_sums == {50: 1, 65: 1, 10: 1}
    assert bot.wins == {0: 1, 1: 1, 2: 1}  # none of its seats won, then one, then both


@given(st.integers(0, 200), st.integers(2, 6), st.integers(0, 2**32), st.data())
def test_tallies_of_chunks_add_up_to_the_tally_of_the_whole(
    games: int, players: int, seed: int, data: st.DataObject
) -> None:
    whole = random_results(games + 1, players, seed)
    cut = data.draw(st.integers(1, games + 1))
    bots = tuple(data.draw(st.sampled_from(["random", "greedy"])) for _ in range(players))
    parts = tally(whole.rows(0, cut), bots)
    if cut < games + 1:
        parts = parts + tally(whole.rows(cut, games + 1), bots)
    assert parts == tally(whole, bots)


def test_the_report_is_the_same_bytes_however_the_games_were_chunked() -> None:
    whole = random_results(1000, 4, seed=3)
    bots = ("random", "greedy", "random", "greedy")
    in_one = summary_json(summarize(tally(whole, bots), bots))
    cuts = [0, 1, 17, 400, 401, 999, 1000]
    pieces = [tally(whole.rows(a, b), bots) for a, b in zip(cuts, cuts[1:], strict=False)]
    in_pieces = summary_json(summarize(sum(pieces[1:], pieces[0]), bots))
    assert json.dumps(in_one) == json.dumps(in_pieces)


def test_tallies_of_different_tables_do_not_add() -> None:
    one = tally(THREE_GAMES, ("random",) * 3)
    other = tally(THREE_GAMES, ("greedy",) * 3)
    with pytest.raises(ValueError, match="same seats and bots"):
        one + other


# --- the intervals -------------------------------------------------------------------------


def test_a_rate_has_the_wilson_score_interval() -> None:
    # Wilson (1927) for 5 successes in 10 trials, z = 1.96: [0.2366, 0.7634]
    estimate = rate(5, 10)
    assert estimate.value == 0.5
    assert estimate.low == pytest.approx(0.2366, abs=1e-4)
    assert estimate.high == pytest.approx(0.7634, abs=1e-4)


def test_a_rate_of_zero_keeps_an_interval_above_zero() -> None:
    estimate = rate(0, 10)
    assert estimate.low == 0.0
    assert estimate.high == pytest.approx(Z95**2 / (10 + Z95**2))  # the Wilson bound at p = 0


@given(st.dictionaries(st.integers(-50, 200), st.integers(1, 30), min_size=1, max_size=12))
def test_a_mean_interval_is_the_normal_one_from_the_sample_standard_deviation(
    histogram: dict[int, int],
) -> None:
    values = [value for value, count in histogram.items() for _ in range(count)]
    estimate = mean(histogram)
    assert estimate.value == pytest.approx(statistics.fmean(values))
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    half = Z95 * spread / math.sqrt(len(values))
    assert estimate.high - estimate.value == pytest.approx(half, abs=1e-9)
    assert estimate.value - estimate.low == pytest.approx(half, abs=1e-9)


def test_a_per_seat_mean_divides_the_per_game_sums_by_the_seats() -> None:
    assert mean({50: 1, 70: 1}, scale=2).value == 30.0


def test_a_quantile_is_the_smallest_value_reaching_its_share() -> None:
    histogram = {3: 1, 5: 2, 9: 1}  # 3 5 5 9
    assert [quantile(histogram, q) for q in (0.25, 0.5, 0.75, 1.0)] == [3, 5, 5, 9]


def test_a_bot_on_one_seat_has_that_seat_s_figures() -> None:
    bots = ("greedy", "random", "random")
    summary = summarize(tally(random_results(300, 3, seed=8), bots), bots)
    greedy = summary.bots[0]
    assert greedy.seats == (0,)
    assert (greedy.score, greedy.win_rate) == (summary.seats[0].score, summary.seats[0].win_rate)


def test_the_json_report_names_every_figure_with_its_interval() -> None:
    bots = ("random",) * 2
    report = summary_json(summarize(tally(random_results(50, 2, seed=1), bots), bots))
    assert set(report["seats"][0]) == {
        "seat", "bot", "mean_score", "ci95", "win_rate", "win_rate_ci95", "distribution"
    }  # fmt: skip
    for name in ("first_player_win_rate", "shared_rate", "f2_draw_rate", "pile_exhausted_rate"):
        low, high = report[f"{name}_ci95"]
        assert low <= report[name] <= high


def test_the_median_interval_brackets_the_median_by_order_statistics() -> None:
    histogram = {value: 1 for value in range(1, 101)}  # 1 … 100, one each
    # ranks 50 ∓ 1.96·√100/2 = 50 ∓ 9.8: the 40th and the 61st values
    assert median_interval(histogram) == (40, 61)
    assert median_interval({7: 5}) == (7, 7)
