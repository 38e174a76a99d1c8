"""Advice for one seat: each legal action's expected score and chance of winning the round.

Given a public view (what every player may see, M3) and a seat that has a decision to make
(a reveal T1, a take T3 or a push T4/P1/P2), `advise` scores every legal action of that seat
the same way:

1. worlds: full positions consistent with the public view, drawn uniformly by the sampler
   (dekal.bots.sampler), or, when there are at most `samples` of them, every one of them
   with its exact probability (`exact_worlds`);
2. for each world and each action: play the action, then the rest of the round with every
   seat, the advised one included, deciding by the model bot (`greedy` by default) from its
   own observation and its own draws;
3. the figures: the seat's *score at the end of this round* (S1–S2 points of its grid, what
   the round adds to a match total) averaged over the worlds, a 95% confidence interval of
   that mean, and the probability that the seat *wins this round* (S3: lowest points, then
   fewest cards left; a shared victory counts as a win).

In a match (S4) the advice is about the current round only: the totals, and the rounds
after it, are not played out.

Every action sees the same worlds and the same draws (common random numbers): world k is
sampled from `Draws(game_seed(seed, k))` and seat s then draws from
`Draws(seat_seed(game_seed(seed, k), s))`, so the differences between two actions are not
blurred by different luck, and an answer depends only on (view, seat, samples, seed, model),
never on how the worlds are split among workers.

The figures are estimates under a model of the players, not a proof: see docs/analysis.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

from dekal_ref.actions import Action
from dekal_ref.errors import DekalError
from dekal_ref.ranking import places, round_scores
from dekal_ref.state import GameState, Phase

CONFIDENCE = 0.95
Z95 = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)  # 1.959963…: the normal interval's half-width
MIN_SAMPLES, MAX_SAMPLES = 30, 100_000
"""--samples bounds: the normal interval of a mean needs some thirty draws to be honest; the
upper bound keeps one answer within minutes on one core."""
DETERMINISTIC_MODELS = frozenset({"greedy"})
"""Models that make no draws: under them, a world's outcome is one number, not a sample."""


class AdviceError(DekalError):
    """A question advise cannot answer: a seat not at the table, or one with nothing to
    decide. `field` names what is wrong (the seat)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


# --- outcomes of one played-out round -----------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one world and one action gave the advised seat at the end of the round."""

    points: int  # S2: the seat's score this round
    won: bool  # S3: placed first in this round, shared or not


def round_outcome(state: GameState, seat: int) -> Outcome:
    """S1–S3 of a round whose 16 turns are played: the seat's points and whether it won.

    The round's own ranking (points, then cards left), even in a match, where the places of
    dekal_ref.ranking go by totals (S4)."""
    scores = round_scores(state)
    keys = [(score.points, score.remaining) for score in scores]
    return Outcome(scores[seat].points, places(keys)[seat] == 1)


def round_is_scored(state: GameState) -> bool:
    return state.phase in (Phase.NEXT_ROUND, Phase.OVER)


# --- statistics ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Figures:
    """One action's figures. `ci95` is the 95% confidence interval of the expected score:
    over sampled worlds, mean ± 1.96 standard errors (normal approximation); in an exact
    answer the mean is exact and `ci95` is the range of the scores the action can end on
    (it holds all of the probability, so it has zero width exactly when the outcome is
    certain)."""

    action: Action
    expected_score: float
    ci95: tuple[float, float]
    p_win: float


def sampled_figures(action: Action, outcomes: Sequence[Outcome]) -> Figures:
    """The mean of equally likely sampled outcomes, its normal 95% interval, and P(win)."""
    n = len(outcomes)
    points = [outcome.points for outcome in outcomes]
    mean = math.fsum(points) / n
    variance = math.fsum((x - mean) ** 2 for x in points) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(variance / n)
    wins = sum(outcome.won for outcome in outcomes)
    return Figures(action, mean, (mean - half, mean + half), wins / n)


def exact_figures(action: Action, outcomes: Sequence[tuple[Outcome, Fraction]]) -> Figures:
    """The exact mean and P(win) of weighted outcomes (weights summing to 1), and the range
    of the possible scores as the interval."""
    mean = sum((weight * outcome.points for outcome, weight in outcomes), Fraction(0))
    p_win = sum((weight for outcome, weight in outcomes if outcome.won), Fraction(0))
    possible = [outcome.points for outcome, weight in outcomes if weight > 0]
    return Figures(action, float(mean), (float(min(possible)), float(max(possible))), float(p_win))


def best_first(figures: Sequence[Figures]) -> list[Figures]:
    """Lowest expected score first (the lowest score wins, S3); equal expectations go to the
    higher P(win), then to the legal order."""
    return sorted(figures, key=lambda f: (f.expected_score, -f.p_win))


# --- the answer ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """The answer: every legal action of `seat`, best first.

    `samples` is the number of worlds the figures are over: sampled worlds, or the distinct
    worlds of an exact answer. `exact` is true when every world was enumerated with its
    probability and the play after each action is certain in each world (the model makes
    no draws, or no decision is left)."""

    seat: int
    phase: str
    samples: int
    model: str
    exact: bool
    seed: int
    actions: tuple[Figures, ...]

    @property
    def best(self) -> Action:
        return self.actions[0].action

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "samples": self.samples,
            "model": self.model,
            "exact": self.exact,
            "seed": self.seed,
            "actions": [
                {
                    "action": str(f.action),
                    "expected_score": round(f.expected_score, 4),
                    "ci95": [round(f.ci95[0], 4), round(f.ci95[1], 4)],
                    "p_win": round(f.p_win, 4),
                }
                for f in self.actions
            ],
            "best": str(self.best),
        }


Progress = Callable[[int, int], None]
"""progress(done, total): called as chunks of worlds are finished."""


# --- playing a round out ------------------------------------------------------------------


def next_decider(state: GameState) -> int:
    """The seat the table loop asks next (CONTRACTS.md): in a reveal, the first seat still
    to pick, in seat order; then the seat that must take or push (T3, T4)."""
    if state.phase is Phase.REVEAL:
        return state.picks.index(None)
    assert state.to_act is not None, f"nobody decides in phase {state.phase}"
    return state.to_act


def play_out_round(state: GameState, bots: Sequence[Bot], seed: int) -> GameState:
    """The table loop to the end of the round: each seat decides from its own observation
    with its own draws, `Draws(seat_seed(seed, seat))`."""
    draws = [Draws(seat_seed(seed, seat)) for seat in range(state.players)]
    while not round_is_scored(state):
        seat = next_decider(state)
        state = apply(state, bots[seat].act(observation_of(state), seat, draws[seat]))
    return state


# --- batches of worlds (the unit of work a worker gets) -----------------------------------


@dataclass(frozen=True)
class WorldBatch:
    """Worlds first..first+count-1 of one question. Sampled worlds are drawn from their own
    seeds here; an exact answer's worlds are given."""

    view: Observation
    seat: int
    model: str
    actions: tuple[Action, ...]
    seed: int
    first: int
    count: int
    given: tuple[GameState, ...] = ()

    def worlds(self) -> list[tuple[GameState, int]]:
        """Each world with the seed of its draws: world k is `game_seed(seed, k)`'s."""
        seeds = [game_seed(self.seed, k) for k in range(self.first, self.first + self.count)]
        if self.given:
            return list(zip(self.given, seeds, strict=True))
        return [(sample_world(self.view, Draws(s)), s) for s in seeds]


def evaluate_batch(batch: WorldBatch) -> list[list[Outcome]]:
    """outcomes[world][action]: every action played in every world of the batch, then the
    rest of the round by the model; the same world and draws for every action."""
    bots = [make_bot(batch.model) for _ in range(batch.view.rules.players)]
    return [
        [
            round_outcome(play_out_round(apply(world, action), bots, seed), batch.seat)
            for action in batch.actions
        ]
        for world, seed in batch.worlds()
    ]


# --- the question -------------------------------------------------------------------------

BATCH = 50
"""Worlds per batch: small enough for a smooth progress bar and even work among workers."""


def ends_the_round(view: Observation, phase: str) -> bool:
    """The last push of the round (T5): after it nobody decides, whatever the model."""
    return phase == "push" and view.turn == TURNS_PER_ROUND and not view.centre


def advise(
    view: Observation,
    seat: int,
    *,
    samples: int = 1000,
    seed: int = 0,
    model: str = "greedy",
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
    batch: int = BATCH,
) -> Advice:
    """Every legal action of `seat` in `view`, best first (see the module docstring).

    AdviceError (field "seat") for a seat not at the table or with nothing to decide;
    NotationError (field "bot") for an unknown model."""
    phase = decision_of(view, seat)
    make_bot(model)  # an unknown model is refused before any work
    actions = tuple(legal_actions(view, seat))
    enumerated = exact_worlds(view, samples)
    exact = enumerated is not None and (
        model in DETERMINISTIC_MODELS or ends_the_round(view, phase)
    )
    if exact:
        assert enumerated is not None
        states = [world for world, _ in enumerated]
        batches = [
            WorldBatch(view, seat, model, actions, seed, k, len(part), tuple(part))
            for k in range(0, len(states), batch)
            for part in [states[k : k + batch]]
        ]
    else:
        batches = [
            WorldBatch(view, seat, model, actions, seed, k, min(batch, samples - k))
            for k in range(0, samples, batch)
        ]
    per_world = [row for rows in run(batches, workers, scheduler, progress) for row in rows]
    if exact:
        assert enumerated is not None
        weights = [weight for _, weight in enumerated]
        figures = [
            exact_figures(action, [(row[i], w) for row, w in zip(per_world, weights, strict=True)])
            for i, action in enumerate(actions)
        ]
    else:
        figures = [
            sampled_figures(action, [row[i] for row in per_world])
            for i, action in enumerate(actions)
        ]
    return Advice(
        seat=seat,
        phase=phase,
        samples=len(per_world),
        model=model,
        exact=exact,
        seed=seed,
        actions=tuple(best_first(figures)),
    )


def run(
    batches: Sequence[WorldBatch],
    workers: int,
    scheduler: str | None,
    progress: Progress | None,
) -> list[list[list[Outcome]]]:
    """The batches' outcomes in batch order, on this process or on workers (the same)."""
    from dekal.simulation.runner import run_chunks

    return run_chunks(
        evaluate_batch, batches, workers=workers, scheduler=scheduler, progress=progress
    )
