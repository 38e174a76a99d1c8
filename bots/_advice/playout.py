"""Playing worlds out: each action of a question in each world of a batch, to the round's end.

A WorldBatch is the unit of work a worker gets: worlds first..first+count-1 of one question,
each drawn from its own seed (or given, in an exact answer). Every action meets the same
world and the same draws (common random numbers), and the rest of the round is played by the
model for every seat: compiled (dekal.kernel) for the policies of docs/contracts.md, any other
bot at the table, one decision at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dekal import bits
from dekal.actions import apply as fast_apply
from dekal.bots._advice.figures import Outcome, outcome_of
from dekal.bots._players.rollout import POLICIES as ROLLOUT_POLICIES
from dekal.bots._players.rollout import round_outcomes
from dekal.bots.bot import Bot, make_bot
from dekal.bots.observation import Observation, observation_of
from dekal.bots.sampler import sample_fast
from dekal.bots.table import seat_to_act
from dekal.draws import Draws, game_seed, seat_seed
from dekal.extras import available
from dekal.state import FastState
from dekal_ref.actions import Action
from dekal_ref.state import Phase

BATCH = 100
"""Worlds per batch: small enough for a smooth progress bar and even work among workers,
large enough for the compiled rollouts to run in bulk."""
PLAYOUTS = ("auto", "python", "table")
"""How a round is played out: auto (compiled for random and greedy), python (the same
policies in dekal.bots._players.rollout), table (the bots themselves, one decision at a time)."""


def table_outcome(state: FastState, bots: Sequence[Bot], seed: int, seat: int) -> Outcome:
    """The table loop to the end of the round, any bots: each seat decides from its own
    observation with its own draws, `Draws(seat_seed(seed, seat))`."""
    draws = [Draws(seat_seed(seed, s)) for s in range(state.rules.players)]
    while state.phase not in (Phase.NEXT_ROUND, Phase.OVER):
        who = seat_to_act(state)  # the table loop's order (docs/contracts.md)
        state = fast_apply(state, bots[who].act(observation_of(state), who, draws[who]))
    scores = [bits.score(word) for word in state.grids]
    return outcome_of([p for p, _ in scores], [r for _, r in scores], seat)


def play_out(
    states: Sequence[FastState], seeds: Sequence[int], model: str, seat: int, playout: str
) -> list[Outcome]:
    """Each state played to the end of its round by `model` for every seat, state k with the
    draws of seeds[k]. The two policies of docs/contracts.md run compiled (dekal.kernel,
    unless playout="python": then dekal.bots._players.rollout's Python loop); any other bot
    at the table."""
    if model in ROLLOUT_POLICIES and playout != "table":
        if playout == "python" or not available("numba"):  # no `fast` extra: the same games
            played = round_outcomes(states, model, seeds, compiled=False)
            return [outcome_of(o.points, o.remaining, seat) for o in played]
        from dekal import kernel  # numba: imported only when a rollout needs it

        policy = kernel.POLICIES[model]
        results = kernel.rollouts(states, [policy] * states[0].rules.players, seeds)
        scores, left = results.scores.tolist(), results.cards_left.tolist()
        return [outcome_of(p, r, seat) for p, r in zip(scores, left, strict=True)]
    bots = [make_bot(model) for _ in range(states[0].rules.players)]
    return [table_outcome(state, bots, s, seat) for state, s in zip(states, seeds, strict=True)]


@dataclass(frozen=True)
class WorldBatch:
    """Worlds first..first+count-1 of one question. Sampled worlds are drawn here from their
    own seeds; the worlds of an exact answer are given."""

    view: Observation
    seat: int
    model: str
    actions: tuple[Action, ...]
    seed: int
    first: int
    count: int
    playout: str = "auto"
    given: tuple[FastState, ...] = ()

    def worlds(self) -> list[tuple[FastState, int]]:
        """Each world with the seed of its draws: world k belongs to `game_seed(seed, k)`."""
        seeds = [game_seed(self.seed, k) for k in range(self.first, self.first + self.count)]
        if self.given:
            return list(zip(self.given, seeds, strict=True))
        return [(sample_fast(self.view, Draws(s)), s) for s in seeds]


def evaluate_batch(batch: WorldBatch) -> list[list[Outcome]]:
    """outcomes[world][action]: each action played in each world of the batch, then the rest
    of the round by the model; every action meets the same world and the same draws."""
    worlds = batch.worlds()
    states = [fast_apply(world, action) for world, _ in worlds for action in batch.actions]
    seeds = [seed for _, seed in worlds for _ in batch.actions]
    outcomes = play_out(states, seeds, batch.model, batch.seat, batch.playout)
    width = len(batch.actions)
    return [outcomes[k : k + width] for k in range(0, len(outcomes), width)]
