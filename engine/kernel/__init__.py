"""Whole games and rollouts by the random and greedy policies, compiled with numba (issue 11).

The contract (docs/contracts.md, "Kernel"): game k of `play_games` is dealt from its seed as
dekal_ref.deal.seeded_deals deals it (round r: the r-th shuffle of one SplitMix64 stream,
M3, M5), seat s decides with Draws(seat_seed(seed, s)) (dekal.draws), and the policies are
the ones docs/contracts.md defines (dekal.kernel._play). The rules are all there: T1–T5, F1–F2 with
the short-pile ruling, F3 chosen, F4's rotation, S1–S4 to a match threshold, P1 and P2.

* play_games(rules, seeds, policies, first_players) -> GameResults: N whole games;
* rollouts(states, policies, seeds, until) -> GameResults: N full states played on;
* game_actions / played_game / rollout: one game's actions in notation (and its final
  state), to replay through the reference: same deal, same choices, same result;
* world_values(...): PIMC's whole evaluation (worlds sampled, every action played in each,
  the utilities) in one call (dekal.kernel._worlds).

The first call of a process compiles (a few seconds, once: the machine code is cached on
disk next to the modules); numba is imported only by importing this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from dekal.extras import needed
from dekal.kernel._batch import play_many, roll_many
from dekal.kernel._bits import seed_streams
from dekal.kernel._play import (
    DEAL_ACTION,
    GREEDY,
    RANDOM,
    REVEAL_ACTION,
    TAKE_ACTION,
    play_on,
    start_game,
)
from dekal.kernel._state import (
    DECK_SIZE,
    HOLE,
    MAX_SEATS,
    NONE,
    PICKS,
    PLAYERS,
    ROUND,
    THRESHOLD,
    VARIANT,
    WIDTH,
    row_state,
    rules_columns,
    state_rows,
)
from dekal.kernel._tables import PUSH_COUNT, PUSH_NAMES, STEPS
from dekal.kernel._worlds import PUSH_KIND, REVEAL_KIND, TAKE_KIND, UTILITY_CODES
from dekal.kernel._worlds import world_values as _world_values
from dekal.state import TURNS_PER_ROUND, FastState
from dekal_ref.actions import Action, PushMove, Reveal, Take
from dekal_ref.deal import check_players
from dekal_ref.errors import IllegalAction
from dekal_ref.state import GameState, Rules

with needed("the compiled game kernel (dekal.kernel)"):
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

POLICIES = {"random": RANDOM, "greedy": GREEDY}
"""The policies by name, as play_games and rollouts take them (one code per seat)."""
UNTIL = ("round", "game")


@dataclass(frozen=True)
class GameResults:
    """Results of N games of n seats, as NumPy arrays (docs/contracts.md, "Kernel").

    scores, cards_left (N, n): the last round's S2 points and cards left; totals (N, n): S4's
    totals (the points, in a single round); places (N, n): 1 = winner, shared as
    dekal_ref.ranking shares them (S3 in a single round, S4 in a match); first_player (N,):
    round 1's start; f2_tie (N,): turn 1 of round 1 had a tie for the lowest card (F2);
    pile_exhausted (N,): F2's short-pile ruling gave the token; rounds (N,): rounds played.
    """

    scores: NDArray[np.int64]
    cards_left: NDArray[np.int64]
    totals: NDArray[np.int64]
    places: NDArray[np.int64]
    first_player: NDArray[np.int64]
    f2_tie: NDArray[np.bool_]
    pile_exhausted: NDArray[np.bool_]
    rounds: NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.rounds)


class PlayedGame(NamedTuple):
    """One game played by the kernel: its actions in notation (`deal` between rounds) and its
    final state."""

    actions: list[str]
    final: FastState


def whole_numbers(values: ArrayLike, name: str) -> list[int] | NDArray[np.integer[Any]]:
    """`values` as a flat run of integers (an integer array as it is, anything else as Python
    ints), or ValueError naming `name`. Never through numpy's own guess: it casts 1.5 to 1,
    and reads [2**63, 1] as floats, losing the seed."""
    if isinstance(values, np.ndarray) and np.issubdtype(values.dtype, np.integer):
        if values.ndim > 1:
            raise ValueError(f"{name}: a flat sequence of whole numbers, not shape {values.shape}")
        return np.atleast_1d(values)
    array = np.atleast_1d(np.asarray(values, dtype=object))
    if array.ndim != 1:
        raise ValueError(f"{name}: a flat sequence of whole numbers, not shape {array.shape}")
    items = array.tolist()
    if not all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in items):
        raise ValueError(f"{name}: whole numbers, not {items[:3]!r}")
    return [int(v) for v in items]


def policy_codes(policies: Sequence[int], players: int) -> NDArray[np.int64]:
    """One policy code per seat, checked (ValueError naming the policies otherwise)."""
    check_players(players)  # M2: the compiled tables hold 2 to 6 seats
    codes = np.asarray(whole_numbers(policies, "policies"), np.int64)
    if codes.shape != (players,):
        raise ValueError(f"policies: one per seat, {players} in all, not {len(codes)}")
    if not np.isin(codes, list(POLICIES.values())).all():
        raise ValueError(f"policies: codes are {POLICIES}, not {codes.tolist()}")
    return codes


def as_seeds(seeds: ArrayLike) -> NDArray[np.uint64]:
    """Seeds as a 1-D uint64 array (whole numbers 0 ≤ seed < 2**64; ValueError otherwise)."""
    values = whole_numbers(seeds, "seeds")
    if len(values) and not (isinstance(values, np.ndarray) and values.dtype == np.uint64):
        low, high = int(min(values)), int(max(values))
        if low < 0 or high >= 2**64:
            raise ValueError(
                f"seeds: whole numbers 0 ≤ seed < 2**64, not {low if low < 0 else high}"
            )
    return np.asarray(values, np.uint64)


def first_player_codes(
    rules: Rules, first_players: ArrayLike | None, count: int
) -> NDArray[np.int64]:
    """F3: each game's chosen first seat; F1: none (-1, turn 1's reveals decide)."""
    n = rules.players
    if rules.first == "lowest":
        if first_players is not None:
            raise IllegalAction(
                "F1", "with the lowest-card rule the first player is found by turn 1's reveals"
            )
        return np.full(count, NONE, np.int64)
    given = np.asarray(
        whole_numbers(NONE if first_players is None else first_players, "first_players"), np.int64
    )
    if len(given) not in (1, count):
        raise ValueError(
            f"first_players: one for all games or one per game ({count}), not {len(given)}"
        )
    chosen = np.broadcast_to(given, count)
    if not ((chosen >= 0) & (chosen < n)).all():
        raise IllegalAction("F3", f"the chosen variant needs a first player 0–{n - 1} at set-up")
    return chosen.astype(np.int64)


def _results(n: int, count: int) -> tuple[NDArray[np.int64], ...]:
    """Empty result columns: scores, cards_left, totals, places (count, n); flags (count, 4)."""
    return (*(np.zeros((count, n), np.int64) for _ in range(4)), np.zeros((count, 4), np.int64))


def _game_results(columns: tuple[NDArray[np.int64], ...]) -> GameResults:
    scores, cards_left, totals, places, flags = columns
    return GameResults(
        scores, cards_left, totals, places,
        first_player=flags[:, 0].copy(), f2_tie=flags[:, 1] == 1,
        pile_exhausted=flags[:, 2] == 1, rounds=flags[:, 3].copy(),
    )  # fmt: skip


def template_row(rules: Rules) -> NDArray[np.int64]:
    row = np.zeros(WIDTH, np.int64)
    row[[PLAYERS, VARIANT, THRESHOLD]] = rules_columns(rules)
    return row


def play_games(
    rules: Rules,
    game_seeds: ArrayLike,
    policies: Sequence[int],
    first_players: ArrayLike | None = None,
) -> GameResults:
    """Whole games (a match to rules.threshold when it is set), one per seed.

    first_players: with rules.first "chosen" (F3), each game's first seat (one for all, or
    one per game); with "lowest" (F1) it must be None (IllegalAction F1 / F3 otherwise).
    """
    seeds = as_seeds(game_seeds)
    codes = policy_codes(policies, rules.players)
    firsts = first_player_codes(rules, first_players, len(seeds))
    columns = _results(rules.players, len(seeds))
    play_many(template_row(rules), seeds, firsts, codes, PUSH_COUNT, *columns)
    return _game_results(columns)


def _rows(
    states: Sequence[FastState | GameState],
) -> tuple[Rules, NDArray[np.int64], NDArray[np.uint64]]:
    """Every state as a row (one conversion for all), all under the same rules."""
    if not states:
        raise ValueError("rollouts: no states to play on")
    rules = states[0].rules
    if any(state.rules != rules for state in states):
        raise ValueError(f"rollouts: every state must have the rules of the first ({rules})")
    rows, grids = state_rows(rules, states)
    return rules, rows, grids


def rollouts(
    states: Sequence[FastState | GameState],
    policies: Sequence[int],
    seeds: ArrayLike,
    until: str = "round",
) -> GameResults:
    """Play each full state on with the policies; states[k] draws from seeds[k].

    Seat s draws from Draws(seat_seed(seeds[k], s)); a later round of a match is dealt as
    seeded_deals(seeds[k], n, …) deals it after the state's round. until="round" stops when
    the state's round is scored (a state between rounds, phase next, is already there);
    "game" plays to the end of the game or match. f2_tie and pile_exhausted report only what
    happened during the rollout; first_player is round 1's start (F4 undone), -1 if unknown.
    """
    if until not in UNTIL:
        raise ValueError(f"until: 'round' or 'game', not {until!r}")
    seed_array = as_seeds(seeds)
    if len(seed_array) != len(states):
        raise ValueError(
            f"rollouts: one seed per state, {len(states)} in all, not {len(seed_array)}"
        )
    rules, rows, grids = _rows(states)
    codes = policy_codes(policies, rules.players)
    columns = _results(rules.players, len(states))
    roll_many(rows, grids, seed_array, codes, PUSH_COUNT, until == "round", *columns)
    return _game_results(columns)


def _actions(rules: Rules, log: NDArray[np.int64]) -> list[str]:
    """The logged (kind, seat, argument) rows in action notation; a new round is `deal`."""
    names = PUSH_NAMES[rules_columns(rules)[1]]
    actions = []
    for kind, seat, argument in log.tolist():
        if kind == REVEAL_ACTION:
            actions.append(str(Reveal(seat, argument)))
        elif kind == TAKE_ACTION:
            actions.append(str(Take(seat, argument)))
        elif kind == DEAL_ACTION:
            actions.append("deal")
        else:
            hole, index = divmod(argument, 16)
            actions.append(f"push {seat} {names[hole][index]}")
    return actions


def _logged_play(
    rules: Rules,
    row: NDArray[np.int64],
    grids: NDArray[np.uint64],
    streams: NDArray[np.uint64],
    codes: NDArray[np.int64],
    until_round: bool,
) -> PlayedGame:
    """play_on with an action log, rerun with a longer log if a long match overflowed it."""
    per_round = TURNS_PER_ROUND * 3 * rules.players + 1
    capacity = 8 * per_round
    while True:
        run_row, run_grids, run_streams = row.copy(), grids.copy(), streams.copy()
        log = np.zeros((capacity, 3), np.int64)
        deck = np.empty(DECK_SIZE, np.int64)
        logged = play_on(run_grids, run_row, run_streams, codes, PUSH_COUNT, deck, log, until_round)
        if logged <= capacity:
            return PlayedGame(_actions(rules, log[:logged]), row_state(rules, run_row, run_grids))
        capacity = logged


def played_game(
    rules: Rules, seed: int, policies: Sequence[int], first_player: int | None = None
) -> PlayedGame:
    """One whole game of play_games, with its actions and its final state."""
    codes = policy_codes(policies, rules.players)
    first = int(first_player_codes(rules, first_player, 1)[0])
    row, grids = template_row(rules), np.zeros(rules.players, np.uint64)
    streams = np.zeros(1 + MAX_SEATS, np.uint64)
    game_seed = as_seeds(seed)[0]  # ValueError for a seed outside 0 ≤ seed < 2**64
    start_game(grids, row, streams, np.empty(DECK_SIZE, np.int64), game_seed, first)
    return _logged_play(rules, row, grids, streams, codes, False)


def game_actions(
    rules: Rules, seed: int, policies: Sequence[int], first_player: int | None = None
) -> list[str]:
    """One game's actions in notation (round 1's deal is the seed's; `deal` starts a new round)."""
    return played_game(rules, seed, policies, first_player).actions


def rollout(
    state: FastState | GameState, policies: Sequence[int], seed: int, until: str = "round"
) -> PlayedGame:
    """One rollout of `rollouts`, with its actions and its final state."""
    if until not in UNTIL:
        raise ValueError(f"until: 'round' or 'game', not {until!r}")
    rules, rows, grids = _rows([state])
    codes = policy_codes(policies, rules.players)
    streams = np.zeros(1 + MAX_SEATS, np.uint64)
    seed_streams(streams, as_seeds(seed)[0], rules.players, int(rows[0, ROUND]))
    return _logged_play(rules, rows[0], grids[0], streams, codes, until == "round")


class WorldValues(NamedTuple):
    """values[a][w]: the seat's utility of action a in sampled world w; state: the draws'
    generator state after the sampling (where that many Draws.below calls leave it)."""

    values: list[list[float]]
    state: int


def world_values(
    template: FastState,
    slots: Sequence[tuple[int, int]],
    unseen: Sequence[int],
    pickers: Sequence[int],
    generator_state: int,
    samples: int,
    actions: Sequence[Action],
    seat: int,
    policy: int,
    utility: str,
) -> WorldValues:
    """PIMC's evaluation (dekal.kernel._worlds): `samples` worlds drawn from the generator
    state as dekal.bots.sampler.sample_fast draws them, then one rollout seed each; every
    action (all the seat's) played in every world and the round played out by `policy` for
    every seat; the seat's `utility` (a name of dekal.bots._players.utility) of each outcome.

    template: any full state of the view (its hidden slots and pile are overwritten); slots:
    the hidden (seat, cell)s in order; unseen: the unseen cards, sorted; pickers: the seats
    whose pick is made and hidden, in seat order.
    """
    rules = template.rules
    rows, grids = state_rows(rules, [template])
    row = rows[0]
    row[PICKS : PICKS + rules.players] = NONE
    names = PUSH_NAMES[rules_columns(rules)[1]][int(row[HOLE + seat])] if actions else ()
    kinds, arguments = [], []
    for action in actions:
        if isinstance(action, Reveal):
            kinds.append(REVEAL_KIND)
            arguments.append(action.cell)
        elif isinstance(action, Take):
            kinds.append(TAKE_KIND)
            arguments.append(action.card)
        else:
            assert isinstance(action, PushMove)
            kinds.append(PUSH_KIND)
            arguments.append(names.index(str(action.push)))
    stream = np.array([generator_state], np.uint64)
    values = np.zeros((len(actions), samples), np.float64)
    _world_values(
        row, grids[0], np.asarray(unseen, np.int64),
        np.array([s for s, _ in slots], np.int64), np.array([c for _, c in slots], np.int64),
        np.asarray(pickers, np.int64), stream, np.array(kinds, np.int64),
        np.array(arguments, np.int64), seat, np.full(rules.players, policy, np.int64),
        UTILITY_CODES[utility], STEPS, PUSH_COUNT, values,
    )  # fmt: skip
    return WorldValues(values.tolist(), int(stream[0]))
