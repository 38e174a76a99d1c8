"""Specification of worlds drawn from a public view (dekal.bots.sampler; rules M1, M3, T1):
every world shows the view it was drawn from, holds the 100 cards, and the draw is uniform."""

from __future__ import annotations

from collections import Counter
from math import factorial

from hypothesis import given, settings
from hypothesis import strategies as st
from test_observation import positions

from dekal.bots.observation import Observation, observation_of, read_public_view
from dekal.bots.sampler import exact_worlds, sample_world, sample_worlds, shuffle, world_count
from dekal.draws import Draws
from dekal_ref.deal import DECK
from dekal_ref.position import format_position
from dekal_ref.state import GameState


def every_card(world: GameState) -> Counter[int]:
    cards = Counter(card.value for grid in world.grids for card in grid if card is not None)
    cards.update(world.centre)
    cards.update(world.pile)
    cards.update(world.removed)
    if world.hand is not None:
        cards[world.hand] += 1
    return cards


def small_view() -> Observation:
    """Six seats at turn 15, two face-down cards each, the pile gone to F2 draws: the twelve
    unseen cards are ten 1s and two 2s, and seat 0 has picked (one of its two cells).
    66 arrangements of the cards, times 2 cells for the pick: 132 worlds."""
    face_up = "".join(str(v) if v < 10 else "T" for v in [2] * 8 + [v for v in range(3, 11)] * 10)
    hidden = "a" * 10 + "b" * 2
    grids = []
    for seat in range(6):
        cells = hidden[2 * seat : 2 * seat + 2] + face_up[14 * seat : 14 * seat + 14]
        grids.append("/".join(cells[row : row + 4] for row in range(0, 16, 4)))
    removed = face_up[84:]
    text = (
        f"slide/lowest/single 1.15 reveal 0 {'|'.join(grids)} a1,-,-,-,-,- - - {removed} "
        + ",".join("0" * 6)
    )
    return read_public_view(text)


@settings(max_examples=40)
@given(positions(), st.integers(0, 2**64 - 1))
def test_every_sampled_world_shows_the_view_it_was_drawn_from(state: GameState, seed: int) -> None:
    obs = observation_of(state)
    world = sample_world(obs, Draws(seed))
    assert observation_of(world) == obs
    assert format_position(world, public=True) == str(obs)


@settings(max_examples=40)
@given(positions(), st.integers(0, 2**64 - 1))
def test_m1_every_sampled_world_holds_each_value_ten_times(state: GameState, seed: int) -> None:
    world = sample_world(observation_of(state), Draws(seed))
    assert every_card(world) == Counter(DECK)


@settings(max_examples=40)
@given(positions(), st.integers(0, 2**64 - 1))
def test_t1_a_made_pick_is_sampled_on_a_face_down_cell_of_its_seat(
    state: GameState, seed: int
) -> None:
    world = sample_world(observation_of(state), Draws(seed))
    for seat, pick in enumerate(world.picks):
        assert (pick is None) == (state.picks[seat] is None)
        if pick is not None:
            assert pick in world.face_down_cells(seat)


def test_the_same_seed_draws_the_same_worlds() -> None:
    obs = small_view()
    assert sample_worlds(obs, 5, seed=9) == sample_worlds(obs, 5, seed=9)
    assert sample_worlds(obs, 5, seed=9) != sample_worlds(obs, 5, seed=10)


def test_exact_worlds_are_every_distinct_world_with_probabilities_summing_to_one() -> None:
    obs = small_view()
    worlds = exact_worlds(obs, limit=1000)
    assert worlds is not None
    assert world_count(obs) == len(worlds) == 66 * 2
    assert len({format_position(world) for world, _ in worlds}) == len(worlds)
    assert sum(p for _, p in worlds) == 1
    assert all(observation_of(world) == obs for world, _ in worlds)


def test_exact_worlds_gives_up_beyond_its_limit() -> None:
    assert exact_worlds(small_view(), limit=131) is None


def test_sampling_is_uniform_over_the_exact_worlds() -> None:
    """Counts over many samples match exact_worlds' probabilities: with 13,200 draws each of
    the 132 worlds is expected 100 times (standard deviation ≈ 10); every count within
    five standard deviations, and every world drawn."""
    obs = small_view()
    exact = exact_worlds(obs, limit=1000)
    assert exact is not None
    expected = {format_position(world): p for world, p in exact}
    draws = Draws(2026)
    n = 13_200
    counts = Counter(format_position(sample_world(obs, draws)) for _ in range(n))
    assert set(counts) == set(expected)
    for key, p in expected.items():
        mean = float(p * n)
        sd = float(p * (1 - p) * n) ** 0.5
        assert abs(counts[key] - mean) <= 5 * sd, (key, counts[key], mean)


def test_a_fresh_deals_worlds_are_counted_not_listed() -> None:
    fresh = read_public_view(
        "slide/lowest/single 1.1 reveal - ????/????/????/????|????/????/????/???? -,- - #68 - 0,0"
    )
    assert world_count(fresh) == factorial(100) // factorial(10) ** 10
    assert exact_worlds(fresh, limit=10**6) is None


@given(st.integers(0, 2**64 - 1), st.integers(0, 100))
def test_the_inline_shuffle_is_fisher_yates_with_draws_below(seed: int, size: int) -> None:
    cards = list(range(size))
    draws = Draws(seed)
    shuffle(cards, draws)
    expected, plain = list(range(size)), Draws(seed)
    for i in range(size - 1, 0, -1):
        j = plain.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert cards == expected
    assert repr(draws) == repr(plain)
