"""`dekal annotate`: a game record with every decision judged as `dekal advise` judges it.

The computation is dekal.bots.annotate; this module reads the command line and the record,
asks it, and prints the annotation as text, one JSON object, or an HTML page
(dekal.cli._bots.annotate_page).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from dekal.bots._advice.question import MAX_SEARCH_WORK
from dekal.bots.annotate import MARKS, Annotation, Decision, annotate
from dekal.cli._bots.advise import Model, Samples, Seed, checked_model, say_cost
from dekal.cli._common import (
    DekalCommand,
    Scheduler,
    Workers,
    fail,
    fail_with,
    out,
    output_file,
    print_json,
)
from dekal.cli._progress import progress_bar
from dekal.cli._replay import load_record, read_source
from dekal.cli._written import Quiet, write_output, wrote
from dekal.simulation.runner import ClusterUnavailable
from dekal_ref.errors import DekalError, NotationError
from dekal_ref.reading import read_number, shown
from dekal_ref.record import GameRecord, ReplayError

ANNOTATE_HELP = f"""Judge every decision of a game record, as advise would.

RECORD is a record file (text .dkr or JSON, as dekal play saves it), '-' for standard
input, or the name of a record bundled with Dékal Lab (as dekal replay reads it). For every
reveal, take and push of the chosen seats (--seat, default all), annotate asks advise about
the public view the seat had before it decided (what it could know, M3), with the same
--samples, --seed and --bot: the figures of a decision are those `dekal advise VIEW --seat
S` prints, exact where advise is exact. It prints the view, the move played and the best
move with their expected scores at the end of the round (95% intervals; the range when
exact), the expected loss, a mark, and a summary per seat.

\b
    dekal annotate two-players-first-tie --samples 200
    dekal annotate game.dkr --seat 0 --html game.html
    dekal annotate game.dkr --seat 0,2 --samples 2000 --workers 2
    dekal annotate two-players-first-tie --seat 1 --samples 100 --json

Marks, by expected points lost against the best move: ?? a blunder (3 points or more), ? a
mistake (1 or more), ?! an inaccuracy (half a point or more). From sampled worlds a move is
marked only when its loss is real at 95% (the interval of the difference to the best lies
above 0): never the luck of the sample. Step N is the N-th action of the record (a new
round's deal counts as one); dekal replay --svg draws it in step-(N+1).svg.

--json prints {{"record", "seed", "samples", "model", "decisions": [{{"step", "seat", "phase",
"played", "best", "expected_played", "expected_best", "loss", "ci95": {{"played", "best",
"loss"}}, "exact", "mark"}}, ...], "seats": [{{"seat", "decisions", "mean_loss", "mistakes",
"blunders"}}, ...]}}. --html FILE writes one page with each decision drawn.

A searching --bot (pimc, ismcts) runs a search at every later decision of every world of
every decision: the whole record costs at most {MAX_SEARCH_WORK:,} units of work; annotate
says first what it will cost. docs/analysis.md, "Annotating a game", says what the numbers
mean.

Exit codes: 0 annotated; 2 a record that cannot be read or that the rules refuse (naming the
rule), a seat not at the table, a bad option.
"""

MARK_WORDS = {
    "??": ("blunder", "blunders"),
    "?": ("mistake", "mistakes"),
    "?!": ("inaccuracy", "inaccuracies"),
}


def parse_seats(values: list[str] | None) -> list[int] | None:
    """--seat: repeatable, each a seat or a comma list (`--seat 0 --seat 2`, `--seat 0,2`)."""
    if not values:
        return None
    seats: list[int] = []
    for value in values:
        for piece in value.split(","):
            try:
                seats.append(read_number(piece, "seat", most=5))
            except NotationError as error:
                fail(f"{shown(value)}: {error.message} (seats are 0-5)", field="--seat")
    return seats


def read_game(source: str) -> GameRecord:
    try:
        return load_record(read_source(source))
    except DekalError as error:
        fail_with(error)


def annotate_command(
    record: Annotated[
        str,
        typer.Argument(
            metavar="RECORD", help="A record file (text or JSON), - for stdin, or a bundled name."
        ),
    ],
    seat: Annotated[
        list[str] | None,
        typer.Option(
            metavar="S",
            help="A seat to annotate, 0-5; repeat it or give a comma list (default: all).",
        ),
    ] = None,
    samples: Samples = 1000,
    seed: Seed = 0,
    bot: Model = "greedy",
    workers: Workers = 1,
    scheduler: Scheduler = None,
    html: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Write one HTML page with every decision drawn.",
            parser=output_file,
        ),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help='One JSON object; an error is {"error": {...}}.')
    ] = False,
    quiet: Quiet = False,
) -> None:
    checked_model(bot)  # options first: before any work starts
    seats = parse_seats(seat)
    game = read_game(record)
    if seats is not None and max(seats) >= game.rules.players:
        fail(
            f"seat {max(seats)} is not at the table: the record has {game.rules.players} seats"
            f" (0-{game.rules.players - 1})",
            field="--seat",
        )
    with progress_bar("annotate") as report:
        try:
            annotation = annotate(
                game,
                seats,
                samples=samples,
                seed=seed,
                model=bot,
                workers=workers,
                scheduler=scheduler,
                progress=report,
                started=lambda questions: say_cost(list(questions), workers),
            )
        except ReplayError as error:
            fail_with(error, details={"round": error.round, "turn": error.turn})
        except NotationError as error:
            if error.field in ("bot", "seat"):
                fail(error.message, field=f"--{error.field}")
            fail_with(error)
        except DekalError as error:
            fail_with(error)
        except ClusterUnavailable as error:  # the runner names what did not answer
            where = "--workers" if scheduler is None else "--scheduler"
            fail(str(error), kind="input", field=where)
    if html is not None:
        from dekal.cli._bots.annotate_page import annotation_page

        write_output(html, annotation_page(record, annotation), "--html")
        wrote(html, quiet)
    if json_output:
        print_json(annotation.to_json(record))
    else:
        print_annotation(record, annotation)


def worlds_words(annotation: Annotation) -> str:
    return f"{annotation.samples:,} sampled worlds a decision (fewer when exact)"


def print_annotation(record: str, annotation: Annotation) -> None:
    """The annotation as text: two lines a decision, then a summary per seat."""
    out.print(
        f"annotate {record}: {worlds_words(annotation)}, seed {annotation.seed},"
        f" model {annotation.model}"
    )
    for decision in annotation.decisions:
        for line in decision_lines(decision):
            out.print(line)
    out.print(Text("summary", style="bold"))
    for words in summary_lines(annotation):
        out.print(words)


def _figures(expected: float, interval: tuple[float, float]) -> str:
    return f"{expected:.2f} [{interval[0]:.2f}, {interval[1]:.2f}]"


def decision_lines(decision: Decision) -> list[Text]:
    """`12. round 1, turn 2, seat 0 to take (exact): VIEW` then the played and best moves."""
    view = decision.view
    exact = " (exact: the range)" if decision.advice.exact else ""
    head = Text(
        f"{decision.step}. round {view.round}, turn {view.turn}, seat {decision.seat}"
        f" to {decision.advice.phase}{exact}: {view}"
    )
    played, best = decision.played_figures, decision.best_figures
    line = f"   played {played.action}  {_figures(played.expected_score, played.ci95)}"
    if len(decision.advice.actions) == 1:
        return [head, Text(line + "  (the only legal move)")]
    if played.action == best.action:
        return [head, Text(line + "  (the best)")]
    low, high = played.versus_best
    line += (
        f"   best {best.action}  {_figures(best.expected_score, best.ci95)}"
        f"   loss {decision.loss:.2f} [{low:+.2f}, {high:+.2f}]"
    )
    mark = decision.mark
    return [head, Text(line + (f"  {mark}" if mark else ""), style="bold" if mark else "")]


def summary_lines(annotation: Annotation) -> list[str]:
    """A line per seat, then what the marks mean."""
    lines = []
    for summary in annotation.summaries():
        counts = ", ".join(
            f"{count} {MARK_WORDS[mark][count != 1]} ({mark})"
            for count, mark in (
                (summary.inaccuracies, "?!"),
                (summary.mistakes, "?"),
                (summary.blunders, "??"),
            )
        )
        lines.append(
            f"  seat {summary.seat}: {summary.decisions} decisions, mean loss"
            f" {summary.mean_loss:.2f} points; {counts}"
        )
    least = ", ".join(f"{mark} {least:g}" for least, mark in MARKS)
    lines.append(
        f"marks: expected points lost at least {least}; from sampled worlds only when the"
        " loss is real at 95%"
    )
    return lines


def register(app: typer.Typer) -> None:
    app.command("annotate", help=ANNOTATE_HELP, cls=DekalCommand)(annotate_command)
