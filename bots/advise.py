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

One module per idea: this one answers questions (`advise`, the entry point, and
`run_questions` for many at once); the rest is the wing dekal.bots._advice: the positions one
may ask about are `reachable`'s, a question made ready (its checks, its cost, its batches)
`question`'s, the worlds of an exact answer `enumeration`'s, the playing out of worlds
`playout`'s, and the figures and the answer `figures`'. Their public names are importable from
here too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dekal.bots._advice.enumeration import enumerated_worlds, slot_fillings, world_of
from dekal.bots._advice.figures import (
    CONFIDENCE,
    Z95,
    Advice,
    Figures,
    Interval,
    Outcome,
    best_first,
    exact_mean_range,
    figures_of,
    mean_interval,
    outcome_of,
)
from dekal.bots._advice.playout import (
    BATCH,
    PLAYOUTS,
    WorldBatch,
    evaluate_batch,
    play_out,
    table_outcome,
)
from dekal.bots._advice.question import (
    DETERMINISTIC_MODELS,
    MAX_SEARCH_WORK,
    SEARCH_BATCH,
    SECONDS_PER_UNIT,
    AdviceError,
    Question,
    decision_of,
    decisions_left,
    ends_the_round,
    prepare,
    search_work,
)
from dekal.bots._advice.reachable import check_full_position, check_reachable, read_question
from dekal.bots.observation import Observation
from dekal.simulation.runner import run_chunks

__all__ = [
    "BATCH",
    "CONFIDENCE",
    "DETERMINISTIC_MODELS",
    "MAX_SAMPLES",
    "MAX_SEARCH_WORK",
    "MIN_SAMPLES",
    "PLAYOUTS",
    "SEARCH_BATCH",
    "SECONDS_PER_UNIT",
    "Z95",
    "Advice",
    "AdviceError",
    "Figures",
    "Interval",
    "Outcome",
    "Progress",
    "Question",
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
    "prepare",
    "read_question",
    "run_questions",
    "search_work",
    "slot_fillings",
    "table_outcome",
    "world_of",
]

MIN_SAMPLES, MAX_SAMPLES = 30, 100_000
"""--samples bounds: the normal interval of a mean needs some thirty draws to be honest; the
upper bound keeps one answer within minutes on one core."""

Progress = Callable[[int, int], None]
"""progress(done, total): worlds played so far, of how many; called as batches are done."""


def run_questions(
    questions: Sequence[Question],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> list[Advice]:
    """Every question's answer, all their batches run together (one cluster for all, when
    one is asked for). `progress(done, total)` counts worlds: first (0, total), then as
    batches are done."""
    batches = [part for question in questions for part in question.batches]
    tell = None if progress is None else _counting_worlds(progress, batches)
    rows = run_chunks(evaluate_batch, batches, workers=workers, scheduler=scheduler, progress=tell)
    answers, first = [], 0
    for question in questions:
        answers.append(question.answer(rows[first : first + len(question.batches)]))
        first += len(question.batches)
    return answers


def _counting_worlds(progress: Progress, batches: Sequence[WorldBatch]) -> Progress:
    """run_chunks counts batches done; the user is told worlds, starting with (0, total)."""
    worlds_after = [0]
    for part in batches:
        worlds_after.append(worlds_after[-1] + part.count)
    total = worlds_after[-1]
    progress(0, total)
    # on a cluster batches finish in any order: the count is of worlds, near enough
    return lambda done, _: progress(worlds_after[min(done, len(batches))], total)


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
    batch: int | None = None,
    playout: str = "auto",
    started: Callable[[Question], None] | None = None,
) -> Advice:
    """Every legal action of `seat` in `view`, best first (see the module docstring).

    `progress(done, total)` counts the worlds played; `started(question)` is called once the
    question is checked, before any world is played (the command line says there what a
    search will cost).

    AdviceError (field "seat") for a seat not at the table or with nothing to decide;
    NotationError (field "bot") for an unknown model or a search past MAX_SEARCH_WORK;
    IllegalAction naming the rule for a
    view no game reaches (check_reachable)."""
    question = prepare(
        view, seat, samples=samples, seed=seed, model=model, batch=batch, playout=playout
    )
    if started is not None:
        started(question)
    [answer] = run_questions([question], workers=workers, scheduler=scheduler, progress=progress)
    return answer
