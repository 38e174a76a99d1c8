"""One or more tests per rule of spec/rules.md, each named after its rule ID.

The worked examples of the spec are checked by tests/rules/test_spec_examples.py; here the rules are
stated as properties over random games and grids, with independent oracles where one is easy
to write (networkx components for S1, list slicing for P1/P2).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal_ref import game
from dekal_ref.actions import Action, PushMove, Reveal, Take, apply, legal_actions
from dekal_ref.deal import DECK, Deal, seeded_deal, seeded_deals
from dekal_ref.errors import IllegalAction
from dekal_ref.notation import HOLE, Grid, Push, parse_grid
from dekal_ref.position import format_position
from dekal_ref.push import legal_pushes
from dekal_ref.ranking import ranking, round_scores
from dekal_ref.scoring import score_grid
from dekal_ref.state import Card, GameState, Phase, Rules

seeds = st.integers(0, 2**64 - 1)
player_counts = st.integers(2, 6)
values = st.integers(1, 10)
full_grids = st.lists(values, min_size=16, max_size=16).map(tuple)


def play_randomly(state: GameState, rng: random.Random, until: int = 10**6) -> GameState:
    """Random legal actions until the round or game stops, or `until` actions."""
    for _ in range(until):
        legal = legal_actions(state)
        if not legal:
            break
        state = apply(state, rng.choice(legal))
    return state


@st.composite
def games(draw: st.DrawFn, threshold: int | None = None) -> GameState:
    players = draw(player_counts)
    rules = Rules(
        players,
        push=draw(st.sampled_from(["slide", "eject"])),
        first=draw(st.sampled_from(["lowest", "chosen"])),
        threshold=threshold,
    )
    first = draw(st.integers(0, players - 1)) if rules.first == "chosen" else None
    return game.new_game(rules, seeded_deal(draw(seeds), players), first)


@st.composite
def midgame(draw: st.DrawFn) -> GameState:
    state = draw(games())
    return play_randomly(state, draw(st.randoms(use_true_random=False)), draw(st.integers(0, 200)))


def reveal_all(state: GameState, cells: list[int]) -> GameState:
    for seat, cell in enumerate(cells):
        state = game.reveal(state, seat, cell)
    return state


def finish_turn(state: GameState, rng: random.Random) -> GameState:
    """Takes and pushes until the next reveal phase (or the end)."""
    while state.phase in (Phase.TAKE, Phase.PUSH):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


# --- M: material and set-up ---------------------------------------------------------------


@given(seeds, player_counts, st.integers(0, 99), st.integers(1, 9))
def test_M1_a_deal_with_one_card_changed_is_refused(
    seed: int, players: int, index: int, shift: int
) -> None:
    deal = seeded_deal(seed, players)
    cards = [v for grid in deal.grids for v in grid] + list(deal.pile)
    assert Counter(cards) == Counter(DECK)
    cards[index] = (cards[index] - 1 + shift) % 10 + 1  # another value, still 1–10
    grids = tuple(tuple(cards[16 * s : 16 * s + 16]) for s in range(players))
    changed = Deal(grids, tuple(cards[16 * players :]))
    with pytest.raises(IllegalAction) as caught:
        game.new_game(Rules(players), changed)
    assert caught.value.rule == "M1"


@pytest.mark.parametrize("players", [0, 1, 7, 8])
def test_M2_only_two_to_six_players(players: int) -> None:
    with pytest.raises(IllegalAction) as caught:
        seeded_deal(1, players)
    assert caught.value.rule == "M2"


def test_M2_the_rules_and_the_deal_must_agree_on_the_players() -> None:
    with pytest.raises(IllegalAction) as caught:
        game.new_game(Rules(3), seeded_deal(1, 2))
    assert caught.value.rule == "M2"


@given(seeds, player_counts)
def test_M3_sixteen_face_down_cards_each_the_rest_set_aside_and_nothing_public(
    seed: int, players: int
) -> None:
    deal = seeded_deal(seed, players)
    state = game.new_game(Rules(players), deal)
    assert all(card is not None and card.face_down for grid in state.grids for card in grid)
    assert [state.values(seat) for seat in range(players)] == list(deal.grids)
    assert len(state.pile) == 100 - 16 * players
    public = format_position(state, public=True).split(" ")
    assert set(public[4]) <= set("?/|") and public[7] == f"#{100 - 16 * players}"


def test_M3_a_grid_that_is_not_sixteen_cards_is_refused() -> None:
    deal = seeded_deal(3, 2)
    holed = Deal((deal.grids[0][:15] + (HOLE,), deal.grids[1]), deal.pile + (deal.grids[0][15],))
    with pytest.raises(IllegalAction) as caught:
        game.new_game(Rules(2), holed)
    assert caught.value.rule == "M3"


@given(games(), st.randoms(use_true_random=False))
def test_M4_seats_take_clockwise_from_the_token(state: GameState, rng: random.Random) -> None:
    state = reveal_all(state, [rng.choice(state.face_down_cells(s)) for s in range(state.players)])
    token = state.token
    assert token is not None
    takers = []
    while state.phase in (Phase.TAKE, Phase.PUSH):
        if state.phase is Phase.TAKE:
            takers.append(state.to_act)
        state = apply(state, rng.choice(legal_actions(state)))
    assert takers == [(token + k) % state.players for k in range(state.players)]


@given(midgame())
def test_M4_a_seat_outside_the_table_is_refused(state: GameState) -> None:
    if state.phase in (Phase.OVER, Phase.NEXT_ROUND):
        return
    for action in (Reveal(state.players, 0), Take(state.players, 1), PushMove(-1, Push("L"))):
        with pytest.raises(IllegalAction) as caught:
            apply(state, action)
        assert caught.value.rule == "M4"


@given(seeds, st.randoms(use_true_random=False))
def test_M5_between_rounds_only_a_new_deal_and_it_is_dealt_anew(
    seed: int, rng: random.Random
) -> None:
    first, second = seeded_deals(seed, 2, 2)
    state = play_randomly(game.new_game(Rules(2, threshold=10_000), first), rng)
    assert state.phase is Phase.NEXT_ROUND
    for action in (Reveal(0, 0), Take(0, 1), PushMove(0, Push("L"))):
        with pytest.raises(IllegalAction) as caught:
            apply(state, action)
        assert caught.value.rule == "M5"
    after = game.start_round(state, second)
    assert [after.values(s) for s in range(2)] == list(second.grids)
    assert after.pile == second.pile and after.removed == ()
    assert all(card is not None and card.face_down for grid in after.grids for card in grid)


# --- T: a turn ----------------------------------------------------------------------------


@given(games(), st.randoms(use_true_random=False))
def test_T1_reveals_are_secret_until_all_are_made_then_all_at_once(
    state: GameState, rng: random.Random
) -> None:
    picks = [rng.choice(state.face_down_cells(s)) for s in range(state.players)]
    before = state
    for seat, cell in enumerate(picks[:-1]):
        state = game.reveal(state, seat, cell)
        assert state.centre == () and state.grids == before.grids  # nothing shown yet
    state = game.reveal(state, state.players - 1, picks[-1])
    assert state.centre == tuple(sorted(before.values(s)[c] for s, c in enumerate(picks)))
    for seat, cell in enumerate(picks):
        assert state.grids[seat][cell] is None  # each pick leaves a hole
    assert state.phase is Phase.TAKE


@given(midgame())
def test_T1_revealing_twice_or_a_card_that_is_not_face_down_is_refused(state: GameState) -> None:
    if state.phase is not Phase.REVEAL:
        if state.phase in (Phase.TAKE, Phase.PUSH):
            with pytest.raises(IllegalAction) as caught:
                game.reveal(state, 0, 0)
            assert caught.value.rule == "T1"
        return
    for seat in range(state.players):
        face_down = set(state.face_down_cells(seat))
        for cell in set(range(16)) - face_down:
            with pytest.raises(IllegalAction) as caught:
                game.reveal(state, seat, cell)
            assert caught.value.rule == "T1"
    seat = next((s for s in range(state.players) if state.picks[s] is None), None)
    if seat is not None and state.picks.count(None) > 1:
        picked = game.reveal(state, seat, state.face_down_cells(seat)[0])
        with pytest.raises(IllegalAction) as caught:
            game.reveal(picked, seat, picked.face_down_cells(seat)[-1])
        assert caught.value.rule == "T1"


@given(games(), st.randoms(use_true_random=False))
def test_T2_the_first_player_is_decided_once_on_turn_1_of_round_1(
    state: GameState, rng: random.Random
) -> None:
    starts = set()
    while state.phase is not Phase.OVER:
        state = apply(state, rng.choice(legal_actions(state)))
        if state.start is not None:
            starts.add(state.start)
    assert len(starts) == 1


@given(games(), st.randoms(use_true_random=False))
def test_T3_the_last_player_gets_the_last_card(state: GameState, rng: random.Random) -> None:
    state = reveal_all(state, [rng.choice(state.face_down_cells(s)) for s in range(state.players)])
    while len(state.centre) > 1 or state.phase is Phase.PUSH:
        state = apply(state, rng.choice(legal_actions(state)))
    assert legal_actions(state) == [Take(state.to_act or 0, state.centre[0])]


@given(games(), st.randoms(use_true_random=False))
def test_T3_taking_out_of_turn_or_a_value_not_in_the_centre_is_refused(
    state: GameState, rng: random.Random
) -> None:
    with pytest.raises(IllegalAction) as caught:
        game.take(state, 0, 1)
    assert caught.value.rule == "T3"  # nobody has revealed yet
    state = reveal_all(state, [rng.choice(state.face_down_cells(s)) for s in range(state.players)])
    actor = state.to_act
    assert actor is not None
    other = (actor + 1) % state.players
    with pytest.raises(IllegalAction) as caught:
        game.take(state, other, state.centre[0])
    assert caught.value.rule == "T3"
    missing = next(v for v in range(1, 11) if v not in state.centre)
    with pytest.raises(IllegalAction) as caught:
        game.take(state, actor, missing)
    assert caught.value.rule == "T3"


@given(games(), st.randoms(use_true_random=False))
def test_T4_the_taken_card_goes_in_face_up_before_the_next_take(
    state: GameState, rng: random.Random
) -> None:
    state = reveal_all(state, [rng.choice(state.face_down_cells(s)) for s in range(state.players)])
    actor = state.to_act
    assert actor is not None
    with pytest.raises(IllegalAction) as caught:
        game.push(state, actor, legal_pushes(0)[0])
    assert caught.value.rule == "T4"  # nothing taken yet
    card = rng.choice(state.centre)
    state = game.take(state, actor, card)
    for value in state.centre:
        with pytest.raises(IllegalAction) as caught:
            game.take(state, (actor + 1) % state.players, value)
        assert caught.value.rule == "T4"
    with pytest.raises(IllegalAction) as caught:
        apply(state, PushMove((actor + 1) % state.players, Push("L")))
    assert caught.value.rule == "T4"
    faces_before = Counter(c.face_down for c in state.grids[actor] if c is not None)
    state = apply(state, rng.choice(legal_actions(state)))
    after = [c for c in state.grids[actor] if c is not None]
    assert len(after) == 16 and Card(card, face_down=False) in after
    faces_after = Counter(c.face_down for c in after)
    assert faces_after[True] == faces_before[True]  # moved cards keep their face


@given(games(), st.randoms(use_true_random=False))
def test_T5_the_token_passes_left_and_the_round_ends_after_16_turns(
    state: GameState, rng: random.Random
) -> None:
    tokens = []
    while state.phase is not Phase.OVER:
        if state.phase is Phase.TAKE and state.taken == 0:
            tokens.append(state.to_act)
        state = apply(state, rng.choice(legal_actions(state)))
    assert len(tokens) == 16
    assert all(b == (a + 1) % state.players for a, b in zip(tokens, tokens[1:], strict=False))
    assert all(card is not None and not card.face_down for g in state.grids for card in g)
    with pytest.raises(IllegalAction) as caught:
        game.reveal(state, 0, 0)
    assert caught.value.rule == "T5"


# --- F: first player ----------------------------------------------------------------------


@given(seeds, player_counts, st.randoms(use_true_random=False))
def test_F1_the_single_lowest_card_takes_the_token(
    seed: int, players: int, rng: random.Random
) -> None:
    state = game.new_game(Rules(players), seeded_deal(seed, players))
    picks = [rng.randrange(16) for _ in range(players)]
    revealed = [state.values(s)[c] for s, c in enumerate(picks)]
    state = reveal_all(state, picks)
    if revealed.count(min(revealed)) == 1:
        assert state.start == revealed.index(min(revealed))
        assert state.removed == ()


@given(seeds, player_counts, st.randoms(use_true_random=False))
def test_F2_ties_draw_from_the_top_of_the_pile_and_the_lowest_draw_wins(
    seed: int, players: int, rng: random.Random
) -> None:
    deal = seeded_deal(seed, players)
    state = game.new_game(Rules(players), deal)
    low = min(min(grid) for grid in deal.grids)
    holders = [s for s in range(players) if low in deal.grids[s]]
    picks = [
        deal.grids[s].index(low) if s in holders else rng.randrange(16) for s in range(players)
    ]
    revealed = [deal.grids[s][c] for s, c in enumerate(picks)]
    state = reveal_all(state, picks)
    assert state.removed == deal.pile[: len(state.removed)]  # drawn from the top, in order
    assert state.removed + state.pile == deal.pile
    tied = [s for s in range(players) if revealed[s] == min(revealed)]
    assert state.start in tied
    if len(tied) > 1 and state.removed:
        first_draws = dict(zip(tied, state.removed, strict=False))
        assert first_draws[state.start] == min(first_draws.values())


def tie_deal(pile_head: tuple[int, ...]) -> Deal:
    """Seed 42's 2-player deal (seat 0 has a 2 at d1, seat 1 at a2), pile reordered."""
    deal = seeded_deal(42, 2)
    rest = list(deal.pile)
    for value in pile_head:
        rest.remove(value)
    return Deal(deal.grids, pile_head + tuple(rest))


def test_F2_tie_broken_by_setaside_draw() -> None:
    state = reveal_all(game.new_game(Rules(2), tie_deal((9, 4))), [3, 4])  # both reveal a 2
    assert (state.start, state.removed) == (1, (9, 4))


def test_F2_tied_again_draw_again() -> None:
    state = reveal_all(game.new_game(Rules(2), tie_deal((6, 6, 3, 3, 8, 5))), [3, 4])
    assert (state.start, state.removed) == (1, (6, 6, 3, 3, 8, 5))


def test_F2_pile_too_small_lowest_seat_starts() -> None:
    deal = seeded_deal(1, 6)  # six players leave 4 cards set aside: 6 7 6 7
    assert deal.pile == (6, 7, 6, 7)
    state = game.new_game(Rules(6), deal)
    ones = [deal.grids[s].index(1) for s in range(6)]
    picks = [0 if s == 0 else ones[s] for s in range(6)]  # seats 1–5 tie on a 1
    state = reveal_all(state, picks)
    assert (state.start, state.removed, state.pile) == (1, (), (6, 7, 6, 7))


@given(games(), st.randoms(use_true_random=False))
def test_F3_chosen_first_player_starts_and_nobody_draws(
    state: GameState, rng: random.Random
) -> None:
    if state.rules.first != "chosen":
        return
    chosen = state.start
    state = reveal_all(state, [rng.choice(state.face_down_cells(s)) for s in range(state.players)])
    assert state.start == chosen and state.to_act == chosen and state.removed == ()
    with pytest.raises(IllegalAction) as caught:
        game.new_game(replace(state.rules), seeded_deal(1, state.players), None)
    assert caught.value.rule == "F3"


@given(games(threshold=220), st.randoms(use_true_random=False), seeds)
def test_F4_start_rotates(state: GameState, rng: random.Random, seed: int) -> None:
    deals = seeded_deals(seed, state.players, 6)
    starts = []
    while state.phase is not Phase.OVER and state.round <= 3:
        if state.phase is Phase.NEXT_ROUND:
            state = game.start_round(state, deals[state.round])
            continue
        state = apply(state, rng.choice(legal_actions(state)))
        if state.turn == 1 and state.start is not None and len(starts) < state.round:
            starts.append(state.start)
    assert starts == [(starts[0] + r) % state.players for r in range(len(starts))]


# --- S: scoring and winners ---------------------------------------------------------------


def components_oracle(grid: Grid) -> set[int]:
    """S1 by graph: cells are nodes, equal orthogonal neighbours are edges; groups of 2+ go."""
    graph = nx.Graph()
    graph.add_nodes_from(range(16))
    for cell in range(16):
        r, c = divmod(cell, 4)
        if c < 3 and grid[cell] == grid[cell + 1]:
            graph.add_edge(cell, cell + 1)
        if r < 3 and grid[cell] == grid[cell + 4]:
            graph.add_edge(cell, cell + 4)
    return {cell for group in nx.connected_components(graph) if len(group) > 1 for cell in group}


@given(full_grids | st.lists(st.integers(1, 3), min_size=16, max_size=16).map(tuple))
def test_S1_cancelled_cards_are_the_equal_groups_of_two_or_more(grid: Grid) -> None:
    assert set(score_grid(grid).cancelled) == components_oracle(grid)


def test_S1_corners_do_not_count() -> None:
    assert score_grid(parse_grid("1212/2121/1212/2121")).cancelled == frozenset()


@given(full_grids)
def test_S2_score_is_the_sum_of_the_cards_left(grid: Grid) -> None:
    result = score_grid(grid)
    assert result.points + sum(grid[c] for c in result.cancelled) == sum(grid)
    assert result.remaining + len(result.cancelled) == 16


def over_position(grids: list[str], totals: list[int] | None = None) -> GameState:
    """A single-round game just scored, with these final grids (face up)."""
    cells = tuple(tuple(Card(v, face_down=False) for v in parse_grid(g)) for g in grids)
    points = [score_grid(parse_grid(g)).points for g in grids]
    return GameState(
        rules=Rules(len(grids)),
        round=1,
        turn=16,
        phase=Phase.OVER,
        start=0,
        grids=cells,
        picks=(None,) * len(grids),
        centre=(),
        hand=None,
        pile=(),
        removed=(),
        totals=tuple(totals or points),
    )


def test_S3_fewest_cards_breaks_score_tie() -> None:
    # 19 points with 5 cards (source 001's Léa) against 19 points with 4 cards.
    state = over_position(["9991/446T/T27T/T113", "9557/3388/2661/44TT"])
    assert [(s.seat, s.place) for s in ranking(state)] == [(1, 1), (0, 2)]


def test_S3_still_tied_shares_the_victory_and_the_next_place_is_skipped() -> None:
    state = over_position(["9557/3388/2661/44TT", "7559/8833/1662/TT44", "9991/446T/T27T/T113"])
    assert [(s.seat, s.place) for s in ranking(state)] == [(0, 1), (1, 1), (2, 3)]


@given(games(), st.randoms(use_true_random=False))
def test_S3_places_follow_score_then_cards_left(state: GameState, rng: random.Random) -> None:
    state = play_randomly(state, rng)
    keys = [(s.points, s.remaining) for s in round_scores(state)]
    standings = ranking(state)
    for a in standings:
        for b in standings:
            assert (a.place < b.place) == (keys[a.seat] < keys[b.seat])
            assert (a.place == b.place) == (keys[a.seat] == keys[b.seat])


@given(games(threshold=120), st.randoms(use_true_random=False), seeds)
def test_S4_totals_add_up_and_the_match_ends_at_the_threshold(
    state: GameState, rng: random.Random, seed: int
) -> None:
    deals = seeded_deals(seed, state.players, 20)
    running = [0] * state.players
    while state.phase is not Phase.OVER:
        if state.phase is Phase.NEXT_ROUND:
            assert max(state.totals) < 120
            state = game.start_round(state, deals[state.round])
            continue
        state = apply(state, rng.choice(legal_actions(state)))
        if state.phase in (Phase.NEXT_ROUND, Phase.OVER):
            running = [t + s.points for t, s in zip(running, round_scores(state), strict=True)]
            assert list(state.totals) == running
    assert max(state.totals) >= 120
    best = min(state.totals)
    assert {s.seat for s in ranking(state) if s.place == 1} == {
        seat for seat, total in enumerate(state.totals) if total == best
    }
    with pytest.raises(IllegalAction) as caught:
        game.reveal(state, 0, 0)
    assert caught.value.rule == "S4"


def test_S4_match_ends_at_threshold_shared_victory() -> None:
    state = replace(
        over_position(["9557/3388/2661/44TT", "9991/446T/T27T/T113", "1234/5678/9T12/3456"]),
        rules=Rules(3, threshold=100),
        totals=(88, 88, 140),
    )
    assert [(s.seat, s.place) for s in ranking(state)] == [(0, 1), (1, 1), (2, 3)]


# --- B1 -----------------------------------------------------------------------------------


def candidate_actions(state: GameState) -> list[Action]:
    """A broad set of actions, legal or not, for every seat."""
    actions: list[Action] = []
    for seat in range(-1, state.players + 1):
        actions += [Reveal(seat, cell) for cell in range(16)]
        actions += [Take(seat, value) for value in range(1, 11)]
        actions += [PushMove(seat, Push(side)) for side in "LRTB"]
        actions += [PushMove(seat, Push(side, line)) for side in "LRTB" for line in (1, 2, 3, 4)]
    return actions


@given(midgame())
def test_B1_refused_action_leaves_state_unchanged(state: GameState) -> None:
    """Exactly the legal actions are accepted; every other one raises IllegalAction and the
    state (and its position) is the same afterwards."""
    legal = set(legal_actions(state))
    before = format_position(state)
    for action in candidate_actions(state):
        try:
            apply(state, action)
        except IllegalAction as error:
            assert action not in legal, f"{action} is legal but refused: {error}"
            assert error.rule in {"M4", "M5", "T1", "T3", "T4", "T5", "P1", "P2", "S4"}
        else:
            slide_alias = (
                isinstance(action, PushMove)
                and state.rules.push == "slide"
                and PushMove(action.seat, Push(action.push.side)) in legal
            )
            assert action in legal or slide_alias, f"{action} accepted but not listed legal"
        assert format_position(state) == before


RULE_IDS = ["M1", "M2", "M3", "M4", "M5", "T1", "T2", "T3", "T4", "T5", "P1", "P2"]
RULE_IDS += ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4", "B1"]


def test_every_rule_id_has_a_test_named_after_it() -> None:
    import test_rules_push  # P1 and P2 live there

    names = [name for name in [*globals(), *vars(test_rules_push)] if name.startswith("test_")]
    assert [
        rule for rule in RULE_IDS if not any(n.startswith(f"test_{rule}_") for n in names)
    ] == []
