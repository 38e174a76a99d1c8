"""A game annotated: at each decision of a record, what the seat played against what advise
would have played, and how much it cost (docs/analysis.md, "Annotating a game").

The record is replayed on the reference engine (B1: an illegal record is refused, naming the
rule). At every decision of the chosen seats (a reveal T1, a take T3, a push T4) the seat's
public view before it decided (observation_of: what the seat could know, M3) is the question
`dekal advise` would be asked, with the same samples, seed and model: the figures of a
decision are exactly those `dekal advise VIEW --seat S` prints, exact where advise is exact.
All decisions' worlds run together (dekal.bots.advise.run_questions), so a cluster is started
once for the whole record.

For each decision:

* `loss` = the played move's expected score − the best move's (S2 points at the end of the
  round, lower is better, so a loss is ≥ 0); the played move's `versus_best` interval says
  whether the loss is real (its low end above 0) or within the noise of the sampled worlds;
* a mark, as chess annotators write them, by expected points lost (MARKS): `??` a blunder
  (≥ 3 points), `?` a mistake (≥ 1), `?!` an inaccuracy (≥ 0.5); none otherwise. A sampled
  answer marks a move only when its loss is real at 95% (the interval of the difference
  lies above 0): a mark is never the luck of the sample. An exact answer's loss is exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from dekal.bots._advice.figures import Advice, Figures, Interval
from dekal.bots._advice.question import MAX_SEARCH_WORK, Question
from dekal.bots.advise import Progress, prepare, run_questions
from dekal.bots.bot import make_bot
from dekal.bots.observation import Observation, observation_of
from dekal_ref.actions import Action, PushMove, Reveal, Take
from dekal_ref.errors import NotationError
from dekal_ref.record import GameRecord, Move, iter_replay
from dekal_ref.state import GameState

MARKS = ((3.0, "??"), (1.0, "?"), (0.5, "?!"))
"""(least expected points lost, mark), the worst first: a blunder loses 3 points or more, a
mistake 1, an inaccuracy half a point. A round scores some 20 to 40 points for a good
player (docs/bots.md): a point is a real difference, three points often decide the round."""


def mark_of(loss: float, loss_interval: Interval, exact: bool) -> str:
    """The mark of a decision that lost `loss` expected points (see MARKS); a sampled loss
    whose interval reaches 0 earns none (the worlds cannot tell the moves apart)."""
    if not exact and loss_interval[0] <= 0:
        return ""
    return next((mark for least, mark in MARKS if loss >= least), "")


@dataclass(frozen=True)
class Decision:
    """One decision of the record, annotated.

    `step` is the action's number in the record's playing order (GameRecord.steps, from 1; a
    new round's deal counts as a step), `before` and `after` the full positions around the
    move played (for pictures, drawn as public views), `view` what the seat could see."""

    step: int
    before: GameState
    after: GameState
    view: Observation
    played: Action
    advice: Advice

    @property
    def seat(self) -> int:
        return self.advice.seat

    @property
    def played_figures(self) -> Figures:
        return next(f for f in self.advice.actions if f.action == self.played)

    @property
    def best_figures(self) -> Figures:
        return self.advice.actions[0]

    @property
    def loss(self) -> float:
        """Expected points lost by the played move against the best (≥ 0)."""
        return max(0.0, self.played_figures.expected_score - self.best_figures.expected_score)

    @property
    def mark(self) -> str:
        return mark_of(self.loss, self.played_figures.versus_best, self.advice.exact)

    def to_json(self) -> dict[str, object]:
        played, best = self.played_figures, self.best_figures
        return {
            "step": self.step,
            "seat": self.seat,
            "phase": self.advice.phase,
            "played": str(self.played),
            "best": str(best.action),
            "expected_played": round(played.expected_score, 4),
            "expected_best": round(best.expected_score, 4),
            "loss": round(self.loss, 4),
            "ci95": {
                "played": _rounded(played.ci95),
                "best": _rounded(best.ci95),
                "loss": _rounded(played.versus_best),
            },
            "exact": self.advice.exact,
            "mark": self.mark,
        }


def _rounded(interval: Interval) -> list[float]:
    return [round(interval[0], 4), round(interval[1], 4)]


@dataclass(frozen=True)
class SeatSummary:
    """A seat's decisions in short: how many, the mean expected loss, and how many marks."""

    seat: int
    decisions: int
    mean_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "mean_loss": round(self.mean_loss, 4),
            "mistakes": self.mistakes,
            "blunders": self.blunders,
        }


@dataclass(frozen=True)
class Annotation:
    """Every annotated decision in playing order, and each chosen seat's summary."""

    seed: int
    samples: int
    model: str
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]

    def summaries(self) -> list[SeatSummary]:
        return [summary_of(seat, self.decisions) for seat in self.seats]

    def to_json(self, record: str) -> dict[str, object]:
        return {
            "record": record,
            "seed": self.seed,
            "samples": self.samples,
            "model": self.model,
            "decisions": [decision.to_json() for decision in self.decisions],
            "seats": [summary.to_json() for summary in self.summaries()],
        }


def summary_of(seat: int, decisions: Iterable[Decision]) -> SeatSummary:
    mine = [decision for decision in decisions if decision.seat == seat]
    marks = [decision.mark for decision in mine]
    mean = math.fsum(decision.loss for decision in mine) / len(mine) if mine else 0.0
    return SeatSummary(
        seat, len(mine), mean, marks.count("?!"), marks.count("?"), marks.count("??")
    )


Point = tuple[int, GameState, Move, GameState]
"""A decision of a record: (step, state before, action, state after)."""


def decision_points(record: GameRecord, seats: Sequence[int]) -> list[Point]:
    """Every reveal, take and push of `seats`, replayed on the reference engine (ReplayError
    naming the rule for an illegal record)."""
    found: list[Point] = []
    steps = iter_replay(record)
    before = next(steps).state  # the set-up of round 1
    for number, step in enumerate(steps, start=1):
        action = step.action
        if isinstance(action, (Reveal, Take, PushMove)) and action.seat in seats:
            found.append((number, before, action, step.state))
        before = step.state
    return found


def annotate(
    record: GameRecord,
    seats: Sequence[int] | None = None,
    *,
    samples: int = 1000,
    seed: int = 0,
    model: str = "greedy",
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
    started: Callable[[Sequence[Question]], None] | None = None,
) -> Annotation:
    """Every decision of `seats` (default: all) in `record`, annotated (module docstring).

    NotationError (field "seat") for a seat not at the table, (field "bot") for an unknown
    model or a search past MAX_SEARCH_WORK over the whole record; ReplayError (an
    IllegalAction naming the rule) for a record the rules refuse. `progress(done, total)`
    counts worlds over all decisions; `started(questions)` is called before any is played."""
    model = make_bot(model).name  # an unknown model is refused here, the canonical spec kept
    players = record.rules.players
    chosen = tuple(range(players)) if seats is None else tuple(sorted(set(seats)))
    for seat in chosen:
        if not 0 <= seat < players:
            raise NotationError(
                "seat", f"seat {seat} is not at the table: the record has {players} seats"
                f" (0-{players - 1})",
            )  # fmt: skip
    points = decision_points(record, chosen)
    views = [observation_of(before) for _, before, _, _ in points]
    questions = [
        prepare(view, action.seat, samples=samples, seed=seed, model=model)
        for view, (_, _, action, _) in zip(views, points, strict=True)
    ]
    work = sum(question.work for question in questions)
    if work > MAX_SEARCH_WORK:
        raise NotationError(
            "bot", f"{model} searching at every later decision of {len(questions)} decisions"
            f" is {work:,} units of work: at most {MAX_SEARCH_WORK:,}; give fewer --samples,"
            " fewer --seat or a smaller search",
        )  # fmt: skip
    if started is not None:
        started(questions)
    answers = run_questions(questions, workers=workers, scheduler=scheduler, progress=progress)
    decisions = tuple(
        Decision(step, before, after, view, action, answer)
        for (step, before, action, after), view, answer in zip(points, views, answers, strict=True)
    )
    return Annotation(seed, samples, model, chosen, decisions)
