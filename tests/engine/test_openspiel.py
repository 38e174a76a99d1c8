"""dekal.openspiel: Dékal as an OpenSpiel game, checked against the reference engine.

Random games are played through pyspiel (the deal by its chance nodes, the moves by a random
player); the same deal and actions replayed on dekal_ref must give the same final position
and scores, and the returns must be the reference's ranking (S3). OpenSpiel's own
random_sim_test and its ISMCTS bot run on the game too.
"""

from __future__ import annotations

import doctest
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open-spiel is not installed: pip install '.[openspiel]' (or '.[test]')"
)

from dekal import fast  # noqa: E402 - only once pyspiel is known to be there
from dekal import openspiel as dekal_openspiel  # noqa: E402
from dekal_ref.actions import apply, legal_actions  # noqa: E402
from dekal_ref.deal import DECK  # noqa: E402
from dekal_ref.game import new_game  # noqa: E402
from dekal_ref.position import format_position  # noqa: E402
from dekal_ref.ranking import ranking, round_scores  # noqa: E402
from dekal_ref.state import GameState, Phase, Rules  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TABLES = [
    {"players": players, "variant": variant, "first": first}
    for players in range(2, 7)
    for variant in ("slide", "eject")
    for first in ("lowest", "chosen")
]


Offers = list[tuple[int, list[int]]]
"""At each decision of a game: the seat pyspiel asked, and the actions it offered."""


def play_at_random(params: dict[str, Any], seed: int) -> tuple[Any, Offers]:
    """A whole round through pyspiel: chance by its probabilities, moves uniformly."""
    choose = random.Random(seed)
    state = pyspiel.load_game("dekal", params).new_initial_state()
    offered: Offers = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(choose.choices(outcomes, chances)[0])
        else:
            offered.append((state.current_player(), state.legal_actions()))
            state.apply_action(choose.choice(offered[-1][1]))
    return state, offered


def replayed_on_reference(state: Any, offers: Offers | None = None) -> GameState:
    """The same deal and actions, played by dekal_ref (every action checked, B1). With the
    game's offers: at each decision the seat pyspiel asked is the table's (the first seat
    still to pick in a reveal, else the rules' seat) and it offered the reference's actions."""
    rules = Rules(state.rules.players, state.rules.push, state.rules.first)
    ref = new_game(rules, state.deal, 0 if rules.first == "chosen" else None)
    assert offers is None or len(offers) == len(state.actions)
    for number, action in enumerate(state.actions):
        assert action in legal_actions(ref)
        if offers is not None:
            seat, offered = offers[number]
            table_seat = ref.picks.index(None) if ref.phase is Phase.REVEAL else ref.to_act
            assert seat == action.seat == table_seat
            mine = [a for a in legal_actions(ref) if getattr(a, "seat", None) == seat]
            assert sorted(map(dekal_openspiel.action_id, mine)) == offered
        ref = apply(ref, action)
    return ref


def zero_sum_places(ref: GameState) -> list[float]:
    """S3 as the module docstring states it: +1 per seat beaten, -1 per seat beating."""
    place = {standing.seat: standing.place for standing in ranking(ref)}
    others = ref.players - 1
    return [
        (sum(place[o] > place[p] for o in place) - sum(place[o] < place[p] for o in place)) / others
        for p in range(ref.players)
    ]


# --- The same game as the reference ---------------------------------------------------------


@pytest.mark.parametrize("params", TABLES, ids=lambda p: "-".join(map(str, p.values())))
def test_random_games_through_pyspiel_are_the_reference_engines_games(
    params: dict[str, Any],
) -> None:
    for seed in range(12):
        state, offers = play_at_random(params, seed)
        ref = replayed_on_reference(state, offers)
        assert ref.phase is Phase.OVER
        assert fast.format_position(state.position) == format_position(ref)
        assert [(s.points, s.remaining) for s in fast.round_scores(state.position)] == [
            (s.points, s.remaining) for s in round_scores(ref)
        ]
        assert state.returns() == zero_sum_places(ref)


def test_random_games_meet_first_player_ties_broken_by_the_pile_f2() -> None:
    """The comparison above covers F2's draws: some 6-player games tie on turn 1."""
    drawn = [replayed_on_reference(*play_at_random({"players": 6}, seed)).removed
             for seed in range(20)]  # fmt: skip
    assert any(drawn)


def test_a_six_way_tie_with_a_four_card_pile_gives_seat_0_the_token_f2_ruling() -> None:
    """Chance is ours to choose: a deck where every seat's a1 is a 1, all six reveal it."""
    rest = [card for card in DECK if card != 1] + [1] * 4
    random.Random(9).shuffle(rest)
    deck = [card for seat in range(6) for card in [1, *rest[15 * seat : 15 * seat + 15]]]
    deck += rest[90:]
    state = pyspiel.load_game("dekal", {"players": 6}).new_initial_state()
    for card in deck:
        state.apply_action(card - 1)
    offers: Offers = []
    for _ in range(6):
        offers.append((state.current_player(), state.legal_actions()))
        state.apply_action(0)  # a1
    assert state.position.start == 0 and state.position.removed == ()
    assert replayed_on_reference(state, offers).start == 0


def test_the_chance_nodes_deal_the_hundred_cards_m1() -> None:
    for seed in range(20):
        state, _ = play_at_random({"players": 2 + seed % 5}, seed)
        assert Counter(state.deck) == Counter(DECK)


def test_chance_outcomes_are_the_copies_left_of_each_value_m3() -> None:
    state = pyspiel.load_game("dekal").new_initial_state()
    for value in (10, 10, 3):
        state.apply_action(value - 1)
    outcomes = dict(state.chance_outcomes())
    assert outcomes[9] == pytest.approx(8 / 97) and outcomes[2] == pytest.approx(9 / 97)
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_the_deciding_seats_follow_the_table_order_reveals_in_seat_order_t1() -> None:
    state, _ = play_at_random({"players": 4}, 3)
    seats = [seat for seat, _ in _player_moves(state)]
    reveals = [seat for (seat, action) in _player_moves(state) if action < 16]
    assert reveals[:4] == [0, 1, 2, 3] and reveals[4:8] == [0, 1, 2, 3]
    assert len(seats) == 3 * 16 * 4


def _player_moves(state: Any) -> list[tuple[int, int]]:
    """(seat, action) of every player move, from pyspiel's own history."""
    return [(item.player, item.action) for item in state.full_history() if item.player >= 0]


def test_every_action_number_is_one_dekal_action_and_back() -> None:
    state, _ = play_at_random({"players": 3, "variant": "eject"}, 1)
    ref = new_game(Rules(3, "eject"), state.deal)
    for action in state.actions:
        for legal in legal_actions(ref):
            seat = legal.seat  # type: ignore[union-attr]
            assert dekal_openspiel.dekal_action(seat, dekal_openspiel.action_id(legal)) == legal
        ref = apply(ref, action)


# --- What a seat knows ----------------------------------------------------------------------


def decision_states(params: dict[str, Any], seed: int, every: int = 7) -> list[Any]:
    """Some decision states of a random game (clones), picks pending among them."""
    choose = random.Random(seed)
    state = pyspiel.load_game("dekal", params).new_initial_state()
    kept = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(choose.choices(outcomes, chances)[0])
            continue
        if len(state.history()) % every == 0 or state.pending:
            kept.append(state.clone())
        state.apply_action(choose.choice(state.legal_actions()))
    return kept


def test_a_state_resampled_for_a_seat_looks_the_same_to_that_seat_m3() -> None:
    """The hidden values and the others' secret picks change; what the seat knows cannot:
    so its information state and observation hold nothing hidden."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for state in decision_states({"players": 3}, 5):
        seat = state.current_player()
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_string(seat) == state.observation_string(seat)
        assert world.legal_actions() == state.legal_actions()
        changed += str(world) != str(state)
    assert changed > 0


def replayed_through_pyspiel(history: list[int], params: dict[str, Any]) -> Any:
    state = pyspiel.load_game("dekal", params).new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("params", [{"players": 3}, {"players": 2, "variant": "eject"}])
def test_a_resampled_state_exposes_only_the_resampled_round_m3(params: dict[str, Any]) -> None:
    """M3: a resampled state's history, serialization and deal are those of the resampled
    round (replaying them gives the resampled position), never the real hidden cards; and
    the real deal is not what they show (the unseen cards were reshuffled)."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    game = pyspiel.load_game("dekal", params)
    reshuffled = 0
    for state in decision_states(params, 3):
        world = state.resample_from_infostate(state.current_player(), sampler)
        assert str(replayed_through_pyspiel(world.history(), params)) == str(world)
        assert str(game.deserialize_state(world.serialize())) == str(world)
        assert world.deck == [action + 1 for action in world.history()[:100]]
        assert world.deal == replayed_through_pyspiel(world.history()[:100], params).deal
        assert replayed_on_reference(world).grids == fast.to_reference(world.position).grids
        reshuffled += world.deck != state.deck
    assert reshuffled > 0


def test_the_seen_cards_keep_their_places_in_a_resampled_deck_m3() -> None:
    """What every seat saw (revealed cards, F2 draws) is the same card in the resampled
    deck: only the cards still face down or in the pile move."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for state in decision_states({"players": 4}, 11):
        world = state.resample_from_infostate(state.current_player(), sampler)
        unseen = {i for cells in state.origin for i in cells if i >= 0}
        unseen |= set(range(state.pile_next, 100))
        for index, (real, drawn) in enumerate(zip(state.deck, world.deck, strict=True)):
            assert index in unseen or real == drawn
        assert Counter(world.deck) == Counter(DECK)


def test_the_tensor_methods_say_they_are_not_provided() -> None:
    state = decision_states({"players": 2}, 1)[0]
    for method in (state.information_state_tensor, state.observation_tensor):
        with pytest.raises(NotImplementedError, match="no tensors"):
            method(0)


def test_other_seats_picks_stay_secret_until_the_last_pick_t1() -> None:
    state, _ = play_at_random({"players": 3}, 0)
    game = pyspiel.load_game("dekal", {"players": 3})
    replay = game.new_initial_state()
    for item in state.full_history()[:100]:
        replay.apply_action(item.action)
    replay.apply_action(5)  # seat 0 picks b2
    assert "reveal 0 b2" in replay.information_state_string(0)
    assert "reveal 0 ?" in replay.information_state_string(1)
    assert "b2" not in replay.information_state_string(2)
    assert "your pick b2" in replay.observation_string(0)
    assert "b2" not in replay.observation_string(1)


def test_the_observation_is_the_public_view_of_the_position() -> None:
    state = decision_states({"players": 2}, 2)[3]
    seat = state.current_player()
    public = format_position(fast.to_reference(state.position), public=True)
    assert state.observation_string(seat).startswith(f"seat {seat}; {public}")
    assert not re.search(r"[a-j]", public.split()[4])


# --- OpenSpiel's own tools ------------------------------------------------------------------


@pytest.mark.parametrize(
    "params",
    [{"players": 2}, {"players": 4, "variant": "eject"}, {"players": 6, "first": "chosen"}],
    ids=lambda p: "-".join(map(str, p.values())),
)
def test_openspiel_random_sim_test_passes(params: dict[str, Any]) -> None:
    pyspiel.random_sim_test(
        pyspiel.load_game("dekal", params), num_sims=2, serialize=True, verbose=False
    )


def test_openspiel_ismcts_bot_plays_whole_games() -> None:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("dekal", {"players": 2})
    randomness = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=randomness)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8,
                           random_state=randomness)  # fmt: skip
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(randomness.choice(outcomes, p=chances))
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                state.apply_action(randomness.choice(state.legal_actions()))
        assert sum(state.returns()) == 0 and replayed_on_reference(state).phase is Phase.OVER


def test_bad_parameters_are_refused_naming_them() -> None:
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game("dekal", {"players": 7})
    with pytest.raises(ValueError, match="variant"):
        pyspiel.load_game("dekal", {"variant": "diagonal"})


def test_the_openspiel_page_examples_run() -> None:
    text = (ROOT / "docs" / "openspiel.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```pycon\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert blocks
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    session = "\n".join(blocks)  # one session: each block goes on from the one before
    runner.run(doctest.DocTestParser().get_doctest(session, {}, "docs/openspiel.md", None, 0))
    assert runner.summarize(verbose=False).failed == 0
