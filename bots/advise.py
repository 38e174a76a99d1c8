"""Advice for one seat: each legal action's expected score and chance of winning the round.

Given a public view (what every player may see, M3) and a seat that has a decision to make
(a reveal T1, a take T3 or a push T4/P1/P2), `advise` scores every legal action of that seat
the same way:

1. worlds: full positions consistent with the public view, drawn uniformly by the sampler
   (dekal.bots.sampler); or, when at most `samples` worlds can end the round differently
   and play after the action is certain in each (the model draws nothing, or nobody
   decides any more), every one of them with its exact probability (`enumerated_worlds`);
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

One module per idea: this one asks the question (`advise`, the entry point); the worlds of an
exact answer are dekal.bots.enumeration's, the positions one may ask about
dekal.bots.question's, the playing out of worlds dekal.bots.playout's, and the figures
dekal.bots.figures'. Their public names are importable from here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dekal.bots.bot import Bot, make_bot
from dekal.bots.enumeration import enumerated_worlds, slot_fillings, world_of
from dekal.bots.figures import (
    CONFIDENCE,
    Z95,
    Figures,
    Interval,
    Outcome,
    best_first,
    exact_mean_range,
    figures_of,
    mean_interval,
    outcome_of,
)
from dekal.bots.observation import Observation, legal_actions
from dekal.bots.playout import (
    BATCH,
    PLAYOUTS,
    WorldBatch,
    evaluate_batch,
    play_out,
    table_outcome,
)
from dekal.bots.question import check_full_position, check_reachable, read_question
from dekal.simulation.runner import run_chunks
from dekal.state import TURNS_PER_ROUND
from dekal_ref.actions import Action
from dekal_ref.errors import DekalError, NotationError
from dekal_ref.state import Phase

__all__ = [
    "BATCH",
    "CONFIDENCE",
    "DETERMINISTIC_MODELS",
    "MAX_SAMPLES",
    "MAX_SEARCH_WORK",
    "MIN_SAMPLES",
    "PLAYOUTS",
    "Z95",
    "Advice",
    "AdviceError",
    "Figures",
    "Interval",
    "Outcome",
    "Progress",
    "WorldBatch",
    "advise",
    "best_first",
    "check_full_position",
    "check_reachable",
    "decision_of",
    "decisions_left",
    "ends_the_round",
    "enumerated_worlds",
    "evaluate_batch",
    "exact_mean_range",
    "figures_of",
    "mean_interval",
    "outcome_of",
    "play_out",
    "read_question",
    "search_work",
    "slot_fillings",
    "table_outcome",
    "world_of",
]

MIN_SAMPLES, MAX_SAMPLES = 30, 100_000
"""--samples bounds: the normal interval of a mean needs some thirty draws to be honest; the
upper bound keeps one answer within minutes on one core."""
MAX_SEARCH_WORK = 300_000_000
"""With a searching model (pimc, ismcts) every decision of the played-out round runs a search:
an answer may cost at most this much work, worlds x actions x decisions left in the round x
the search's work per decision (search_work), at most half an hour on one core (measured:
pimc about 7 microseconds a unit, ismcts about 8)."""
DETERMINISTIC_MODELS = frozenset({"greedy"})
"""Models that make no draws: under them, a world's outcome is one number, not a sample."""


class AdviceError(DekalError):
    """A question advise cannot answer: a seat not at the table, or one with nothing to
    decide. `field` names what is wrong (the seat)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


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
            "model": self.model,  # issue 10 names the key: the bot that plays every later move
            "exact": self.exact,
            "seed": self.seed,
            "actions": [
                {
                    "action": str(f.action),
                    "expected_score": round(f.expected_score, 4),
                    "ci95": [round(f.ci95[0], 4), round(f.ci95[1], 4)],
                    "p_win": round(f.p_win, 4),
                    "versus_best": [round(f.versus_best[0], 4), round(f.versus_best[1], 4)],
                }
                for f in self.actions
            ],
            "best": str(self.best),
        }


Progress = Callable[[int, int], None]
"""progress(done, total): called as chunks of worlds are finished."""


# --- the question -------------------------------------------------------------------------


def decision_of(view: Observation, seat: int) -> str:
    """The seat's decision in this view: "reveal" (T1), "take" (T3) or "push" (T4).

    AdviceError (field "seat") when the seat is not at the table or has nothing to decide."""
    if not 0 <= seat < view.players:
        raise AdviceError(
            "seat", f"seat {seat} is not at the table: seats are 0 to {view.players - 1} (M4)"
        )
    why = f"seat {seat} has nothing to decide"
    if view.phase is Phase.OVER:
        raise AdviceError("seat", f"{why}: the game is over (T5, S4)")
    if view.phase is Phase.NEXT_ROUND:
        raise AdviceError("seat", f"{why}: the round is scored, the next needs a deal (M5)")
    if view.phase is Phase.REVEAL:
        if view.picked[seat]:
            raise AdviceError("seat", f"{why}: it has picked this turn; the others pick (T1)")
        return "reveal"
    if view.to_act != seat:
        verb = "take" if view.phase is Phase.TAKE else "push"
        raise AdviceError("seat", f"{why}: seat {view.to_act} must {verb} now (T3, T4)")
    return "take" if view.phase is Phase.TAKE else "push"


def decisions_left(view: Observation) -> int:
    """How many decisions the round has left after this one (T1, T3, T4: each turn every
    seat reveals, takes and pushes): a bound on the searches a played-out round runs."""
    n = view.players
    this_turn = {
        Phase.REVEAL: view.picked.count(False) + 2 * n,
        Phase.TAKE: 2 * len(view.centre),
        Phase.PUSH: 1 + 2 * len(view.centre),
    }.get(view.phase, 0)
    return max(0, this_turn - 1 + 3 * n * (TURNS_PER_ROUND - view.turn))


def search_work(view: Observation, actions: int, worlds: int, bot: Bot) -> int:
    """The work of an answer whose model searches at every later decision, in units of about
    one compiled playout: pimc plays each of at most 16 legal actions in each sample, ismcts
    runs a tree descent and a playout per iteration (some sixteen times a playout's cost).
    The compiled policies (random, greedy) search nothing: 0."""
    per_decision = 16 * (getattr(bot, "samples", 0) + getattr(bot, "iterations", 0))
    return worlds * actions * decisions_left(view) * per_decision


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
    playout: str = "auto",
) -> Advice:
    """Every legal action of `seat` in `view`, best first (see the module docstring).

    AdviceError (field "seat") for a seat not at the table or with nothing to decide;
    NotationError (field "bot") for an unknown model or a search past MAX_SEARCH_WORK;
    IllegalAction naming the rule for a
    view no game reaches (check_reachable)."""
    check_reachable(view)
    phase = decision_of(view, seat)
    bot = make_bot(model)  # an unknown model is refused here
    model = bot.name  # the canonical spec
    if playout not in PLAYOUTS:
        raise ValueError(f"playout: one of {', '.join(PLAYOUTS)}, not {playout!r}")
    actions = tuple(legal_actions(view, seat))
    work = search_work(view, len(actions), samples, bot)
    if work > MAX_SEARCH_WORK:
        raise NotationError(
            "bot", f"{model} searching at each of {decisions_left(view)} later decisions of"
            f" {samples:,} worlds x {len(actions)} actions is {work:,} units of work: at most"
            f" {MAX_SEARCH_WORK:,}; give fewer --samples or a smaller search",
        )  # fmt: skip
    certain_play = model in DETERMINISTIC_MODELS or ends_the_round(view, phase)
    enumerated = enumerated_worlds(view, samples) if certain_play else None
    if enumerated is not None:
        states = [world for world, _ in enumerated]
        batches = [
            WorldBatch(view, seat, model, actions, seed, k, len(part), playout, tuple(part))
            for k in range(0, len(states), batch)
            for part in [states[k : k + batch]]
        ]
    else:
        batches = [
            WorldBatch(view, seat, model, actions, seed, k, min(batch, samples - k), playout)
            for k in range(0, samples, batch)
        ]
    per_world = [
        row
        for rows in run_chunks(
            evaluate_batch, batches, workers=workers, scheduler=scheduler, progress=progress
        )
        for row in rows
    ]
    weights = None if enumerated is None else [weight for _, weight in enumerated]
    return Advice(
        seat=seat,
        phase=phase,
        samples=len(per_world),
        model=model,
        exact=enumerated is not None,
        seed=seed,
        actions=tuple(figures_of(actions, per_world, weights)),
    )
