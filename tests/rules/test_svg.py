"""SVG pictures (dekal_ref.svg): valid SVG whose cards carry the state that the rules give them.

Every card is an element with data-cell, data-value and data-state; these tests read the
pictures back with xml.etree, the way a user's tool would, and compare them with the
reference engine: cancelled cells with S1, values with the notation, hidden values with M3.
"""

from __future__ import annotations

import random
from xml.etree import ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

import dekal_ref
from dekal import fast
from dekal_ref.actions import NewRound
from dekal_ref.notation import CELL_NAMES, HOLE, Grid, format_grid, parse_grid, value_symbol
from dekal_ref.position import HIDDEN_LETTERS, format_grid_cells
from dekal_ref.scoring import neighbours
from dekal_ref.state import GameState, Phase
from dekal_ref.svg import grid_svg, position_svg, step_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    return root


def cards(root: ET.Element, seat: int | None = None) -> list[ET.Element]:
    found = root.findall(f".//{SVG}g[@data-cell]")
    if seat is not None:
        found = [card for card in found if card.get("data-seat") == str(seat)]
    return found


def notation_of(found: list[ET.Element]) -> str:
    """The grid notation read back from the cards' data attributes alone."""
    symbols = {}
    for card in found:
        state, value = card.get("data-state"), card.get("data-value")
        if state == "hole":
            symbols[card.get("data-cell")] = "."
        elif state == "face-down":
            symbols[card.get("data-cell")] = HIDDEN_LETTERS[int(value) - 1] if value else "?"
        else:
            symbols[card.get("data-cell")] = value_symbol(int(value or 0))
    row = [symbols[name] for name in CELL_NAMES]
    return "/".join("".join(row[r : r + 4]) for r in range(0, 16, 4))


def grids(with_hole: bool = True) -> st.SearchStrategy[Grid]:
    """Grids of few values, so that S1 cancels often; sometimes with one hole."""
    values = st.lists(st.integers(1, 10) | st.integers(1, 3), min_size=16, max_size=16)
    holes = st.none() | st.integers(0, 15) if with_hole else st.none()

    def build(cells: list[int], hole: int | None) -> Grid:
        if hole is not None:
            cells[hole] = HOLE
        return tuple(cells)

    return st.builds(build, values, holes)


def play_to_end(seed: int, players: int) -> list[GameState]:
    """Every state of a random single-round game (random legal actions, seeded)."""
    chooser = random.Random(seed)
    state = dekal_ref.new_game(
        dekal_ref.Rules(players=players), dekal_ref.seeded_deal(seed, players)
    )
    states = [state]
    while state.phase is not Phase.OVER:
        state = dekal_ref.apply(state, chooser.choice(dekal_ref.legal_actions(state)))
        states.append(state)
    return states


# --- A grid -------------------------------------------------------------------------------


def test_a_grid_picture_is_an_svg_with_a_viewbox_and_a_title_naming_the_grid() -> None:
    root = parse(grid_svg(parse_grid("5T32/1.44/9999/TT11")))
    assert root.get("viewBox", "").startswith("0 0 ")
    assert root[0].tag == f"{SVG}title"
    assert root[0].text == "grid 5T32/1.44/9999/TT11"
    assert len(cards(root)) == 16


@given(grids())
def test_s1_the_cells_drawn_cancelled_are_the_cells_the_reference_cancels(grid: Grid) -> None:
    drawn = {
        card.get("data-cell")
        for card in cards(parse(grid_svg(grid)))
        if card.get("data-state") == "cancelled"
    }
    assert drawn == {CELL_NAMES[cell] for cell in dekal_ref.cancelled_cells(grid)}


@given(grids())
def test_the_data_attributes_read_back_as_the_grid_notation(grid: Grid) -> None:
    assert notation_of(cards(parse(grid_svg(grid)))) == format_grid(grid)


@given(grids())
def test_s1_groups_are_drawn_as_links_between_every_two_equal_neighbours(grid: Grid) -> None:
    root = parse(grid_svg(grid))
    links = {
        link.get("data-cells")
        for link in root.iter(f"{SVG}line")
        if link.get("class") == "group-link"
    }
    equal_neighbours = {
        f"{CELL_NAMES[cell]} {CELL_NAMES[other]}"
        for cell in range(16)
        for other in neighbours(cell)
        if other > cell and grid[cell] == grid[other] != HOLE
    }
    assert links == equal_neighbours


def test_values_are_written_legibly_on_the_cards_ten_as_10() -> None:
    root = parse(grid_svg(parse_grid("T123/4567/89T1/2345"), scored=False))
    shown = [card.findtext(f"{SVG}text") for card in cards(root)]
    assert shown[:4] == ["10", "1", "2", "3"]


def test_the_hole_has_no_value_and_the_caption_says_the_grid_is_not_final() -> None:
    picture = grid_svg(parse_grid("5T32/1.44/9999/TT11"))
    hole = [card for card in cards(parse(picture)) if card.get("data-cell") == "b2"][0]
    assert hole.get("data-state") == "hole" and hole.get("data-value") is None
    assert "not final" in picture


def test_equal_grids_give_the_same_bytes() -> None:
    assert grid_svg(parse_grid("1111/2222/3333/4444")) == grid_svg(
        tuple(v for v in (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4))
    )


# --- A position ---------------------------------------------------------------------------


def test_a_position_picture_is_titled_with_its_notation_and_draws_every_seat() -> None:
    state = dekal_ref.new_game(dekal_ref.Rules(players=3), dekal_ref.seeded_deal(7, 3))
    root = parse(position_svg(state))
    assert root[0].text == f"position {dekal_ref.format_position(state)}"
    for seat in range(3):
        assert notation_of(cards(root, seat)) == format_grid_cells(state.grids[seat])


def test_m3_a_public_picture_shows_no_face_down_value() -> None:
    state = dekal_ref.new_game(dekal_ref.Rules(players=2), dekal_ref.seeded_deal(42, 2))
    for card in cards(parse(position_svg(state, public=True))):
        assert card.get("data-state") == "face-down"
        assert card.get("data-value") is None


def test_m3_two_deals_that_look_alike_to_the_players_give_the_same_public_picture() -> None:
    one, other = (
        dekal_ref.new_game(dekal_ref.Rules(players=4), dekal_ref.seeded_deal(seed, 4))
        for seed in (1, 2)
    )
    assert dekal_ref.format_position(one) != dekal_ref.format_position(other)
    assert position_svg(one, public=True) == position_svg(other, public=True)


def test_t1_a_secret_pick_is_marked_in_the_full_view_only() -> None:
    state = dekal_ref.new_game(dekal_ref.Rules(players=2), dekal_ref.seeded_deal(42, 2))
    picked = dekal_ref.apply(state, dekal_ref.parse_action("reveal 0 c1"))
    marked = [
        c.get("data-cell") for c in cards(parse(position_svg(picked))) if c.get("data-picked")
    ]
    assert marked == ["c1"]
    assert "data-picked" not in position_svg(picked, public=True)


def test_s1_cancelled_cards_are_marked_only_once_the_round_is_scored() -> None:
    states = play_to_end(seed=3, players=3)
    for state in states[:-1]:
        assert 'data-state="cancelled"' not in position_svg(state)
    final = parse(position_svg(states[-1]))
    for seat in range(3):
        drawn = {
            c.get("data-cell") for c in cards(final, seat) if c.get("data-state") == "cancelled"
        }
        expected = dekal_ref.cancelled_cells(states[-1].values(seat))
        assert drawn == {CELL_NAMES[cell] for cell in expected}


def test_both_engines_states_draw_the_same_picture_in_a_notebook() -> None:
    for state in play_to_end(seed=11, players=2)[::7]:
        assert fast.from_reference(state)._repr_svg_() == state._repr_svg_()


# --- A game step --------------------------------------------------------------------------


def test_a_step_picture_shows_the_position_before_the_action_and_after() -> None:
    states = play_to_end(seed=5, players=2)
    before, after = states[3], states[4]
    action = next(
        a
        for a in dekal_ref.legal_actions(before)
        if dekal_ref.format_position(dekal_ref.apply(before, a)) == dekal_ref.format_position(after)
    )
    root = parse(step_svg(before, action, after))
    assert root[0].text == f"step {action}: position {dekal_ref.format_position(after)}"
    drawn_before = root.find(f"{SVG}g[@class='before']")
    drawn_after = root.find(f"{SVG}g[@class='after']")
    assert drawn_before is not None and drawn_after is not None
    for seat in range(2):
        assert notation_of(cards(drawn_before, seat)) == format_grid_cells(before.grids[seat])
        assert notation_of(cards(drawn_after, seat)) == format_grid_cells(after.grids[seat])
    if not isinstance(action, NewRound):
        framed = {
            rect.get("data-seat")
            for rect in root.iter(f"{SVG}rect")
            if rect.get("class") == "acting"
        }
        assert framed == {str(action.seat)}
