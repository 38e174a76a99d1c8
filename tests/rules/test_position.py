"""Specification of the one-line position notation (spec/notation.md, "Positions")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal_ref import actions, game
from dekal_ref.deal import seeded_deal
from dekal_ref.errors import IllegalAction, NotationError
from dekal_ref.position import format_position, parse_position
from dekal_ref.state import GameState, Phase, Rules


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    """A state reached by random legal play from a seeded deal."""
    players = draw(st.integers(2, 6))
    rules = Rules(
        players=players,
        push=draw(st.sampled_from(["slide", "eject"])),
        first=draw(st.sampled_from(["lowest", "chosen"])),
        threshold=draw(st.sampled_from([None, 60])),
    )
    seed = draw(st.integers(0, 2**64 - 1))
    first = draw(st.integers(0, players - 1)) if rules.first == "chosen" else None
    state = game.new_game(rules, seeded_deal(seed, players), first)
    for _ in range(draw(st.integers(0, 80))):
        if state.phase is Phase.NEXT_ROUND:
            state = game.start_round(state, seeded_deal(seed, players, state.round + 1))
        legal = actions.legal_actions(state)
        if not legal:
            break
        state = actions.apply(state, draw(st.sampled_from(legal)))
    return state


@given(positions())
def test_full_positions_round_trip(state: GameState) -> None:
    text = format_position(state)
    assert parse_position(text) == state
    assert format_position(parse_position(text)) == text


@given(positions())
def test_public_view_shows_no_face_down_value_and_no_secret_pick(state: GameState) -> None:
    fields = format_position(state, public=True).split(" ")
    grids, picks, pile = fields[4], fields[5], fields[7]
    assert not set(grids) & set("abcdefghij")
    assert set(picks.split(",")) <= {"?", "-"}
    assert pile == "-" or pile.startswith("#")


def test_a_fresh_deal_is_all_face_down() -> None:
    state = game.new_game(Rules(players=2), seeded_deal(7, 2))
    grids = format_position(state).split(" ")[4]
    assert set(grids) <= set("abcdefghij/|")


def test_public_view_cannot_be_loaded() -> None:
    state = game.new_game(Rules(players=2), seeded_deal(7, 2))
    with pytest.raises(NotationError) as caught:
        parse_position(format_position(state, public=True))
    assert caught.value.field == "grids"


def test_a_position_with_missing_fields_names_the_problem() -> None:
    with pytest.raises(NotationError) as caught:
        parse_position("slide/lowest/single 1.1 reveal")
    assert caught.value.field == "position"


def _seven_grids(picks: str, totals: str) -> str:
    """A fresh 2-seat position with seat 0's grid written for seven seats."""
    fields = format_position(game.new_game(Rules(players=2), seeded_deal(7, 2))).split(" ")
    fields[4] = "|".join([fields[4].split("|")[0]] * 7)
    fields[5], fields[9] = picks, totals
    return " ".join(fields)


def test_every_field_is_read_before_the_count_of_grids_is_judged() -> None:
    """spec/protocol.md, "`new_game` from a position": notation first, then M2."""
    with pytest.raises(NotationError) as caught:
        parse_position(_seven_grids("-,-", "0,0,0,0,0,0,0"))
    assert caught.value.field == "picks"


def test_seven_grids_that_read_are_refused_with_m2() -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_position(_seven_grids(",".join("-" * 7), ",".join("0" * 7)))
    assert caught.value.rule == "M2"
