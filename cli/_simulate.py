"""`dekal simulate`: many seeded games between bots, and their statistics with 95% intervals.

The games are played by dekal.simulation (chunks of seeded games, on one core or a Dask
cluster), counted in integers and summarized once (dekal.simulation.stats), so the same
seed gives the same report, byte for byte, on any number of workers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from dekal.bots.work import MAX_WORK
from dekal.cli._common import (
    Scheduler,
    Workers,
    err,
    fail,
    fail_with,
    out,
    output_file,
    print_json,
    text_of_at_most,
    whole_number,
)
from dekal.cli._rates import duration, rate
from dekal.cli._written import Quiet, wrote
from dekal.extras import needed
from dekal_ref.errors import NotationError
from dekal_ref.notation import parse_first_rule, parse_variant
from dekal_ref.reading import SEED_MAX, shown

if TYPE_CHECKING:
    from dekal.simulation.games import Setup
    from dekal.simulation.stats import Estimate, Summary

MAX_GAMES = 100_000_000
"""The most games one run plays (a hundred million: hours on a laptop, minutes on a cluster)."""
MAX_BOTS_CHARS = 1_000
LEAST_PLAYERS, MOST_PLAYERS = 2, 6  # M2

SIMULATE_HELP = f"""Play many seeded games between bots: who wins, with 95% CIs.

\b
    dekal simulate --players 4 --games 10000 --seed 1
    dekal simulate --players 2 --games 5000 --bots greedy,random --seed 7 --json
    dekal simulate --players 3 --games 3000 --first chosen --match 100 --plot run.svg
    dekal simulate --players 2 --games 200000 --workers 2 --seed 1
    dekal simulate --players 2 --games 200000 --scheduler tcp://10.0.0.5:8786 --seed 1

Per seat and per bot: the mean final score (a match's total with --match), its
distribution (quartiles and histogram) and the win rate (shared victories count as wins, S3,
S4). For the game: how often the first player won, how often the victory was shared, how
often turn 1 tied for the lowest card (an F2 draw), how often F2's short pile decided, and
rounds per game. Every rate, mean and median has its 95% confidence interval.

--bots takes one bot for every seat or one per seat, comma separated: random and greedy
are compiled (dekal.kernel); the other bots of dekal.bots (pimc, ismcts, with options such as
pimc:samples=50) play through the Python table loop, much slower. --first chosen gives game i
to seat i mod players first (the seats take turns), with no F2 draw.

Game i is played from game_seed(SEED, i): the same seed gives the same JSON, byte for byte,
with --workers 1 (this process), --workers N (a local cluster of N processes started for the
run) or --scheduler tcp://HOST:PORT (a running Dask cluster whose workers have dekal
installed; see docs/simulate.md). At most {MAX_GAMES:,} games, and at most {MAX_WORK:,}
units of planned work (dekal.bots.work: a compiled game is one unit a round; a 2-player
round of pimc, about 62,000): a larger run is refused before any game starts, naming --games.

--json prints {{"games", "players", "seed", "seats": [{{"seat", "bot", "mean_score", "ci95",
"win_rate", "win_rate_ci95", "distribution"}}], "bots": [...], "first_player_win_rate",
"shared_rate", "f2_draw_rate", "pile_exhausted_rate" (each with its _ci95), "rounds"}}.
--plot FILE.svg or FILE.png draws the score histograms and the win rates with error bars.

Exit codes: 0 done; 2 bad input (players, games, an unknown bot, a scheduler that cannot be
reached within 10 s); 130 interrupted (the local cluster is closed first).
"""


def split_bots(text: str) -> tuple[str, ...]:
    """Bot specs, comma separated; a piece `name=value` with no bot name is one more option of
    the bot before it: `pimc:samples=40,rollout=random,greedy` is two bots."""
    specs: list[str] = []
    for piece in text.split(","):
        piece = piece.strip()
        if specs and ":" in specs[-1] and "=" in piece and ":" not in piece:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return tuple(specs)


def read_bots(text: str, players: int) -> tuple[str, ...]:
    """--bots: one spec for every seat, or exactly one per seat (comma separated)."""
    specs = split_bots(text)
    if any(not spec for spec in specs):
        fail(f"{shown(text)}: an empty bot name", field="--bots")
    if len(specs) == 1:
        return specs * players
    if len(specs) > MOST_PLAYERS:
        fail(
            f"{len(specs)} bots: Dékal is played by {LEAST_PLAYERS} to {MOST_PLAYERS} (M2)",
            rule="M2",
            field="--bots",
        )
    if len(specs) != players:
        fail(
            f"{len(specs)} bots for {players} players: name one bot (it plays every seat)"
            f" or {players}, one per seat in seat order",
            field="--bots",
        )
    return specs


def check_bots(specs: tuple[str, ...]) -> None:
    """Every bot exists, its options written in ASCII digits and within the search limits
    (dekal.cli._bot_specs)."""
    from dekal.cli._bot_specs import checked_bot

    for spec in dict.fromkeys(specs):
        try:
            checked_bot(spec)
        except NotationError as error:
            fail(error.message, kind="notation", field="--bots")


def check_planned_work(specs: tuple[str, ...], games: int, match: int | None, table: bool) -> None:
    """The run's planned work under the one cap (dekal.bots.work), before any game starts."""
    from dekal.bots.work import TooMuchWork, check_work, simulation_work

    bots = ",".join(dict.fromkeys(specs))
    try:
        check_work(
            simulation_work(specs, games, match, table), "--games", f"{games:,} games of {bots}"
        )
    except TooMuchWork as error:
        fail(error.message, field=error.field)


def plot_file(value: object) -> Path:
    """--plot: a .svg or .png file to write."""
    path = output_file(value)
    if path.suffix.lower() not in (".svg", ".png"):
        raise typer.BadParameter(f"{shown(str(value))}: a plot is a .svg or .png file")
    return path


@contextmanager
def games_bar(games: int) -> Iterator[Callable[[int], None]]:
    """A progress bar of games on standard error, drawn only on a terminal (elsewhere it
    would leave an empty line behind); yields the function that moves it to `done` games."""
    if not err.is_terminal:
        yield lambda done: None
        return
    with Progress(
        TextColumn("simulate"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task("simulate", total=games)
        yield lambda done: progress.update(task, completed=done)


def simulate(
    players: Annotated[
        int,
        typer.Option(
            metavar="P",
            help="Players, 2-6 (M2).",
            parser=whole_number(LEAST_PLAYERS, MOST_PLAYERS, "M2"),
        ),
    ] = 2,
    games: Annotated[
        int,
        typer.Option(
            metavar="N",
            help=f"Games to play, 1-{MAX_GAMES}.",
            parser=whole_number(1, MAX_GAMES),
        ),
    ] = 1000,
    bots: Annotated[
        str,
        typer.Option(
            metavar="BOT[,BOT...]",
            help="One bot for all seats, or one per seat: random, greedy, pimc, ismcts,"
            " cmd:PROGRAM.",
            parser=text_of_at_most(MAX_BOTS_CHARS),
        ),
    ] = "random",
    variant: Annotated[
        str, typer.Option(metavar="PUSH", help="slide (P1, default) or eject (P2).")
    ] = "slide",
    first: Annotated[
        str,
        typer.Option(
            metavar="RULE", help="lowest (F1-F2, default) or chosen (F3: seat i mod P in game i)."
        ),
    ] = "lowest",
    match: Annotated[
        int | None,
        typer.Option(
            metavar="THRESHOLD",
            help="Play matches to this total (S4), 1-10000; default one round.",
            parser=whole_number(1, 10_000),
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            metavar="S", help="The run's seed, 0 ≤ S < 2^64.", parser=whole_number(0, SEED_MAX)
        ),
    ] = 0,
    workers: Workers = 1,
    scheduler: Scheduler = None,
    table: Annotated[
        bool,
        typer.Option(
            "--table",
            help="Play every game through the Python table loop (a cross-check of the kernel).",
        ),
    ] = False,
    plot: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE", help="Draw the run into FILE.svg or FILE.png.", parser=plot_file
        ),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    quiet: Quiet = False,
) -> None:
    from dekal.simulation.games import Setup
    from dekal.simulation.games import simulate as run_games
    from dekal.simulation.plots import PLOTS
    from dekal.simulation.runner import ClusterUnavailable
    from dekal.simulation.stats import summarize
    from dekal_ref.state import Rules

    if scheduler is not None and workers != 1:
        fail(
            "give --workers N (a local cluster) or --scheduler ADDRESS, not both",
            field="--scheduler",
        )
    try:
        push = parse_variant(variant.strip().lower(), "--variant")
        starts = parse_first_rule(first, "--first")
        rules = Rules(players, push=push, first=starts, threshold=match)
    except NotationError as error:
        fail_with(error)
    specs = read_bots(bots, players)
    check_bots(specs)
    check_planned_work(specs, games, match, table)
    setup = Setup(rules, specs, seed, table)
    if plot is not None:  # matplotlib (the `sim` extra) before the games, not after them
        with needed(PLOTS):
            import matplotlib  # noqa: F401
    began = time.perf_counter()
    try:
        with games_bar(games) as advance:
            counted = run_games(
                setup,
                games,
                workers=workers,
                scheduler=scheduler,
                progress=lambda done, total: advance(done),
            )
    except ClusterUnavailable as error:
        fail(str(error), kind="input", field="--scheduler" if scheduler else "--workers")
    seconds = time.perf_counter() - began
    summary = summarize(counted, specs)
    if plot is not None:
        write_plot_file(summary, plot, setup, games)
        wrote(plot, quiet)
    if json_output:
        print_json(report_json(summary, setup, games))
    else:
        print_report(summary, setup, games, seconds, workers, scheduler)


def write_plot_file(summary: Summary, path: Path, setup: Setup, games: int) -> None:
    from dekal.simulation.plots import plot_title, write_plot

    rules = setup.rules
    title = plot_title(games, rules.players, rules.push, rules.first, setup.seed, rules.threshold)
    try:
        write_plot(summary, path, title, match=rules.threshold is not None)
    except OSError as error:  # checked before the run; the disk can still refuse
        why = getattr(error, "why", None) or error.strerror  # dekal._atomic.NotWritten
        fail(f"{path}: cannot write: {why}", kind="input", field="--plot")


def report_json(summary: Summary, setup: Setup, games: int) -> dict[str, Any]:
    """The --json report: the run, then dekal.simulation.stats.summary_json (no timing, no
    workers: the same seed prints the same bytes wherever it ran)."""
    from dekal.simulation.stats import summary_json

    rules = setup.rules
    run: dict[str, Any] = {
        "games": games,
        "players": rules.players,
        "seed": setup.seed,
        "variant": rules.push,
        "first": rules.first,
    }
    if rules.threshold is not None:
        run["match"] = rules.threshold
    return run | summary_json(summary)


def _pct(estimate: Estimate) -> str:
    return f"{100 * estimate.value:5.1f}% [{100 * estimate.low:.1f}, {100 * estimate.high:.1f}]"


def _mean(estimate: Estimate) -> str:
    return f"{estimate.value:6.2f} [{estimate.low:.2f}, {estimate.high:.2f}]"


def print_report(
    summary: Summary,
    setup: Setup,
    games: int,
    seconds: float,
    workers: int,
    scheduler: str | None,
) -> None:
    from dekal.simulation.stats import quantile

    rules = setup.rules
    kind = f"matches to {rules.threshold}" if rules.threshold else "games"
    where = scheduler or (f"{workers} workers" if workers > 1 else "1 process")
    out.print(
        Text(
            f"{games} {kind}, {rules.players} players, {rules.push}, first {rules.first}, "
            f"seed {setup.seed}: {duration(seconds)}, {rate(games, seconds, 'games')} ({where})"
        )
    )
    score = "total" if rules.threshold else "score"
    header = f"mean {score} [95% CI]"
    wide = max(9, *(len(bot) for bot in setup.bots))  # bot specs are printed whole
    out.print(
        Text(f"\n  seat  {'bot':<{wide}s}  {header:<24s}  median (q1-q3)   win rate [95% CI]")
    )
    for seat in summary.seats:
        spread = (
            f"{quantile(seat.scores, 0.5):3d} ({quantile(seat.scores, 0.25)}-"
            f"{quantile(seat.scores, 0.75)})"
        )
        out.print(
            Text(
                f"  {seat.seat:4d}  {seat.bot:<{wide}s}  {_mean(seat.score):<24s}  {spread:<15s}  "
                f"{_pct(seat.win_rate)}"
            )
        )
    if len(summary.bots) > 1:
        columns = "seats   mean per seat [95% CI]    win rate per seat"
        out.print(Text(f"\n  {'bot':<{wide}s}  {columns}"))
        for bot in summary.bots:
            seats = ",".join(map(str, bot.seats))
            figures = f"{_mean(bot.score):<24s}  {_pct(bot.win_rate)}"
            out.print(Text(f"  {bot.bot:<{wide}s}  {seats:<6s}  {figures}"))
    out.print(Text(""))
    for label, estimate in (
        ("first player wins", summary.first_player_win_rate),
        ("shared victory", summary.shared_rate),
        ("F2 draw (tie on turn 1)", summary.f2_draw_rate),
        ("F2 pile exhausted", summary.pile_exhausted_rate),
    ):
        out.print(Text(f"  {label:<24s} {_pct(estimate)}"))
    out.print(Text(f"  {'rounds per game':<24s} {_mean(summary.rounds)}"))


def register(app: typer.Typer) -> None:
    app.command("simulate", help=SIMULATE_HELP)(simulate)
