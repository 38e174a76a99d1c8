"""A question to advise, made ready: whose decision it is, what it will cost, its worlds in
batches.

`prepare` checks a question (the position is one some game reaches, dekal.bots._advice.reachable;
the seat has a decision: decision_of; the model is a bot; a search is not past
MAX_SEARCH_WORK), lists the seat's legal actions and cuts its worlds into WorldBatches
(dekal.bots._advice.playout), enumerated with their probabilities when the answer can be exact
(dekal.bots._advice.enumeration). Nothing is played here: dekal.bots.advise runs the batches, and
`Question.answer` turns their outcomes into the Advice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from dekal._arguments import seed as check_seed
from dekal._arguments import whole
from dekal.bots._advice.enumeration import enumerated_worlds
from dekal.bots._advice.figures import Advice, Outcome, figures_of
from dekal.bots._advice.playout import BATCH, PLAYOUTS, WorldBatch
from dekal.bots._advice.reachable import check_reachable
from dekal.bots.bot import Bot, make_bot
from dekal.bots.observation import Observation, legal_actions
from dekal.bots.work import MAX_WORK, advice_work, check_work
from dekal.state import TURNS_PER_ROUND
from dekal_ref.actions import Action
from dekal_ref.errors import DekalError, NotationError
from dekal_ref.state import Phase

MAX_SEARCH_WORK = MAX_WORK
"""With a searching model (pimc, ismcts) every decision of the played-out round runs a search:
an answer may cost at most this much work, worlds x actions x decisions left in the round x
the search's work per decision (search_work), at most half an hour on one core (measured:
pimc about 7 microseconds a unit, ismcts about 8)."""
DETERMINISTIC_MODELS = frozenset({"greedy"})
"""Models that make no draws: under them, a world's outcome is one number, not a sample."""


class AdviceError(DekalError, ValueError):
    """A question advise cannot answer: a seat not at the table, or one with nothing to
    decide. `field` names what is wrong (the seat)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def decision_of(view: Observation, seat: int) -> str:
    """The seat's decision in this view: "reveal" (T1), "take" (T3) or "push" (T4).

    AdviceError (field "seat") when the seat is not at the table or has nothing to decide."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < view.players:
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
    The compiled policies (random, greedy) search nothing: 0 (dekal.bots.work, the one count
    of work the command line and the API share)."""
    return advice_work(bot.name, worlds, actions, decisions_left(view))


def ends_the_round(view: Observation, phase: str) -> bool:
    """The last push of the round (T5): after it nobody decides, whatever the model."""
    return phase == "push" and view.turn == TURNS_PER_ROUND and not view.centre


SEARCH_BATCH = 10
"""Worlds per batch under a searching model, where one world may take seconds: a bar that
moves, a time left that can be estimated, the work spread evenly."""
SECONDS_PER_UNIT = {"pimc": 7e-6, "ismcts": 8e-6}
"""Rough time of one unit of search work (search_work) on one core, as measured for
MAX_SEARCH_WORK: what the cost estimate before a search says."""


@dataclass(frozen=True)
class Question:
    """A question ready to be answered: checked, its actions listed, its worlds cut into
    batches. `weights` are the worlds' probabilities in an exact answer (None: sampled);
    `work` is the search work the answer costs (search_work; 0 for a compiled model)."""

    view: Observation
    seat: int
    phase: str
    model: str
    seed: int
    actions: tuple[Action, ...]
    batches: tuple[WorldBatch, ...]
    weights: tuple[Fraction, ...] | None
    work: int

    @property
    def worlds(self) -> int:
        """How many worlds the answer plays: sampled, or the distinct worlds enumerated."""
        return sum(part.count for part in self.batches)

    @property
    def seconds(self) -> float:
        """A rough time for the search on one core (0 for a compiled model)."""
        return self.work * SECONDS_PER_UNIT.get(self.model.partition(":")[0], 0.0)

    def answer(self, rows: Sequence[Sequence[Sequence[Outcome]]]) -> Advice:
        """The Advice from evaluate_batch's rows, one per batch in order."""
        per_world = [row for batch_rows in rows for row in batch_rows]
        return Advice(
            seat=self.seat,
            phase=self.phase,
            samples=len(per_world),
            model=self.model,
            exact=self.weights is not None,
            seed=self.seed,
            actions=tuple(figures_of(self.actions, per_world, self.weights)),
        )


def prepare(
    view: Observation,
    seat: int,
    *,
    samples: int = 1000,
    seed: int = 0,
    model: str = "greedy",
    batch: int | None = None,
    playout: str = "auto",
) -> Question:
    """The question of `advise`, checked and cut into batches of worlds, nothing played yet
    (same errors as advise). `batch` worlds per batch: by default BATCH, or SEARCH_BATCH
    under a searching model."""
    check_reachable(view)
    check_seed("seed", seed)  # the API's bounds (dekal._arguments): ValueError naming them
    phase = decision_of(view, seat)
    bot = make_bot(model)  # an unknown model is refused here
    model = bot.name  # the canonical spec
    if playout not in PLAYOUTS:
        raise ValueError(f"playout: one of {', '.join(PLAYOUTS)}, not {playout!r}")
    actions = tuple(legal_actions(view, seat))
    whole("samples", samples, 1, MAX_WORK)
    if batch is not None:
        whole("batch", batch, 1, MAX_WORK)
    # each world plays each action out: a playout, one unit of dekal.bots.work, at least
    check_work(samples * len(actions), "samples", f"{samples:,} worlds x {len(actions)} actions")
    work = search_work(view, len(actions), samples, bot)
    if work > MAX_SEARCH_WORK:
        raise NotationError(
            "bot", f"{model} searching at each of {decisions_left(view)} later decisions of"
            f" {samples:,} worlds x {len(actions)} actions is {work:,} units of work: at most"
            f" {MAX_SEARCH_WORK:,}; give fewer --samples or a smaller search",
        )  # fmt: skip
    size = batch or (SEARCH_BATCH if work else BATCH)
    certain_play = model in DETERMINISTIC_MODELS or ends_the_round(view, phase)
    enumerated = enumerated_worlds(view, samples) if certain_play else None
    if enumerated is not None:
        states = [world for world, _ in enumerated]
        batches = [
            WorldBatch(view, seat, model, actions, seed, k, len(part), playout, tuple(part))
            for k in range(0, len(states), size)
            for part in [states[k : k + size]]
        ]
    else:
        batches = [
            WorldBatch(view, seat, model, actions, seed, k, min(size, samples - k), playout)
            for k in range(0, samples, size)
        ]
    weights = None if enumerated is None else tuple(weight for _, weight in enumerated)
    return Question(view, seat, phase, model, seed, actions, tuple(batches), weights, work)
