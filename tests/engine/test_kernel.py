"""The compiled kernel (dekal.kernel) against the reference: same deal, same choices, same
positions and the same result (issue 11; docs/contracts.md, "Kernel").

The other path is written here on dekal_ref alone: the table loop and the two policies exactly
as docs/contracts.md words them (legal actions from dekal_ref.actions, draws from dekal.draws,
visible scores from dekal_ref.scoring), dealing from dekal_ref.deal. Whole games, and
rollouts from mid-game states of every phase, must play the same actions to the same final
position, and the kernel's GameResults must be what dekal_ref.ranking says of it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dekal_ref
from dekal import kernel
from dekal.bots._players.greedy import greedy_push_index, greedy_take_value
from dekal.draws import Draws, seat_seed
from dekal.fast import format_position, from_reference
from dekal.kernel import _cache as kernel_cache
from dekal.kernel._bits import below, next_output, nth_cell, score, shuffle
from dekal.kernel._play import greedy_choice
from dekal.kernel._tables import PUSH_COUNT, VARIANT_CODE
from dekal_ref.actions import Action, NewRound, PushMove, Reveal, Take, legal_actions
from dekal_ref.deal import SplitMix64, deal_from_deck, seeded_deals, shuffled_deck
from dekal_ref.errors import IllegalAction
from dekal_ref.push import apply_chain, hole_of, push_chain
from dekal_ref.scoring import score_grid
from dekal_ref.state import GameState, Phase, Rules

RANDOM, GREEDY = kernel.POLICIES["random"], kernel.POLICIES["greedy"]
NAMES = {code: name for name, code in kernel.POLICIES.items()}


# --- the other path: docs/contracts.md's table loop and policies, on the reference -------------


def visible_points(state: GameState, seat: int, card: int, push: dekal_ref.Push) -> int:
    """S1/S2 points of the seat's grid after pushing `card`, face-down cards as empty cells."""
    cells = [0 if c is None or c.face_down else c.value for c in state.grids[seat]]
    chain = push_chain(hole_of(state.values(seat)), push, state.rules.push)
    return score_grid(apply_chain(cells, chain, card)).points


def policy_action(state: GameState, seat: int, policy: int, draws: Draws) -> Action:
    """The seat's action by docs/contracts.md's definition of the policy."""
    legal = [action for action in legal_actions(state) if action.seat == seat]  # type: ignore[union-attr]
    if policy == RANDOM:
        return legal[draws.below(len(legal))]
    first = legal[0]
    if isinstance(first, Reveal):
        return first
    pushes = dekal_ref.legal_pushes(hole_of(state.values(seat)), state.rules.push)
    if isinstance(first, Take):
        pairs = list(product(legal, pushes))
        scores = [visible_points(state, seat, take.card, push) for take, push in pairs]  # type: ignore[union-attr]
        return pairs[scores.index(min(scores))][0]
    assert state.hand is not None
    scores = [visible_points(state, seat, state.hand, push) for push in pushes]
    return PushMove(seat, pushes[scores.index(min(scores))])


def deals_after(seed: int, players: int, dealt: int) -> Iterator[dekal_ref.Deal]:
    """seeded_deals(seed, players, …) from round dealt + 1 on."""
    generator = SplitMix64(seed)
    for _ in range(dealt):
        shuffled_deck(generator)
    while True:
        yield deal_from_deck(shuffled_deck(generator), players)


def reference_play(
    state: GameState, policies: Sequence[int], seed: int, until: str = "game"
) -> tuple[GameState, list[str]]:
    """The table loop on dekal_ref: seats to pick in seat order, then T3/T4's order."""
    draws = [Draws(seat_seed(seed, seat)) for seat in range(state.players)]
    deals = deals_after(seed, state.players, state.round)
    actions: list[str] = []
    while state.phase is not Phase.OVER:
        if state.phase is Phase.NEXT_ROUND:
            if until == "round":
                break
            state = dekal_ref.apply(state, NewRound(next(deals)))
            actions.append("deal")
            continue
        if state.phase is Phase.REVEAL:
            seat = state.picks.index(None)
        else:
            assert state.to_act is not None
            seat = state.to_act
        action = policy_action(state, seat, policies[seat], draws[seat])
        actions.append(str(action))
        state = dekal_ref.apply(state, action)
    return state, actions


def reference_game(
    rules: Rules, seed: int, policies: Sequence[int], first: int | None
) -> tuple[GameState, list[str]]:
    start = dekal_ref.new_game(rules, seeded_deals(seed, rules.players, 1)[0], first)
    return reference_play(start, policies, seed)


def f2_facts(rules: Rules, seed: int, actions: list[str]) -> tuple[bool, bool]:
    """(f2_tie, pile_exhausted) of a game under F1, read off the reference's turn 1: its
    `removed` cards are the tied seats' draws, one card per tied seat a round, and the seats
    that drew the round's lowest stay tied; still tied when the cards run out: a short pile."""
    state = dekal_ref.new_game(rules, seeded_deals(seed, rules.players, 1)[0])
    reveals = [dekal_ref.parse_action(text) for text in actions[: rules.players]]
    revealed = [state.values(r.seat)[r.cell] for r in reveals]  # type: ignore[union-attr]
    for reveal in reveals:
        state = dekal_ref.apply(state, reveal)
    tied = revealed.count(min(revealed))
    removed = list(state.removed)
    while tied > 1 and removed:
        draws, removed = removed[:tied], removed[tied:]
        tied = draws.count(min(draws))
    return revealed.count(min(revealed)) > 1, tied > 1


# --- cases ---------------------------------------------------------------------------------


CASES = [
    (Rules(2), (RANDOM, RANDOM)),
    (Rules(3, "eject"), (RANDOM, GREEDY, RANDOM)),
    (Rules(4), (GREEDY, GREEDY, GREEDY, GREEDY)),
    (Rules(4, "eject", "chosen"), (RANDOM, RANDOM, GREEDY, RANDOM)),
    (Rules(5, "slide", "chosen"), (GREEDY, RANDOM, RANDOM, GREEDY, RANDOM)),
    (Rules(6), (RANDOM,) * 6),
    (Rules(6, "eject"), (GREEDY, RANDOM) * 3),
    (Rules(2, "slide", "lowest", 100), (RANDOM, GREEDY)),
    (Rules(3, "eject", "chosen", 100), (RANDOM, RANDOM, RANDOM)),
    (Rules(4, "slide", "lowest", 60), (GREEDY, RANDOM, GREEDY, RANDOM)),
    (Rules(6, "slide", "chosen", 40), (RANDOM,) * 6),
]


def case_id(case: tuple[Rules, tuple[int, ...]]) -> str:
    rules, policies = case
    length = "single" if rules.threshold is None else str(rules.threshold)
    names = "-".join(NAMES[p] for p in policies)
    return f"{rules.players}p-{rules.push}-{rules.first}-{length}-{names}"


def first_of(rules: Rules, seed: int) -> int | None:
    return seed % rules.players if rules.first == "chosen" else None


SEEDS = [0, 1, 42, 2**64 - 1]


# --- the generator and the draws -------------------------------------------------------------


def test_splitmix64_gives_the_spec_outputs() -> None:
    """Seeded deals: the compiled generator gives the spec's vectors (uint64 all through)."""
    for seed in (0, 42, 2**64 - 1, 0x9E3779B97F4A7C15):
        streams = np.array([seed], np.uint64)
        reference = SplitMix64(seed)
        assert [int(next_output(streams, 0)) for _ in range(200)] == [
            reference.next() for _ in range(200)
        ]


def test_shuffle_is_dekal_ref_shuffled_deck() -> None:
    """M3: the compiled Fisher–Yates deals the reference's deck, round after round (M5)."""
    for seed in SEEDS:
        streams, deck = np.array([seed], np.uint64), np.empty(100, np.int64)
        reference = SplitMix64(seed)
        for _ in range(3):
            shuffle(deck, streams, 0)
            assert deck.tolist() == shuffled_deck(reference)


def test_below_is_draws_below() -> None:
    """A random decision is one Draws.below(k): same index for every k and every seed."""
    for seed in SEEDS:
        streams, draws = np.array([seed], np.uint64), Draws(seed)
        for k in [1, 2, 3, 7, 16, 100, 2**20 + 1] * 20:
            assert below(streams, 0, k) == draws.below(k)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 10), min_size=16, max_size=16))
def test_scores_are_the_references_with_empty_cells(values: list[int]) -> None:
    """S1/S2 compiled, on grids with any number of empty cells (0): what the greedy policy's
    visible scores need, and the final scores."""
    word = np.uint64(sum(value << (4 * cell) for cell, value in enumerate(values)))
    reference = score_grid(tuple(values))
    assert score(word) == (reference.points, reference.remaining)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 2**16 - 1), st.data())
def test_nth_cell_is_the_index_th_cell_ascending(mask: int, data: st.DataObject) -> None:
    """T1: the random reveal's cell, by its table reads, is the index-th face-down cell."""
    cells = [cell for cell in range(16) if mask >> cell & 1]
    index = data.draw(st.integers(0, len(cells) - 1))
    assert nth_cell(mask, index) == cells[index]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 10), min_size=16, max_size=16),
    st.integers(0, 15),
    st.sampled_from(["slide", "eject"]),
    st.lists(st.integers(1, 10), min_size=1, max_size=6),
)
def test_greedy_choice_is_the_greedy_bots_take_and_push(
    values: list[int], hole: int, variant: str, centre: list[int]
) -> None:
    """Greedy's (value, push) scored push by push with the entry filled in by its neighbours
    (S1) is dekal.bots._players.greedy's, which scores every (value, push) grid whole; the push kept
    with the take is the push greedy would choose for the value."""
    values[hole] = 0
    word = sum(value << (4 * cell) for cell, value in enumerate(values))
    distinct = sum(value << (4 * k) for k, value in enumerate(sorted(set(centre))))
    code = VARIANT_CODE[variant]
    count = int(PUSH_COUNT[code, hole])
    value, index = greedy_choice(np.uint64(word), code, hole, count, distinct)
    assert value == greedy_take_value(word, hole, centre, variant)
    assert index == greedy_push_index(word, hole, value, variant)
    hand = centre[0]
    _, pushed = greedy_choice(np.uint64(word), code, hole, count, hand)
    assert pushed == greedy_push_index(word, hole, hand, variant)


# --- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_same_deal_same_choices_same_final_position(case: tuple[Rules, tuple[int, ...]]) -> None:
    """A game played by the kernel is the reference's table loop, action for action."""
    rules, policies = case
    for seed in SEEDS[:2] if rules.threshold else SEEDS:
        first = first_of(rules, seed)
        played = kernel.played_game(rules, seed, policies, first)
        final, actions = reference_game(rules, seed, policies, first)
        assert played.actions == actions
        assert format_position(played.final) == dekal_ref.format_position(final)
        assert kernel.game_actions(rules, seed, policies, first) == actions


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 6),
    push=st.sampled_from(["slide", "eject"]),
    first=st.sampled_from(["lowest", "chosen"]),
    threshold=st.sampled_from([None, None, 25, 50]),
    policies=st.lists(st.sampled_from([RANDOM, GREEDY]), min_size=6, max_size=6),
    seed=st.integers(0, 2**64 - 1),
)
def test_any_seed_and_rules_play_as_the_reference(
    players: int,
    push: str,
    first: str,
    threshold: int | None,
    policies: list[int],
    seed: int,
) -> None:
    """Same deal, same choices, same final position, for seeds and rules Hypothesis picks."""
    rules = Rules(players, push, first, threshold)
    chosen = first_of(rules, seed)
    played = kernel.played_game(rules, seed, policies[:players], chosen)
    final, actions = reference_game(rules, seed, policies[:players], chosen)
    assert played.actions == actions
    assert format_position(played.final) == dekal_ref.format_position(final)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_game_results_are_the_references_ranking(case: tuple[Rules, tuple[int, ...]]) -> None:
    """S1–S4: scores, cards left, totals, places, rounds, round 1's start and F2's two facts."""
    rules, policies = case
    seeds = [3, 7, 2**63 + 5] if rules.threshold else [3, 7, 11, 2**63 + 5, 2**64 - 2]
    firsts = [first_of(rules, seed) for seed in seeds]
    chosen = None if rules.first == "lowest" else np.array(firsts)
    results = kernel.play_games(rules, np.array(seeds, np.uint64), policies, chosen)
    assert len(results) == len(seeds)
    for k, (seed, first) in enumerate(zip(seeds, firsts, strict=True)):
        final, actions = reference_game(rules, seed, policies, first)
        standings = sorted(dekal_ref.ranking(final), key=lambda s: s.seat)
        assert results.scores[k].tolist() == [s.points for s in standings]
        assert results.cards_left[k].tolist() == [s.remaining for s in standings]
        assert results.totals[k].tolist() == list(final.totals)
        assert results.places[k].tolist() == [s.place for s in standings]
        assert results.rounds[k] == final.round
        assert final.start is not None
        assert results.first_player[k] == (final.start - final.round + 1) % rules.players
        facts = f2_facts(rules, seed, actions) if first is None else (False, False)
        assert (results.f2_tie[k], results.pile_exhausted[k]) == facts


def test_f2_ties_and_the_short_pile_happen_and_are_reported() -> None:
    """F2 with six players leaves a pile of 4: ties are common and the short pile happens."""
    rules = Rules(6)
    seeds = np.arange(400, dtype=np.uint64)
    results = kernel.play_games(rules, seeds, [RANDOM] * 6)
    exhausted = np.flatnonzero(results.pile_exhausted)
    assert results.f2_tie.sum() > 100 and len(exhausted) > 0
    assert not (results.pile_exhausted & ~results.f2_tie).any()
    for seed in exhausted[:3].tolist():
        _, actions = reference_game(rules, seed, [RANDOM] * 6, None)
        assert f2_facts(rules, seed, actions) == (True, True)


def test_a_batch_is_its_games_one_by_one() -> None:
    """Game k's result depends on its seed alone, not on the games around it."""
    rules = Rules(3, "eject", "lowest", 100)
    seeds = np.array([5, 6, 7, 8], np.uint64)
    together = kernel.play_games(rules, seeds, [RANDOM, GREEDY, RANDOM])
    for k, seed in enumerate(seeds):
        alone = kernel.play_games(rules, seed, [RANDOM, GREEDY, RANDOM])
        assert alone.totals[0].tolist() == together.totals[k].tolist()
        assert alone.rounds[0] == together.rounds[k]


def test_the_first_player_rules_are_checked_as_at_set_up() -> None:
    """F1: no first player with the lowest card; F3: chosen needs one, 0..n-1."""
    seeds = np.arange(2, dtype=np.uint64)
    with pytest.raises(IllegalAction, match="F1"):
        kernel.play_games(Rules(2), seeds, [RANDOM] * 2, np.array([0, 1]))
    with pytest.raises(IllegalAction, match="F3"):
        kernel.play_games(Rules(2, first="chosen"), seeds, [RANDOM] * 2)
    with pytest.raises(IllegalAction, match="F3"):
        kernel.play_games(Rules(2, first="chosen"), seeds, [RANDOM] * 2, np.array([0, 2]))


def test_chosen_first_players_start() -> None:
    """F3, F4: the chosen seat starts round 1 (first_player reports it)."""
    rules = Rules(4, first="chosen", threshold=100)
    results = kernel.play_games(
        rules, np.arange(8, dtype=np.uint64), [RANDOM] * 4, np.arange(8) % 4
    )
    assert results.first_player.tolist() == [0, 1, 2, 3, 0, 1, 2, 3]


def test_policies_are_one_known_code_per_seat() -> None:
    with pytest.raises(ValueError, match="policies"):
        kernel.play_games(Rules(3), np.arange(2, dtype=np.uint64), [RANDOM, RANDOM])
    with pytest.raises(ValueError, match="policies"):
        kernel.play_games(Rules(2), np.arange(2, dtype=np.uint64), [RANDOM, 7])


# --- rollouts --------------------------------------------------------------------------------


def mid_game_states(rules: Rules, seed: int) -> list[GameState]:
    """Positions of one random reference game in every phase: the first two (before F1),
    every 7th step (a turn is 3n steps, never a multiple of 7, so reveals with some picks
    made, takes and pushes all come up) and every position between two rounds."""
    rng = Draws(seed)
    state = dekal_ref.new_game(
        rules, seeded_deals(seed, rules.players, 1)[0], first_of(rules, seed)
    )
    deals = deals_after(seed, rules.players, 1)
    states: list[GameState] = []
    step = 0
    while state.phase is not Phase.OVER:
        if state.phase is Phase.NEXT_ROUND:
            states.append(state)
            state = dekal_ref.apply(state, NewRound(next(deals)))
            continue
        step += 1
        if step % 7 == 0 or step <= 2:  # and the first two: F1 is still to come
            states.append(state)
        legal = legal_actions(state)
        state = dekal_ref.apply(state, legal[rng.below(len(legal))])
    return states


ROLLOUT_CASES = [
    (Rules(2), (RANDOM, GREEDY)),
    (Rules(4, "eject"), (RANDOM,) * 4),
    (Rules(5, "slide", "chosen"), (GREEDY, RANDOM, GREEDY, RANDOM, RANDOM)),
    (Rules(3, "slide", "lowest", 60), (RANDOM, GREEDY, RANDOM)),
    (Rules(2, "eject", "chosen", 60), (GREEDY, RANDOM)),
]


@pytest.mark.parametrize("case", ROLLOUT_CASES, ids=case_id)
def test_rollouts_play_on_as_the_reference_does(case: tuple[Rules, tuple[int, ...]]) -> None:
    """From any full state, a rollout is the reference's table loop from that state, with the
    rollout seed's draws and, for later rounds, the seed's deals after the state's round."""
    rules, policies = case
    states = mid_game_states(rules, 9)
    phases = {state.phase for state in states}
    assert {Phase.REVEAL, Phase.TAKE, Phase.PUSH} <= phases
    assert any(state.phase is Phase.REVEAL and state.picks.count(None) == 1 for state in states)
    for until in kernel.UNTIL:
        seeds = [1000 + k for k in range(len(states))]
        batch = kernel.rollouts(states, policies, np.array(seeds, np.uint64), until)
        for k, (state, seed) in enumerate(zip(states, seeds, strict=True)):
            final, actions = reference_play(state, policies, seed, until)
            played = kernel.rollout(state, policies, seed, until)
            assert played.actions == actions
            assert format_position(played.final) == dekal_ref.format_position(final)
            standings = sorted(dekal_ref.ranking(final), key=lambda s: s.seat)
            assert batch.scores[k].tolist() == [s.points for s in standings]
            assert batch.totals[k].tolist() == list(final.totals)
            assert batch.places[k].tolist() == [s.place for s in standings]
            assert batch.rounds[k] == final.round
            assert final.start is not None
            assert batch.first_player[k] == (final.start - final.round + 1) % rules.players


def test_rollouts_accept_either_engines_state() -> None:
    """A FastState and the same GameState roll out alike."""
    states = mid_game_states(Rules(3, "eject"), 4)
    seeds = np.arange(len(states), dtype=np.uint64)
    from_ref = kernel.rollouts(states, [RANDOM] * 3, seeds, "game")
    from_fast = kernel.rollouts([from_reference(s) for s in states], [RANDOM] * 3, seeds, "game")
    assert from_ref.totals.tolist() == from_fast.totals.tolist()


def test_rollouts_refuse_mixed_rules_and_unknown_ends() -> None:
    two = mid_game_states(Rules(2), 1)[:1] + mid_game_states(Rules(2, "eject"), 1)[:1]
    with pytest.raises(ValueError, match="rules"):
        kernel.rollouts(two, [RANDOM] * 2, np.arange(2, dtype=np.uint64))
    with pytest.raises(ValueError, match="until"):
        kernel.rollouts(two[:1], [RANDOM] * 2, np.arange(1, dtype=np.uint64), "turn")


# --- the Python bots (dekal.bots) ------------------------------------------------------------


@pytest.mark.parametrize(
    "case",
    [
        (Rules(2), (RANDOM, RANDOM)),
        (Rules(3, "eject"), (GREEDY, GREEDY, GREEDY)),
        (Rules(4, "slide", "chosen"), (RANDOM, GREEDY, RANDOM, GREEDY)),
        (Rules(6, "eject", "chosen"), (GREEDY, RANDOM) * 3),
        (Rules(2, "slide", "lowest", 100), (GREEDY, RANDOM)),
        (Rules(3, "eject", "chosen", 60), (RANDOM, RANDOM, GREEDY)),
    ],
    ids=case_id,
)
def test_the_policies_are_the_python_bots(case: tuple[Rules, tuple[int, ...]]) -> None:
    """Same seed, same actions: the kernel's policies are dekal.bots' random and greedy bots
    playing dekal.bots.table.play_game (which deals a new round without an action)."""
    from dekal.bots.bot import make_bot
    from dekal.bots.table import play_game

    rules, policies = case
    bots = [make_bot(NAMES[policy]) for policy in policies]
    for seed in (5, 2**64 - 3):
        first = first_of(rules, seed)
        by_bots = play_game(rules, bots, seed, first)
        by_kernel = kernel.played_game(rules, seed, policies, first)
        assert [a for a in by_kernel.actions if a != "deal"] == list(map(str, by_bots.actions))
        assert format_position(by_kernel.final) == dekal_ref.format_position(by_bots.final)


# --- numba's cache ---------------------------------------------------------------------------


def test_cached_kernel_code_is_dropped_when_a_source_changes(tmp_path: Path) -> None:
    """numba keys a cache by the function's own file: kernel_cache drops every cached kernel
    file when any source the kernel compiles has changed, and keeps them otherwise."""
    cached = [tmp_path / "_play.play_on-1.py311.nbi", tmp_path / "_bits.below-2.nbc"]
    other = tmp_path / "solver.search-3.py311.nbi"
    for path in [*cached, other]:
        path.write_text("machine code")
    (tmp_path / kernel_cache.STAMP).write_text("the digest of older sources")
    kernel_cache.refresh(tmp_path)
    assert not any(path.exists() for path in cached) and other.exists()
    assert (tmp_path / kernel_cache.STAMP).read_text() == kernel_cache.digest()
    for path in cached:
        path.write_text("machine code")
    kernel_cache.refresh(tmp_path)
    assert all(path.exists() for path in cached)
