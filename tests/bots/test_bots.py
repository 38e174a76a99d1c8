"""Specification of the bots and the table loop (dekal.bots.bot, dekal.bots.table;
docs/contracts.md "Bots", "table loop", the two policies): bots decide from the public view
alone (M3, T1), the random and greedy policies are exactly as defined, and a game played at
the table is a record that replays."""

from __future__ import annotations

import dataclasses
import doctest
import importlib.util
import json
import random
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_observation import positions

from dekal import fast
from dekal.bots._players.rollout import POLICIES, Outcome, play_round_out, round_outcomes
from dekal.bots._players.utility import margin, win_share
from dekal.bots.bot import BOT_NAMES, make_bot
from dekal.bots.observation import Observation, legal_actions, observation_of
from dekal.bots.table import play_game
from dekal.draws import Draws, seat_seed
from dekal.position import from_reference
from dekal_ref import actions as ref_actions
from dekal_ref import game
from dekal_ref.actions import Action, PushMove, Reveal, Take
from dekal_ref.deal import seeded_deals
from dekal_ref.errors import IllegalAction, NotationError
from dekal_ref.push import apply_chain, hole_of, legal_pushes, push_chain
from dekal_ref.ranking import ranking, round_scores
from dekal_ref.record import parse_record, replay
from dekal_ref.scoring import score_grid
from dekal_ref.state import Card, GameState, Phase, Rules

FAST_SPECS = ("random", "greedy", "pimc:samples=3", "ismcts:iterations=12,batch=4")
"""Every bot, with options small enough for tests."""


def seats_to_act(state: GameState) -> list[int]:
    if state.phase is Phase.REVEAL:
        return [seat for seat, pick in enumerate(state.picks) if pick is None]
    return [] if state.to_act is None else [state.to_act]


def swap_hidden(state: GameState, rng: random.Random) -> GameState:
    """The same position with every hidden thing shuffled: the face-down values among
    themselves and with the pile, and every made pick moved to another face-down cell."""
    slots = [(seat, cell) for seat in range(state.players) for cell in state.face_down_cells(seat)]
    values = [state.grids[seat][cell].value for seat, cell in slots]  # type: ignore[union-attr]
    values += state.pile
    rng.shuffle(values)
    grids = [list(grid) for grid in state.grids]
    for (seat, cell), value in zip(slots, values, strict=False):
        grids[seat][cell] = Card(value, face_down=True)
    picks = tuple(
        None if pick is None else rng.choice(state.face_down_cells(seat))
        for seat, pick in enumerate(state.picks)
    )
    return replace(
        state,
        grids=tuple(tuple(grid) for grid in grids),
        pile=tuple(values[len(slots) :]),
        picks=picks,
    )


# --- what a bot may know -------------------------------------------------------------------


def test_an_observation_holds_the_public_view_and_nothing_else() -> None:
    names = [field.name for field in dataclasses.fields(Observation)]
    assert names == [
        "rules", "round", "turn", "phase", "start", "grids", "picked", "centre", "hand",
        "pile", "removed", "totals",
    ]  # fmt: skip


@pytest.mark.parametrize("spec", FAST_SPECS)
@settings(max_examples=25)
@given(state=positions(), seed=st.integers(0, 2**64 - 1), shuffle=st.integers(0, 2**32))
def test_m3_a_bots_decisions_do_not_depend_on_hidden_cards(
    spec: str, state: GameState, seed: int, shuffle: int
) -> None:
    swapped = swap_hidden(state, random.Random(shuffle))
    bot = make_bot(spec)
    for seat in seats_to_act(state):
        here = bot.act(observation_of(state), seat, Draws(seed))
        there = bot.act(observation_of(swapped), seat, Draws(seed))
        assert here == there


@pytest.mark.parametrize("spec", FAST_SPECS)
@settings(max_examples=25)
@given(state=positions(), seed=st.integers(0, 2**64 - 1))
def test_b1_every_bot_plays_one_of_its_legal_actions(
    spec: str, state: GameState, seed: int
) -> None:
    obs = observation_of(state)
    for seat in seats_to_act(state):
        assert make_bot(spec).act(obs, seat, Draws(seed)) in legal_actions(obs, seat)


# --- the two policies, literally -----------------------------------------------------------


@settings(max_examples=60)
@given(state=positions(), seed=st.integers(0, 2**64 - 1))
def test_random_plays_legal_at_one_draw(state: GameState, seed: int) -> None:
    obs = observation_of(state)
    for seat in seats_to_act(state):
        legal = legal_actions(obs, seat)
        draws = Draws(seed)
        assert make_bot("random").act(obs, seat, draws) == legal[Draws(seed).below(len(legal))]
        assert repr(draws) == repr(_after_one_draw(seed))


def _after_one_draw(seed: int) -> Draws:
    draws = Draws(seed)
    draws.below(1)
    return draws


def visible_points(state: GameState, seat: int, value: int, push: PushMove) -> int:
    """The reference's reading of 'visible score': `value` pushed into the seat's cards by the
    reference's push chain, then every face-down card read as an empty cell, scored by S1/S2."""
    cells = state.grids[seat]
    chain = push_chain(hole_of(cells), push.push, state.rules.push)
    after = apply_chain(cells, chain, Card(value, face_down=False))
    visible = tuple(0 if card is None or card.face_down else card.value for card in after)
    return score_grid(visible).points


def greedy_by_the_reference(state: GameState, seat: int) -> Action:
    """docs/contracts.md's greedy, written again on the reference engine (an independent path)."""
    legal = [a for a in ref_actions.legal_actions(state) if getattr(a, "seat", None) == seat]
    if state.phase is Phase.REVEAL:
        return legal[0]
    pushes = [PushMove(seat, p) for p in legal_pushes(hole_of(state.grids[seat]), state.rules.push)]
    if state.phase is Phase.TAKE:
        options = [(visible_points(state, seat, t.card, p), t) for t in legal for p in pushes]
        best = min(points for points, _ in options)
        return next(take for points, take in options if points == best)
    assert state.hand is not None
    hand = state.hand
    best = min(visible_points(state, seat, hand, p) for p in pushes)
    return next(p for p in pushes if visible_points(state, seat, hand, p) == best)


@settings(max_examples=80)
@given(state=positions())
def test_greedy_is_the_contracts_definition(state: GameState) -> None:
    obs = observation_of(state)
    for seat in seats_to_act(state):
        assert make_bot("greedy").act(obs, seat, Draws(0)) == greedy_by_the_reference(state, seat)


def test_greedy_never_draws() -> None:
    state = game.new_game(Rules(players=3), seeded_deals(5, 3, 1)[0])
    draws = Draws(1)
    make_bot("greedy").act(observation_of(state), 0, draws)
    assert repr(draws) == repr(Draws(1))


# --- bot specs ----------------------------------------------------------------------------


def test_every_bot_name_makes_a_bot_of_that_name() -> None:
    assert [make_bot(name).name for name in BOT_NAMES] == list(BOT_NAMES)


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("pimc:samples=10", "pimc:samples=10"),
        ("pimc:samples=40", "pimc"),
        ("pimc:utility=win,samples=40", "pimc:utility=win"),
        ("ismcts:c=1.5,iterations=50", "ismcts:iterations=50,c=1.5"),
    ],
)
def test_a_bots_name_is_its_canonical_spec(spec: str, name: str) -> None:
    assert make_bot(spec).name == name
    assert make_bot(name) == make_bot(spec)


@pytest.mark.parametrize("spec", FAST_SPECS)
def test_a_bot_decides_the_same_from_the_same_seed(spec: str) -> None:
    played = [play_game(Rules(players=3), [make_bot(spec)] * 3, 17) for _ in range(2)]
    assert played[0] == played[1]


@pytest.mark.parametrize(
    "spec",
    [
        "chess",
        "greedy:depth=2",
        "random:x",
        "",
        "pimc:samples=x",
        "pimc:samples=0",
        "pimc:rollout=minimax",
        "ismcts:utility=glory",
        "ismcts:c=1e99",
    ],
)
def test_an_unknown_bot_or_option_is_refused_naming_the_field_bot(spec: str) -> None:
    with pytest.raises(NotationError) as error:
        make_bot(spec)
    assert error.value.field == "bot"


# --- the table loop -----------------------------------------------------------------------


def table_by_the_reference(rules: Rules, specs: Sequence[str], seed: int) -> list[Action]:
    """The table loop of docs/contracts.md written again on the reference engine, with the random
    and greedy policies: the differential oracle of play_game."""
    deals = seeded_deals(seed, rules.players, 30)
    state = game.new_game(rules, deals[0])
    draws = [Draws(seat_seed(seed, seat)) for seat in range(rules.players)]
    played: list[Action] = []
    while state.phase is not Phase.OVER:
        if state.phase is Phase.NEXT_ROUND:
            state = game.start_round(state, deals[state.round])
            continue
        seat = seats_to_act(state)[0]
        if specs[seat] == "random":
            legal = [
                a for a in ref_actions.legal_actions(state) if getattr(a, "seat", None) == seat
            ]
            action = legal[draws[seat].below(len(legal))]
        else:
            action = greedy_by_the_reference(state, seat)
        state = ref_actions.apply(state, action)
        played.append(action)
    return played


@pytest.mark.parametrize(
    ("rules", "specs", "seed"),
    [
        (Rules(players=2), ("random", "random"), 1),
        (Rules(players=4), ("greedy", "random", "greedy", "random"), 2),
        (Rules(players=3, push="eject"), ("random", "greedy", "random"), 3),
        (Rules(players=3, threshold=60), ("greedy", "random", "random"), 4),
    ],
)
def test_the_table_loop_plays_as_the_contract_says(
    rules: Rules, specs: tuple[str, ...], seed: int
) -> None:
    played = play_game(rules, [make_bot(spec) for spec in specs], seed)
    assert list(played.actions) == table_by_the_reference(rules, specs, seed)


def test_t1_reveals_are_made_in_seat_order() -> None:
    played = play_game(Rules(players=4), [make_bot("random")] * 4, 11)
    record = parse_record(played.record)
    for line in record.rounds[0].moves[:4], record.rounds[0].moves[12:16]:
        assert [move.seat for move in line if isinstance(move, Reveal)] == [0, 1, 2, 3]


def test_a_played_game_is_a_record_that_replays_to_its_final_position() -> None:
    played = play_game(Rules(players=3, threshold=50), [make_bot("greedy")] * 3, 8)
    states = replay(parse_record(played.record))
    assert states[-1] == played.final
    assert played.final.phase is Phase.OVER
    assert parse_record(played.record).places == tuple(
        s.place for s in sorted(ranking(played.final), key=lambda s: s.seat)
    )


def test_the_same_seed_plays_the_same_game() -> None:
    bots = [make_bot("random"), make_bot("greedy")]
    assert play_game(Rules(players=2), bots, 5) == play_game(Rules(players=2), bots, 5)


def test_a_game_played_without_its_record_is_the_same_game() -> None:
    bots = [make_bot("random"), make_bot("greedy"), make_bot("random")]
    rules = Rules(players=3, threshold=40)
    kept, unkept = play_game(rules, bots, 11), play_game(rules, bots, 11, recorded=False)
    assert (unkept.actions, unkept.final, unkept.record) == (kept.actions, kept.final, "")


def test_f3_a_chosen_first_player_starts() -> None:
    played = play_game(Rules(players=3, first="chosen"), [make_bot("greedy")] * 3, 5, 2)
    first_take = next(a for a in played.actions if isinstance(a, Take))
    assert first_take.seat == 2


@dataclass(frozen=True)
class Cheater:
    """Plays for another seat: the table must refuse it."""

    name: str = "cheater"

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        return Reveal((seat + 1) % obs.players, obs.face_down_cells(seat)[0])


def test_b1_a_bot_playing_an_illegal_action_is_refused() -> None:
    with pytest.raises(IllegalAction) as error:
        play_game(Rules(players=2), [Cheater(), make_bot("random")], 1)
    assert error.value.rule == "B1"
    assert "cheater" in error.value.message


def test_m2_one_bot_per_seat() -> None:
    with pytest.raises(IllegalAction) as error:
        play_game(Rules(players=3), [make_bot("random")] * 2, 1)
    assert error.value.rule == "M2"


# --- rollouts and utilities ---------------------------------------------------------------


@settings(max_examples=40)
@given(state=positions(), seed=st.integers(0, 2**64 - 1), policy=st.sampled_from(sorted(POLICIES)))
def test_python_and_compiled_rollouts_play_the_same_rounds(
    state: GameState, seed: int, policy: str
) -> None:
    fast_state = from_reference(state)
    compiled = round_outcomes([fast_state], policy, [seed])
    assert round_outcomes([fast_state], policy, [seed], compiled=False) == compiled


def test_a_greedy_rollout_from_any_point_of_a_greedy_game_ends_as_the_game() -> None:
    rules = Rules(players=4)
    played = play_game(rules, [make_bot("greedy")] * 4, 21)
    final = tuple(score.points for score in round_scores(played.final))
    state = fast.new_game(rules, seeded_deals(21, 4, 1)[0])
    for k, action in enumerate(played.actions):
        if k % 7 == 0:
            assert play_round_out(state, "greedy", seed=k).points == final
        state = fast.apply(state, action)


def test_s3_the_win_share_is_split_among_tied_winners() -> None:
    outcome = Outcome(points=(5, 5, 9), remaining=(2, 2, 3), totals=(5, 5, 9))
    assert win_share(outcome, Rules(players=3)) == [0.5, 0.5, 0.0]
    fewer_cards = Outcome(points=(5, 5, 9), remaining=(1, 2, 3), totals=(5, 5, 9))
    assert win_share(fewer_cards, Rules(players=3)) == [1.0, 0.0, 0.0]


def test_s4_in_a_match_the_win_share_reads_the_totals() -> None:
    outcome = Outcome(points=(0, 30), remaining=(0, 5), totals=(90, 60))
    assert win_share(outcome, Rules(players=2, threshold=100)) == [0.0, 1.0]


def test_the_margin_is_one_half_when_level_and_rises_with_a_lower_score() -> None:
    level = margin(Outcome((10, 10), (2, 2), (10, 10)), Rules(players=2))
    better = margin(Outcome((0, 40), (0, 6), (0, 40)), Rules(players=2))
    assert level == [0.5, 0.5]
    assert better[0] > 0.5 > better[1]


# --- the strength table (bench/bots.py) ---------------------------------------------------

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bots.py"


@pytest.fixture(scope="module")
def bench_bots() -> Iterator[ModuleType]:
    """bench/bots.py (a script, not a module of the package), loaded in this process: its
    `main(argv)` is what `python bench/bots.py ARGV` runs, less a start-up of seconds."""
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_bench_bots_quick_plays_every_pairing_of_the_round_robin(
    bench_bots: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    # one game a pairing (--quick plays 8): the pairings and the report's figures are the
    # point here, not the bots' strength
    assert bench_bots.main(["--quick", "--games", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    bots = ["random", "greedy", "pimc:samples=4", "ismcts:iterations=16"]
    assert [(row["bot"], row["opponent"]) for row in report["rows"]] == [
        (x, y) for x in bots for y in bots if x != y
    ]
    for row in report["rows"]:
        assert row["games"] == report["games"] == 1
        low, high = row["win_rate_ci95"]
        assert low <= row["win_rate"] <= high
        low, high = row["mean_score_ci95"]
        assert low <= row["mean_score"] <= high
        assert row["decisions_per_second"] > 0


def test_bench_bots_refuses_an_unknown_bot_with_exit_code_2(
    bench_bots: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench_bots.main(["--bots", "chess", "--games", "1"]) == 2
    said = capsys.readouterr()
    assert "bot" in said.err and "Traceback" not in said.err and said.out == ""


def test_docs_bots_md_examples_run() -> None:
    page = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
    failures, attempted = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS, raise_on_error=False
    )
    assert attempted > 15
    assert failures == 0


def test_pimc_plays_the_action_it_estimates_best() -> None:
    state = game.new_game(Rules(players=3), seeded_deals(4, 3, 1)[0])
    for seat in range(3):
        state = game.reveal(state, seat, 5)
    obs = observation_of(state)
    seat = obs.to_act
    assert seat is not None
    bot = make_bot("pimc:samples=8")
    estimates = bot.evaluate(obs, seat, Draws(3))  # type: ignore[attr-defined]
    assert [action for action, _ in estimates] == legal_actions(obs, seat)
    assert all(0 <= value <= 1 for _, value in estimates)
    best = max(value for _, value in estimates)
    chosen = bot.act(obs, seat, Draws(3))
    assert chosen == next(action for action, value in estimates if value == best)


def test_the_table_and_the_simple_bots_do_not_import_numba() -> None:
    code = (
        "import sys; import dekal.bots.table, dekal.bots.sampler; from dekal.bots.bot import "
        "make_bot; make_bot('pimc'); print('numba' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.strip() == "False"
