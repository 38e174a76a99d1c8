"""Specification of the public view a seat decides from (spec/notation.md, "Reading a public
view"; rules M1, M3, T1): dekal.bots.observation."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal.bots.observation import (
    FACE_DOWN,
    Observation,
    format_public_view,
    legal_actions,
    observation_of,
    read_public_view,
    unseen_cards,
)
from dekal.position import from_reference
from dekal_ref import actions, game
from dekal_ref.deal import DECK, seeded_deal
from dekal_ref.errors import IllegalAction, NotationError
from dekal_ref.position import format_position, parse_position
from dekal_ref.state import GameState, Phase, Rules

PUSH_0 = (
    "slide/lowest/single 1.1 push@0:1 0 jj.b/gfhh/gabg/baja|.ejh/bcch/jdie/djej -,- 3 "
    "25566376374645612481935447358T196T78935165878718672994349226493T1992 - 0,0"
)
PUSH_0_VIEW = (
    "slide/lowest/single 1.1 push@0:1 0 ??.?/????/????/????|.???/????/????/???? -,- 3 #68 - 0,0"
)


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    """A state reached by random legal play from a seeded deal, any variant, 2–6 seats."""
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
    for _ in range(draw(st.integers(0, 120))):
        if state.phase is Phase.NEXT_ROUND:
            state = game.start_round(state, seeded_deal(seed, players, state.round + 1))
        legal = actions.legal_actions(state)
        if not legal:
            break
        state = actions.apply(state, draw(st.sampled_from(legal)))
    return state


@given(positions())
def test_the_observation_writes_the_public_view_of_its_position(state: GameState) -> None:
    assert format_public_view(observation_of(state)) == format_position(state, public=True)


@given(positions())
def test_a_public_view_reads_back_to_the_same_observation(state: GameState) -> None:
    obs = observation_of(state)
    assert read_public_view(str(obs)) == obs


@given(positions())
def test_a_full_position_is_read_hidden(state: GameState) -> None:
    assert read_public_view(format_position(state)) == observation_of(state)


@given(positions())
def test_both_engines_states_give_the_same_observation(state: GameState) -> None:
    assert observation_of(from_reference(state)) == observation_of(state)


@given(positions())
def test_a_seats_legal_actions_are_the_references_restricted_to_the_seat(
    state: GameState,
) -> None:
    obs = observation_of(state)
    everyone = actions.legal_actions(state)
    for seat in range(state.players):
        mine = [action for action in everyone if getattr(action, "seat", None) == seat]
        assert legal_actions(obs, seat) == mine


@given(positions())
def test_unseen_cards_are_what_the_face_down_cells_and_the_pile_hold(state: GameState) -> None:
    hidden = Counter(
        card.value for grid in state.grids for card in grid if card is not None and card.face_down
    )
    hidden.update(state.pile)
    assert unseen_cards(observation_of(state)) == hidden


def test_the_view_of_notation_md_reads_as_documented() -> None:
    obs = read_public_view(PUSH_0_VIEW)
    assert (obs.phase, obs.to_act, obs.hand, obs.start) == (Phase.PUSH, 0, 1, 0)
    assert obs.grids[0][2] == 0 and obs.grids[0][0] is FACE_DOWN
    assert obs.centre == (3,) and obs.pile == 68 and obs.picked == (False, False)
    assert read_public_view(PUSH_0) == obs


def test_a_made_pick_is_seen_as_made_not_where() -> None:
    state = game.reveal(game.new_game(Rules(players=2), seeded_deal(42, 2)), 0, 2)
    obs = observation_of(state)
    assert obs.picked == (True, False)
    assert "?,-" in str(obs)
    assert legal_actions(obs, 0) == []
    assert len(legal_actions(obs, 1)) == 16


def test_unseen_cards_of_a_fresh_deal_are_the_whole_deck() -> None:
    obs = observation_of(game.new_game(Rules(players=3), seeded_deal(1, 3)))
    assert unseen_cards(obs) == Counter(DECK)


def test_a_public_view_is_not_a_position() -> None:
    with pytest.raises(NotationError) as error:
        parse_position(PUSH_0_VIEW)
    assert error.value.field == "grids"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("slide/lowest/single 1.1 reveal", "view"),
        (PUSH_0_VIEW.replace("#68", "68"), "pile"),
        (PUSH_0_VIEW.replace("#68", "#101"), "pile"),
        (PUSH_0_VIEW.replace("#68", "#0"), "pile"),
        (PUSH_0_VIEW.replace("-,-", "c1,-"), "picks"),
        (PUSH_0_VIEW.replace("-,-", "?"), "picks"),
        (PUSH_0_VIEW.replace("??.?/", "a?.?/"), "grids"),
        (PUSH_0_VIEW.replace("??.?/", "??.??/"), "grids"),
        (PUSH_0_VIEW.replace("0,0", "0,0,0"), "totals"),
        (PUSH_0_VIEW.replace("push@0:1", "push@0:X"), "phase"),
        (PUSH_0_VIEW.replace("push@0:1", "push@1:1"), "view"),
        (PUSH_0_VIEW.replace("slide/", "jump/"), "rules"),
        (PUSH_0_VIEW.replace(" 3 #68", " x #68"), "centre"),
    ],
)
def test_a_malformed_view_is_refused_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(NotationError) as error:
        read_public_view(text)
    assert error.value.field == field


def test_m1_a_view_showing_eleven_cards_of_a_value_is_refused() -> None:
    # Seat 1's a1 was a hidden 3... write eleven face-up 9s across the two grids.
    text = PUSH_0_VIEW.replace("??.?/????/????/????", "99.9/9999/9999/????")
    with pytest.raises(IllegalAction) as error:
        read_public_view(text)
    assert error.value.rule == "M1"
    assert "11 cards of value 9" in error.value.message


def test_m1_a_view_holding_other_than_100_cards_is_refused() -> None:
    with pytest.raises(IllegalAction) as error:
        read_public_view(PUSH_0_VIEW.replace("#68", "#67"))
    assert error.value.rule == "M1"
    assert "99 cards" in error.value.message


def test_m2_a_view_of_one_seat_is_refused() -> None:
    one_seat = "slide/lowest/single 1.1 reveal - ????/????/????/???? - - #84 - 0"
    with pytest.raises(IllegalAction) as error:
        read_public_view(one_seat)
    assert error.value.rule == "M2"


def test_an_observation_is_immutable() -> None:
    obs: Observation = read_public_view(PUSH_0_VIEW)
    with pytest.raises(AttributeError):
        obs.pile = 3  # type: ignore[misc]


def notation_md_view_examples() -> list[tuple[str, str]]:
    """The (view, what reading it gives) pairs of spec/notation.md, "Reading a public view"."""
    page = Path(__file__).resolve().parents[2] / "spec" / "notation.md"
    text = page.read_text(encoding="utf-8")
    section = text.split("### Reading a public view", 1)[1].split("\n## ", 1)[0]
    lines = [line[4:] for line in section.splitlines() if line.startswith("    ")]
    return list(zip(lines[::2], lines[1::2], strict=True))


@pytest.mark.parametrize(("view", "says"), notation_md_view_examples())
def test_notation_md_reading_a_public_view_examples(view: str, says: str) -> None:
    refused = re.fullmatch(r"refused \((\w+)\): (.*)", says)
    if refused:
        with pytest.raises(IllegalAction) as error:
            read_public_view(view)
        assert (error.value.rule, error.value.message) == refused.groups()
        return
    reading = re.fullmatch(
        r"seat (\d) must push its (\d); (\d) in the centre; (\d+) cards in the pile; "
        r"(\d+) unseen cards",
        says,
    )
    assert reading, f"spec/notation.md example not understood: {says}"
    obs = read_public_view(view)
    seat, hand, centre, pile, unseen = map(int, reading.groups())
    assert (obs.phase, obs.to_act, obs.hand) == (Phase.PUSH, seat, hand)
    assert (obs.centre, obs.pile, unseen_cards(obs).total()) == ((centre,), pile, unseen)
