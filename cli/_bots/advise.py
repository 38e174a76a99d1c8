"""`dekal advise`: each legal action of one seat, with its expected score and P(win).

The computation is dekal.bots.advise; this module reads the command line, asks it, and
prints the answer as a table or one JSON object.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from dekal.bots.advise import (
    MAX_SAMPLES,
    MAX_SEARCH_WORK,
    MIN_SAMPLES,
    Advice,
    AdviceError,
    Question,
    advise,
    decisions_left,
    read_question,
)
from dekal.bots.observation import Observation
from dekal.cli._bot_specs import SEARCH_LIMITS, checked_bot
from dekal.cli._common import (
    DekalCommand,
    Scheduler,
    Workers,
    err,
    fail,
    fail_with,
    out,
    print_json,
    whole_number,
)
from dekal.cli._progress import duration, progress_bar
from dekal.simulation.runner import ClusterUnavailable
from dekal_ref.errors import DekalError, NotationError
from dekal_ref.reading import SEED_MAX
from dekal_ref.state import Phase

ADVISE_HELP = f"""Each legal action of one seat: expected score and P(win).

POSITION is a public view line (a full position is accepted and hidden first: advise never
looks at a face-down card, M3). The seat is the one the position names (take@S, push@S) or,
in a reveal, the only seat still to pick; else give --seat. For every legal action of that
seat (reveal, take or push), advise plays
the action and the rest of the round in many worlds consistent with the view, every seat
(this one too, later on) deciding by the --bot model, and prints the seat's mean score at
the end of this round with a 95% confidence interval, and how often it wins the round (S3;
a shared victory counts as a win). Lowest expected score first. In a match only the current
round is played out: the score is what this round adds to the seat's total.

\b
    dekal advise "slide/lowest/single 1.8 take@1 2 4426/337./????/????|8577/8.37/????/????|2588/2.TT/????/????|91T6/2.36/????/???? -,-,-,- 3569 #34 26 0,0,0,0"
    dekal advise "slide/lowest/single 1.8 reveal 2 4426/337?/????/????|8577/8?37/????/????|2588/2?TT/????/????|91T6/2?36/????/???? -,-,-,- - #34 26 0,0,0,0" --seat 0 --samples 2000 --seed 7
    dekal advise "slide/lowest/single 1.15 take@1 1 TTT2/T338/T917/5.?4|3518/2688/7427/.?21 -,- 5T #68 - 0,0" --json
    dekal advise "slide/lowest/single 1.16 push@0:3 0 T491/8437/8837/555.|1112/TT82/T72T/T62T -,- - #68 - 0,0" --seat 0 --bot random

The same (position, seat, samples, seed, bot) always gives the same answer, whatever
--workers (local processes) or --scheduler (a Dask cluster). Every action is judged on the same worlds (common random numbers). When at most
--samples worlds can end the round differently and play after the action is certain, every world is
enumerated with its probability: the answer says exact, the means are exact, and the
interval is the range of scores the action can end on (zero width: the outcome is certain).

The last column is the interval of (this action's score minus the best action's), world by
world: on the same worlds it is narrower than either score's own interval, so it says
whether the best is really better.

--json prints {{"seat", "phase", "samples", "model", "exact", "seed", "actions": [{{"action",
"expected_score", "ci95": [lo, hi], "p_win", "versus_best": [lo, hi]}}, ...], "best"}}.

--samples is {MIN_SAMPLES}-{MAX_SAMPLES:,} worlds (default 1,000). A searching --bot runs a search
at every later decision of every world: pimc:samples=N and ismcts:iterations=N take N up to
{SEARCH_LIMITS["samples"]:,} and {SEARCH_LIMITS["iterations"]:,}, and an answer costs at most {MAX_SEARCH_WORK:,} units
of work (worlds x actions x decisions left x 16 x the search's N; at most half an hour):
past it, advise refuses before it starts; below it, advise says on standard error what the
search will cost, roughly, before it starts, and draws a bar with the time left.
docs/analysis.md says what the numbers mean and what they do not (a model of the other players, not a proof).

Exit codes: 0 answered; 2 a malformed position, a seat not at the table or with nothing to
decide (not its turn, already picked, the round is scored), a bad option.
"""  # noqa: E501 (an example is one line, however long, so it can be copied)


Samples = Annotated[
    int,
    typer.Option(
        metavar="N",
        help=f"Worlds to sample, {MIN_SAMPLES}-{MAX_SAMPLES}.",
        parser=whole_number(MIN_SAMPLES, MAX_SAMPLES),
    ),
]
"""--samples of advise and annotate: worlds per decision."""

Seed = Annotated[
    int,
    typer.Option(
        metavar="X", help="Seed of the worlds, 0 ≤ X < 2^64.", parser=whole_number(0, SEED_MAX)
    ),
]
"""--seed of advise and annotate: world k of a decision is drawn from game_seed(X, k)."""

Model = Annotated[
    str,
    typer.Option(
        metavar="B",
        help="Model of every seat's later play: greedy, random (compiled, fast), or"
        " pimc, ismcts with their options (pimc:samples=10; far slower).",
    ),
]
"""--bot of advise and annotate: the model every seat plays after the decision."""


def checked_model(bot: str) -> None:
    """--bot, refused before any work starts (named as the option)."""
    try:
        checked_bot(bot)
    except NotationError as error:
        fail(error.message, field="--bot")


def say_cost(questions: list[Question], workers: int) -> None:
    """Before a searching model starts: what it will cost, on standard error (the compiled
    models answer in seconds: nothing to say)."""
    work = sum(question.work for question in questions)
    if not work:
        return
    seconds = sum(question.seconds for question in questions) / workers
    first = questions[0]
    cores = f"{workers} cores" if workers > 1 else "one core"
    if len(questions) == 1:
        what = (
            f"{first.worlds:,} worlds x {len(first.actions)} actions x"
            f" {decisions_left(first.view)} later decisions, each a search"
        )
    else:
        what = f"{len(questions)} decisions, each a search at every later decision of its worlds"
    err.print(
        f"{first.model}: {what}: {work:,} units of work, {duration(seconds)} on {cores}"
        " (a rough guess)"
    )


def read_view(text: str) -> Observation:
    try:
        return read_question(text)
    except DekalError as error:
        fail_with(error)


def advise_command(
    position: Annotated[
        str,
        typer.Argument(metavar="POSITION", help="A public view line, or a full position, quoted."),
    ],
    seat: Annotated[
        int | None,
        typer.Option(
            metavar="S",
            help="The seat to advise (0-5); default: the seat the position names (take@S,"
            " push@S), or the only seat still to pick.",
            parser=whole_number(0, 5),
        ),
    ] = None,
    samples: Samples = 1000,
    seed: Seed = 0,
    bot: Model = "greedy",
    workers: Workers = 1,
    scheduler: Scheduler = None,
    json_output: Annotated[
        bool, typer.Option("--json", help='One JSON object; an error is {"error": {...}}.')
    ] = False,
) -> None:
    checked_model(bot)  # options first: before any work starts
    view = read_view(position)
    seat = seat_of(view) if seat is None else seat
    if seat >= view.rules.players:
        fail(
            f"seat {seat} is not at the table: the position has {view.rules.players} seats"
            f" (0-{view.rules.players - 1})",
            field="--seat",
        )
    with progress_bar("advise") as report:
        try:
            answer = advise(
                view,
                seat,
                samples=samples,
                seed=seed,
                model=bot,
                workers=workers,
                scheduler=scheduler,
                progress=report,
                started=lambda question: say_cost([question], workers),
            )
        except NotationError as error:
            if error.field == "bot":
                fail(error.message, field="--bot")
            fail_with(error)
        except AdviceError as error:  # about the seat asked for: named as the option
            fail(error.message, kind="input", field="--seat")
        except DekalError as error:
            fail_with(error)
        except ClusterUnavailable as error:  # the runner names what did not answer
            where = "--workers" if scheduler is None else "--scheduler"
            fail(str(error), kind="input", field=where)
    if json_output:
        print_json(answer.to_json())
    else:
        print_table(answer)


def seat_of(view: Observation) -> int:
    """The seat a position without --seat asks about: the one it names (take@S, push@S), or
    in a reveal the only seat still to pick (T1); else --seat is needed."""
    if view.phase is Phase.REVEAL:
        waiting = [seat for seat, made in enumerate(view.picked) if not made]
        if len(waiting) == 1:
            return waiting[0]
        fail(
            f"in a reveal seats {', '.join(map(str, waiting))} are still to pick (T1):"
            " give --seat S",
            field="--seat",
        )
    if view.to_act is None:
        fail(
            f"nobody decides in phase {view.phase.value} (T5, S4): the position names no seat",
            field="--seat",
        )
    return view.to_act


def print_table(answer: Advice) -> None:
    worlds = (
        f"exact over {answer.samples:,} world{'s' if answer.samples != 1 else ''}"
        if answer.exact
        else f"{answer.samples:,} sampled worlds, seed {answer.seed}"
    )
    out.print(f"seat {answer.seat} to {answer.phase}: {worlds}, model {answer.model}")
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("action")
    table.add_column("expected score", justify="right")
    table.add_column("range" if answer.exact else "95% CI", justify="center")
    table.add_column("P(win)", justify="right")
    table.add_column("minus the best", justify="center")
    for rank, figures in enumerate(answer.actions):
        low, high = figures.ci95
        versus = "" if rank == 0 else "[{:+.2f}, {:+.2f}]".format(*figures.versus_best)
        table.add_row(
            str(figures.action),
            f"{figures.expected_score:.2f}",
            f"[{low:.2f}, {high:.2f}]",
            f"{100 * figures.p_win:.1f}%",
            versus,
        )
    with out.capture() as drawn:
        out.print(table)
    for line in drawn.get().splitlines():  # rich pads the last column: no trailing spaces
        out.print(Text(line.rstrip()))
    out.print(f"best: {answer.best}")


def register(app: typer.Typer) -> None:
    app.command("advise", help=ADVISE_HELP, cls=DekalCommand)(advise_command)
