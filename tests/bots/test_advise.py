"""`advise` (dekal.bots.advise) as a specification.

* Where nothing is hidden any more (turn 16, after the reveal), advise's figures are the
  exact outcome of each action, computed here independently: each legal action and the rest
  of the round played on the reference engine by a plain loop with the model bots.
* Every listed action is legal and every legal action is listed (T1, T3, T4, P1, P2).
* The same seed gives the same answer; how the worlds are batched does not change it.
* Hidden values swapped give the same answer: advise never looks at a face-down card (M3).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dekal.bots.advise import AdviceError, advise, enumerated_worlds, slot_fillings
from dekal.bots.bot import make_bot
from dekal.bots.observation import observation_of, read_public_view
from dekal.draws import Draws, seat_seed
from dekal_ref.actions import NewRound, apply, legal_actions
from dekal_ref.deal import seeded_deal
from dekal_ref.errors import NotationError
from dekal_ref.game import new_game
from dekal_ref.position import format_position, parse_position
from dekal_ref.ranking import places, round_scores
from dekal_ref.state import Card, GameState, Phase, Rules

FEW = 30  # the fewest worlds advise samples: enough for these tests, quick in Python


def played(players: int, seed: int, until: int, push: str = "slide") -> GameState:
    """A game of random legal moves from a seeded deal, stopped at the first state of turn
    `until` after its reveal, or later by up to (seed % (2·players)) more moves."""
    state = new_game(Rules(players, push=push), seeded_deal(seed, players))
    rng = random.Random(seed)
    while not (state.turn == until and state.phase is Phase.TAKE):
        state = apply(state, rng.choice(legal_actions(state)))
    for _ in range(seed % (2 * players)):
        if state.phase not in (Phase.TAKE, Phase.PUSH):
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def deciding_seat(state: GameState) -> int:
    if state.phase is Phase.REVEAL:
        return state.picks.index(None)
    assert state.to_act is not None
    return state.to_act


def exact_outcomes(state: GameState, seat: int, model: str) -> dict[str, tuple[int, bool]]:
    """Independently of advise: for each legal action of `seat` in a full position where
    nothing is hidden, its points at the end of the round and whether it wins the round
    (S3, shared wins included), the rest of the round played by `model` for every seat."""
    answers = {}
    for action in legal_actions(state):
        if action.seat != seat:  # type: ignore[union-attr]
            continue
        after = apply(state, action)
        bots = [make_bot(model) for _ in range(state.players)]
        draws = [Draws(seat_seed(0, s)) for s in range(state.players)]
        while after.phase in (Phase.TAKE, Phase.PUSH):
            who = after.to_act
            assert who is not None
            after = apply(after, bots[who].act(observation_of(after), who, draws[who]))
        scores = round_scores(after)
        ranks = places([(s.points, s.remaining) for s in scores])
        answers[str(action)] = (scores[seat].points, ranks[seat] == 1)
    return answers


@settings(max_examples=15, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    push=st.sampled_from(["slide", "eject"]),
)
def test_with_nothing_hidden_the_figures_are_the_exact_outcome_of_each_action(
    players: int, seed: int, push: str
) -> None:
    state = played(players, seed, until=16, push=push)
    assume(state.phase in (Phase.TAKE, Phase.PUSH))
    seat = deciding_seat(state)
    view = observation_of(state)
    answer = advise(view, seat, samples=FEW, seed=seed)
    expected = exact_outcomes(state, seat, "greedy")
    assert answer.exact
    assert answer.samples == 1
    assert {str(f.action): (f.expected_score, f.ci95, f.p_win) for f in answer.actions} == {
        action: (float(points), (float(points), float(points)), float(won))
        for action, (points, won) in expected.items()
    }


def test_the_last_push_of_the_round_is_exact_whatever_the_model() -> None:
    # rules.md T5: seat 0's push ends the round; nobody decides after it
    view = read_public_view(
        "slide/lowest/single 1.16 push@0:3 0 T491/8437/8837/555.|1112/TT82/T72T/T62T"
        " -,- - #68 - 0,0"
    )
    answer = advise(view, 0, samples=FEW, model="random")
    assert answer.exact
    # push L gives T491/8437/8837/3555, push T gives T493/8431/8837/5557: 23 points either
    # way, against seat 1's 21 (S3): lost either way; a tie keeps the legal order
    assert [(str(f.action), f.expected_score, f.ci95, f.p_win) for f in answer.actions] == [
        ("push 0 L", 23.0, (23.0, 23.0), 0.0),
        ("push 0 T", 23.0, (23.0, 23.0), 0.0),
    ]


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), turn=st.integers(2, 15))
def test_every_legal_action_is_listed_and_only_those(players: int, seed: int, turn: int) -> None:
    state = played(players, seed, until=turn)
    seat = deciding_seat(state)
    answer = advise(observation_of(state), seat, samples=FEW, seed=seed)
    legal = {str(a) for a in legal_actions(state) if a.seat == seat}  # type: ignore[union-attr]
    assert sorted(str(f.action) for f in answer.actions) == sorted(legal)


def test_the_same_seed_gives_the_same_answer_and_another_seed_another_sample() -> None:
    view = observation_of(played(3, 11, until=12))
    seat = deciding_seat(played(3, 11, until=12))
    first = advise(view, seat, samples=FEW, seed=5)
    assert advise(view, seat, samples=FEW, seed=5) == first
    assert advise(view, seat, samples=FEW, seed=6) != first


def test_how_the_worlds_are_batched_does_not_change_the_answer() -> None:
    state = played(2, 3, until=13)
    seat = deciding_seat(state)
    view = observation_of(state)
    assert advise(view, seat, samples=FEW, seed=1, batch=7) == advise(
        view, seat, samples=FEW, seed=1, batch=50
    )


def swapped_hidden_values(state: GameState) -> GameState:
    """The same public view with two different face-down values swapped between seats (or
    a face-down card and a pile card)."""
    hidden = [(seat, cell) for seat in range(state.players) for cell in state.face_down_cells(seat)]
    (s1, c1) = hidden[0]
    v1 = state.grids[s1][c1].value  # type: ignore[union-attr]
    for s2, c2 in hidden[1:]:
        v2 = state.grids[s2][c2].value  # type: ignore[union-attr]
        if v2 != v1:
            grids = [list(grid) for grid in state.grids]
            grids[s1][c1], grids[s2][c2] = Card(v2, True), Card(v1, True)
            return replace(state, grids=tuple(tuple(g) for g in grids))
    raise AssertionError("every face-down card has the same value")


@pytest.mark.parametrize(("players", "seed", "turn"), [(2, 1, 6), (3, 2, 10), (4, 3, 14)])
def test_hidden_values_swapped_give_the_same_answer(players: int, seed: int, turn: int) -> None:
    state = played(players, seed, until=turn)
    other = swapped_hidden_values(state)
    assert format_position(other) != format_position(state)
    assert format_position(other, public=True) == format_position(state, public=True)
    seat = deciding_seat(state)
    assert advise(read_public_view(format_position(state)), seat, samples=FEW, seed=9) == advise(
        read_public_view(format_position(other)), seat, samples=FEW, seed=9
    )


def test_a_seat_not_at_the_table_is_refused() -> None:
    view = observation_of(played(2, 4, until=5))
    with pytest.raises(AdviceError, match="seat 2") as refusal:
        advise(view, 2, samples=FEW)
    assert refusal.value.field == "seat"


def test_a_seat_whose_turn_it_is_not_has_nothing_to_decide() -> None:
    state = played(3, 0, until=5)
    waiting = next(s for s in range(3) if s != state.to_act)
    with pytest.raises(AdviceError, match="nothing to decide") as refusal:
        advise(observation_of(state), waiting, samples=FEW)
    assert refusal.value.field == "seat"


def test_a_seat_that_has_picked_has_nothing_to_decide_until_the_reveal() -> None:
    state = new_game(Rules(2), seeded_deal(42, 2))
    state = apply(state, legal_actions(state)[0])  # seat 0 picks a1
    with pytest.raises(AdviceError, match="nothing to decide"):
        advise(observation_of(state), 0, samples=FEW)
    assert advise(observation_of(state), 1, samples=FEW).phase == "reveal"


def test_an_unknown_model_is_refused_naming_the_bot() -> None:
    view = observation_of(played(2, 4, until=5))
    with pytest.raises(NotationError) as refusal:
        advise(view, deciding_seat(played(2, 4, until=5)), samples=FEW, model="oracle")
    assert refusal.value.field == "bot"


@pytest.mark.parametrize("model", ["greedy", "random"])
def test_the_compiled_the_python_and_the_table_playouts_give_the_same_answer(model: str) -> None:
    # three ways to play a round out: dekal.kernel, dekal.bots._players.rollout, the bots one by one
    state = played(3, 8, until=11)
    view, seat = observation_of(state), deciding_seat(state)
    compiled = advise(view, seat, samples=FEW, seed=2, model=model)
    assert advise(view, seat, samples=FEW, seed=2, model=model, playout="python") == compiled
    assert advise(view, seat, samples=FEW, seed=2, model=model, playout="table") == compiled


@given(
    st.dictionaries(st.integers(1, 10), st.integers(1, 3), min_size=1, max_size=4),
    st.integers(0, 4),
)
def test_slot_fillings_are_the_chances_of_a_uniform_shuffle(
    copies: dict[int, int], slots: int
) -> None:
    # independently: every ordering of the cards, told apart, equally likely (M3)
    cards = [value for value, count in copies.items() for _ in range(count)]
    slots = min(slots, len(cards))
    orderings = list(permutations(cards, slots))
    counted = Counter(orderings)
    fillings = slot_fillings(Counter(copies), slots, limit=10**6)
    assert fillings is not None
    assert dict(fillings) == {
        filling: Fraction(n, len(orderings)) for filling, n in counted.items()
    }


def test_slot_fillings_give_up_beyond_the_limit() -> None:
    assert slot_fillings(Counter({1: 5, 2: 5, 3: 5}), 3, limit=26) is None  # 27 fillings
    assert slot_fillings(Counter({1: 5, 2: 5, 3: 5}), 3, limit=27) is not None


@pytest.mark.parametrize(("players", "seed", "turn"), [(2, 5, 15), (3, 6, 16), (2, 7, 14)])
def test_enumerated_worlds_show_the_view_and_their_chances_add_up_to_one(
    players: int, seed: int, turn: int
) -> None:
    state = played(players, seed, until=turn)
    view = observation_of(state)
    worlds = enumerated_worlds(view, limit=20_000)
    assert worlds is not None
    assert sum(p for _, p in worlds) == 1
    assert all(observation_of(world) == view for world, _ in worlds)
    assert len({world for world, _ in worlds}) == len(worlds)  # each world once


def test_a_secret_pick_lies_in_any_face_down_cell_of_its_seat_equally() -> None:
    state = played(2, 9, until=14)
    while state.phase is not Phase.REVEAL:  # on to turn 15's reveal
        state = apply(state, legal_actions(state)[0])
    state = apply(state, legal_actions(state)[0])  # seat 0 picks, secretly (T1)
    view = observation_of(state)
    worlds = enumerated_worlds(view, limit=20_000)
    assert worlds is not None
    cells = Counter(world.picks[0] for world, _ in worlds)
    assert set(cells) == set(view.face_down_cells(0)) and len(set(cells.values())) == 1
    assert sum(p for _, p in worlds) == 1
    assert all(observation_of(world) == view for world, _ in worlds)


def match_round_two(moves: int) -> GameState:
    """rules.md M5's 3-player match to 100 (totals 36, 25, 29), round 2 dealt from seed 5,
    then `moves` moves of random legal play."""
    state = parse_position(
        "slide/lowest/100 1.16 next 0 4111/56T4/72TT/T244|8323/8132/8539/TT77|5263/5561/6T57/6687"
        " -,-,- - 2481935447358T196T78935165878718672994349226493T1992 - 36,25,29"
    )
    state = apply(state, NewRound(seeded_deal(5, 3)))
    rng = random.Random(moves)
    for _ in range(moves):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_in_a_match_advise_plays_out_the_round_in_progress_only() -> None:
    # the last turn of round 2: exact, and judged on the round's points (S3), not the totals
    state = match_round_two(moves=15 * 9 + 3 + 1)
    assert (state.round, state.turn, state.phase) == (2, 16, Phase.PUSH)
    seat = deciding_seat(state)
    answer = advise(observation_of(state), seat, samples=FEW)
    expected = exact_outcomes(state, seat, "greedy")
    assert answer.exact
    assert {str(f.action): (f.expected_score, f.p_win) for f in answer.actions} == {
        action: (float(points), float(won)) for action, (points, won) in expected.items()
    }


def test_in_a_match_the_three_playouts_agree() -> None:
    state = match_round_two(moves=7 * 9)
    view, seat = observation_of(state), deciding_seat(state)
    compiled = advise(view, seat, samples=FEW, seed=4, model="random")
    assert advise(view, seat, samples=FEW, seed=4, model="random", playout="table") == compiled


@pytest.mark.parametrize(
    ("position", "why"),
    [
        (  # rules.md S3: the game is over
            "slide/lowest/single 1.16 over 0 9991/446T/T27T/T113|9557/3388/2661/44TT|"
            "7559/8833/1662/TT44 -,-,- - 11111222222233333444455555566666777777788888899999TT"
            " - 19,19,19",
            "the game is over",
        ),
        (  # rules.md M5: a match round is scored, the next needs a deal
            "slide/lowest/100 1.16 next 0 4111/56T4/72TT/T244|8323/8132/8539/TT77|"
            "5263/5561/6T57/6687 -,-,- - 2481935447358T196T78935165878718672994349226493T1992"
            " - 36,25,29",
            "the next needs a deal",
        ),
    ],
)
def test_nobody_has_anything_to_decide_between_rounds_or_after_the_end(
    position: str, why: str
) -> None:
    view = read_public_view(position)
    for seat in range(view.players):
        with pytest.raises(AdviceError, match=why):
            advise(view, seat, samples=FEW)


def test_before_the_first_player_is_known_the_playouts_agree_too() -> None:
    # turn 1 of round 1 (F1, F2): the pile may break a tie, so its order is part of a world
    state = new_game(Rules(3), seeded_deal(12, 3))
    state = apply(state, legal_actions(state)[0])  # seat 0 has picked, secretly
    view = observation_of(state)
    compiled = advise(view, 1, samples=FEW, seed=3, model="random")
    assert compiled.phase == "reveal" and not compiled.exact
    assert advise(view, 1, samples=FEW, seed=3, model="random", playout="table") == compiled


def test_progress_counts_worlds_from_zero_to_the_total_told_before_the_first_batch() -> None:
    view = observation_of(played(2, 7, until=3))
    seat = deciding_seat(played(2, 7, until=3))
    told: list[tuple[int, int]] = []
    answer = advise(view, seat, samples=45, seed=1, batch=20, progress=lambda *t: told.append(t))
    assert told == [(0, 45), (20, 45), (40, 45), (45, 45)]
    assert answer.samples == 45
