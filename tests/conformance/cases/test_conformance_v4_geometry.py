"""Suite v4's designed-grid games (dekal.conformance.cases._v4_geometry): a grid that cancels
every card and grids that keep every card, against every game around them."""

from __future__ import annotations

import itertools

from dekal.conformance.cases._situation_map import situation_map
from dekal.conformance.cases._v4_geometry import (
    ALL_CANCEL,
    ALL_KEPT,
    ALL_KEPT_WITH_TEN,
    geometry_games,
)
from dekal.conformance.judge._grid_geometry import points_left

CONTEXT = ("entry", "length", "push", "round", "seats")


def test_the_chosen_final_grids_cancel_every_card_or_none() -> None:
    assert points_left(ALL_CANCEL) == {"left": "none", "ten": "no"}
    assert points_left(ALL_KEPT_WITH_TEN) == {"left": "all", "ten": "yes"}
    assert points_left(ALL_KEPT) == {"left": "all", "ten": "no"}


def test_the_games_give_every_feasible_pair_of_the_game_around_an_s2_grid() -> None:
    """S2 is a triples rule: a grid's cards left with any two of the game's dimensions."""
    chart = situation_map()
    played = set()
    for game in geometry_games():
        values = {
            "entry": game.entry,
            "length": "match" if game.match else "single",
            "push": game.push,
            "round": str(game.round) if game.round < 3 else "3+",
            "seats": str(game.seats),
        }
        played |= set(itertools.combinations(sorted(values.items()), 2))
    wanted = {
        pair
        for a, b in itertools.combinations(CONTEXT, 2)
        for pair in itertools.product(
            [(a, v) for v in chart.dimensions[a]], [(b, v) for v in chart.dimensions[b]]
        )
        if chart.feasible((*pair, ("left", "none")), "S2")
    }
    assert wanted - played == set()
