"""The seeded draws every simulated game uses (dekal.draws): reproducible and uniform."""

from collections import Counter

from dekal.draws import Draws, game_seed, seat_seed


def test_draws_are_reproducible_from_their_seed() -> None:
    first, second = Draws(7), Draws(7)
    assert [first.below(10) for _ in range(50)] == [second.below(10) for _ in range(50)]


def test_below_stays_in_range_and_covers_every_index() -> None:
    draws = Draws(1)
    counts = Counter(draws.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < count < 1200 for count in counts.values())


def test_games_and_seats_get_distinct_seeds() -> None:
    games = {game_seed(5, i) for i in range(1000)}
    assert len(games) == 1000
    assert len({seat_seed(game_seed(5, 0), seat) for seat in range(6)}) == 6
