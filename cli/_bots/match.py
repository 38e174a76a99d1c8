"""`dekal match`: bots against each other on paired deals, Elo with a 95% interval, an SPRT
for two bots, Bradley–Terry ratings for three to six (dekal.simulation._match)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dekal.cli._common import (
    DekalCommand,
    Scheduler,
    Workers,
    err,
    fail,
    fail_with,
    out,
    output_directory,
    output_file,
    print_json,
    read_text_file,
    text_of_at_most,
    whole_number,
)
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import json_line, read_json
from dekal_ref.notation import parse_first_rule, parse_variant
from dekal_ref.reading import SEED_MAX, shown
from dekal_ref.words import plural

if TYPE_CHECKING:
    from dekal.simulation._match import DealResult, MatchResult, Tally
    from dekal.simulation._sprt import Sprt

MAX_GAMES = 1_000_000
MAX_BOTS_CHARS = 1_000
MOST_THINK_MS = 3_600_000
MAX_SAVED_CHARS = 64 * 1024 * 1024
"""The longest saved match read back (a million deals of six bots is about 60 MB)."""

MATCH_HELP = """Play bots against each other on paired deals: Elo, SPRT, ratings.

\b
    dekal match --bots greedy,random --games 4 --seed 1
    dekal match --bots pimc:samples=10,greedy --games 2000 --sprt elo0=0,elo1=50 --seed 1
    dekal match --bots greedy,random,greedy --games 30 --json
    dekal match --bots "cmd:python -m dekal.bots.serve greedy,greedy" --games 20
    dekal match --bots pimc:samples=10,greedy --games 400 --workers 2 --seed 1

--bots names one bot a seat, 2 to 6 (M2), comma separated: our bots (random, greedy, pimc,
ismcts, with options: pimc:samples=40) or cmd:COMMAND, a program speaking the bot protocol
(spec/bot-protocol.md). Every deal is played once per seat rotation (bot b at seat b + r in
rotation r), so each bot plays each seat of each deal and the luck of the deal cancels;
--games is the most games, a whole number of deals (rounded up). Each seat's own random draws
come from a seed that says nothing about the deal.

Two bots: the first bot's score per game (a win 1, a shared first place 1/2) over the deals'
pairs of games (a pentanomial: 0, 1/2, 1, 3/2 or 2 points a pair), its logistic Elo over the
second with a 95% interval from the variance between pairs, and the standard error the same
games would have had unpaired. --sprt elo0=E0,elo1=E1 runs the pentanomial GSPRT of H1 (Elo
E1) against H0 (Elo E0), checked after every deal: the match stops as soon as the
log-likelihood ratio leaves its bounds, log(beta/(1-alpha)) and log((1-beta)/alpha). Three to
six bots: Bradley–Terry ratings (Elo scale, centred on their mean) from every game's
placings, with 95% bootstrap intervals over the deals, and each bot's mean place.

--workers N plays the deals on a local Dask cluster of N processes started for the match,
--scheduler tcp://HOST:PORT on a running one (docs/simulate.md). A deal (its games, one per
rotation) is the unit of work: the workers play tasks of 4 consecutive deals, each task with
bots and bot programs of its own (ended with it), and the deals are counted in deal order
whoever finished first. So the match is the same, game for game and figure for figure, on
any number of workers; an SPRT stops at the same deal, and the deals the workers had
already played past it (at most 8 a worker) are discarded.

--resume FILE keeps the match in FILE (JSON, rewritten whole after every deal); run the
same command again and it goes on from the deals FILE holds (a match of other bots, seed or
variant is refused): a deal's games depend on its number and the setup alone.

--records DIR writes each game's record there as it is counted, deal-DDDDDD-rotation-R.dkr
(text .dkr, for dekal replay and dekal annotate; DIR is made if missing, a file of the same
name replaced whole). Its Event tag gives the match's seed, the deal and the rotation: the
bot at seat s is bot (s - R) mod k of --bots. The bytes are the same whether the bots play
here, as programs (cmd:) or on workers. A game a bot forfeited has no record (it ended at
an answer the rules refuse).

A bot program that forfeits a game (an illegal or late answer, garbage, a crash:
spec/bot-protocol.md, section 5) is placed last alone in it, every other seat first; the
report counts forfeits. --think-ms is a program's time for one decision.

--json prints {"bots", "players", "seed", "variant", "first", "threshold", "deals", "games",
"forfeits": [{"bot", "kind", "games"}], "records": {"folder", "written"} (with --records),
and for two bots "pentanomial", "results" (the first bot's losses, draws, wins), "score",
"score_se", "unpaired_se", "elo": {"elo", "low", "high"}, "sprt": {"elo0", "elo1", "alpha",
"beta", "llr", "lower", "upper", "verdict"} (with --sprt); for three to six "ratings":
[{"bot", "elo", "low", "high", "mean_place"}]}. An infinite Elo bound (a score of 0 or 1
within the interval) is null.

Exit codes: 0 done (whatever the SPRT decided); 2 bad input (a scheduler that cannot be
reached within 10 s too); 3 a bot program that cannot be started or played; 130
interrupted (every bot program and the local cluster ended first).
"""


def read_sprt(text: str) -> tuple[float, float]:
    """--sprt: `elo0=E0,elo1=E1` (numbers; E0 < E1)."""
    values: dict[str, float] = {}
    for item in text.split(","):
        name, equals, value = item.strip().partition("=")
        if not equals or name not in ("elo0", "elo1") or name in values:
            fail(f"{shown(text)}: write elo0=E0,elo1=E1", field="--sprt")
        try:
            number = float(value)
        except ValueError:
            fail(f"{shown(value)}: {name} is a number of Elo", field="--sprt")
        if not math.isfinite(number) or abs(number) > 2000:
            fail(f"{name}={shown(value)}: an Elo difference within ±2000", field="--sprt")
        values[name] = number
    if set(values) != {"elo0", "elo1"} or not values["elo0"] < values["elo1"]:
        fail(f"{shown(text)}: give elo0 and elo1, elo0 < elo1", field="--sprt")
    return values["elo0"], values["elo1"]


def error_rate(value: object) -> float:
    """--alpha, --beta: a probability between 0 and 0.5."""
    try:
        number = float(str(value))
    except ValueError:
        raise typer.BadParameter(f"{shown(str(value))}: a number between 0 and 0.5") from None
    if not 0 < number < 0.5:
        raise typer.BadParameter(f"{shown(str(value))}: a number between 0 and 0.5")
    return number


@contextmanager
def deals_bar(deals: int, sprt: Sprt | None) -> Iterator[Callable[[Tally, float | None], None]]:
    """A progress bar of deals on a terminal's standard error, with the LLR and its bounds
    under --sprt (none elsewhere: it would leave an empty line behind)."""
    if not err.is_terminal:
        yield lambda tally, llr: None
        return
    bounds = "" if sprt is None else f" [{sprt.bounds[0]:.2f}, {sprt.bounds[1]:.2f}]"
    with Progress(
        TextColumn("match"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("deals {task.fields[status]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task("match", total=deals, status="")

        def advance(tally: Tally, llr: float | None) -> None:
            places = " ".join(f"{place:.2f}" for place in tally.mean_places())
            status = f"mean places {places}"
            if llr is not None:
                status += f"  LLR {llr:+.2f}{bounds}"
            progress.update(task, completed=len(tally.deals), status=status)

        yield advance


def match(
    bots: Annotated[
        str,
        typer.Option(
            metavar="BOT,BOT[,...]",
            help="One bot a seat, 2-6: random, greedy, pimc, ismcts, or cmd:COMMAND.",
            parser=text_of_at_most(MAX_BOTS_CHARS),
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            metavar="N",
            help=f"Most games, 1-{MAX_GAMES} (whole deals: rounded up).",
            parser=whole_number(1, MAX_GAMES),
        ),
    ] = 1000,
    sprt_text: Annotated[
        str | None,
        typer.Option(
            "--sprt",
            metavar="elo0=E0,elo1=E1",
            help="Stop when the SPRT decides (two bots).",
            parser=text_of_at_most(100),
        ),
    ] = None,
    alpha: Annotated[
        float,
        typer.Option(metavar="P", help="SPRT: P(accept H1 | H0), default 0.05.", parser=error_rate),
    ] = 0.05,
    beta: Annotated[
        float,
        typer.Option(metavar="P", help="SPRT: P(accept H0 | H1), default 0.05.", parser=error_rate),
    ] = 0.05,
    variant: Annotated[
        str, typer.Option(metavar="PUSH", help="slide (P1, default) or eject (P2).")
    ] = "slide",
    first: Annotated[
        str, typer.Option(metavar="RULE", help="lowest (F1-F2, default) or chosen (F3: seat 0).")
    ] = "lowest",
    threshold: Annotated[
        int | None,
        typer.Option(
            "--match",
            metavar="THRESHOLD",
            help="Play matches to this total (S4), 1-10000; default one round a game.",
            parser=whole_number(1, 10_000),
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            metavar="S", help="The match's seed, 0 ≤ S < 2^64.", parser=whole_number(0, SEED_MAX)
        ),
    ] = 0,
    think_ms: Annotated[
        int,
        typer.Option(
            metavar="MS",
            help="A bot program's time for one decision, in ms (default 10000).",
            parser=whole_number(1, MOST_THINK_MS),
        ),
    ] = 10_000,
    resume: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Keep the match in FILE after every deal; resume from it if it exists.",
            parser=output_file,
        ),
    ] = None,
    records: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="Write each game's .dkr record into DIR (made if missing).",
            parser=output_directory,
        ),
    ] = None,
    workers: Workers = 1,
    scheduler: Scheduler = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    from dekal.cli._simulate import check_bots, split_bots
    from dekal.simulation._match import MatchSetup, read_saved_match, run_match, saved_match
    from dekal.simulation._sprt import Sprt
    from dekal.simulation.runner import ClusterUnavailable

    if scheduler is not None and workers != 1:
        fail(
            "give --workers N (a local cluster) or --scheduler ADDRESS, not both",
            field="--scheduler",
        )

    specs = split_bots(bots)
    if any(not spec for spec in specs):
        fail(f"{shown(bots)}: an empty bot name", field="--bots")
    if not 2 <= len(specs) <= 6:
        fail(f"{plural(len(specs), 'bot')}: one a seat, 2 to 6 (M2)", rule="M2", field="--bots")
    check_bots(specs)
    sprt = None
    if sprt_text is not None:
        if len(specs) != 2:
            fail("--sprt compares two bots: name two in --bots", field="--sprt")
        elo0, elo1 = read_sprt(sprt_text)
        sprt = Sprt(elo0, elo1, alpha, beta)
    try:
        push, starts = parse_variant(variant, "--variant"), parse_first_rule(first, "--first")
    except NotationError as error:
        fail_with(error)
    setup = MatchSetup(specs, seed, push, starts, threshold, think_ms)
    deals = math.ceil(games / len(specs))
    played = []
    if resume is not None and resume.exists():
        try:
            saved = read_json(read_text_file(resume, "--resume", MAX_SAVED_CHARS), "--resume")
            played = read_saved_match(saved, setup)[:deals]
        except (NotationError, ValueError) as error:
            fail(f"{shown(str(resume))}: {error}", kind="input", field="--resume")
    written = [0]
    if records is not None:
        try:
            records.mkdir(exist_ok=True)  # its parent was checked (output_directory)
        except OSError as error:
            fail(f"{shown(str(records))}: {error.strerror}", kind="input", field="--records")

    def write(result: DealResult) -> None:
        assert records is not None
        written[0] += write_records(records, result)

    with deals_bar(deals, sprt) as advance:

        def step(tally: Tally, llr: float | None) -> None:
            if resume is not None:
                keep(resume, saved_match(setup, tally))
            advance(tally, llr)

        try:
            result = run_match(
                setup, deals, sprt, step, played, workers=workers, scheduler=scheduler,
                record=None if records is None else write,
            )  # fmt: skip
        except ClusterUnavailable as error:
            fail(str(error), kind="input", field="--scheduler" if scheduler else "--workers")
    report = match_json(result)
    if records is not None:
        report["records"] = {"folder": str(records), "written": written[0]}
    if json_output:
        print_json(report)
    else:
        print_report(report)


def keep(path: Path, saved: dict[str, object]) -> None:
    """Write the saved match whole or not at all (a Ctrl-C mid-write keeps the last one)."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        temporary.write_text(json_line(saved) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        fail(f"{shown(str(path))}: {error.strerror}", kind="input", field="--resume")


def write_records(folder: Path, result: DealResult) -> int:
    """Write a deal's records, each whole or not at all (dekal._atomic); how many."""
    from dekal._atomic import NotWritten, write_atomic
    from dekal.simulation._match import record_name

    count = 0
    for rotation, text in enumerate(result.records):
        if text is None:
            continue  # a forfeited game: no record
        try:
            write_atomic(folder / record_name(result.deal, rotation), text)
        except NotWritten as error:
            fail(str(error), kind="input", field="--records")
        count += 1
    return count


def _finite(value: float) -> float | None:
    return round(value, 2) if math.isfinite(value) else None


def match_json(result: MatchResult) -> dict[str, Any]:
    """The --json report (the command's help lists its keys)."""
    from dekal.simulation._placings import ratings
    from dekal.simulation._sprt import elo_estimate

    setup, tally = result.setup, result.tally
    report: dict[str, Any] = {
        "bots": list(setup.bots),
        "players": len(setup.bots),
        "seed": setup.seed,
        "variant": setup.push,
        "first": setup.first,
        "threshold": setup.threshold,
        "deals": len(tally.deals),
        "games": len(tally.deals) * len(setup.bots),
        "forfeits": [
            {"bot": setup.bots[bot], "kind": kind, "games": count}
            for (bot, kind), count in sorted(tally.forfeits.items())
        ],
    }
    if len(setup.bots) == 2:
        estimate = elo_estimate(tally.pentanomial, tally.games)
        report |= {
            "pentanomial": list(tally.pentanomial),
            "results": list(tally.games),
            "score": round(estimate.score, 6),
            "score_se": round(estimate.score_se, 6),
            "unpaired_se": round(estimate.unpaired_se, 6),
            "elo": {
                "elo": _finite(estimate.elo),
                "low": _finite(estimate.low),
                "high": _finite(estimate.high),
            },
        }
        if result.sprt is not None:
            lower, upper = result.sprt.bounds
            report["sprt"] = {
                "elo0": result.sprt.elo0,
                "elo1": result.sprt.elo1,
                "alpha": result.sprt.alpha,
                "beta": result.sprt.beta,
                "llr": round(result.llr or 0.0, 4),
                "lower": round(lower, 4),
                "upper": round(upper, 4),
                "verdict": result.verdict,
            }
    else:
        places = tally.mean_places()
        found = ratings([deal.places for deal in tally.deals], len(setup.bots), setup.seed)
        report["ratings"] = [
            {
                "bot": spec,
                "elo": round(rating.elo, 1),
                "low": round(rating.low, 1),
                "high": round(rating.high, 1),
                "mean_place": round(places[b], 3),
            }
            for b, (spec, rating) in enumerate(zip(setup.bots, found, strict=True))
        ]
    return report


def _elo(value: float | None, infinite: str) -> str:
    """An Elo for the text report; `infinite` is what a null (an infinite Elo) reads as."""
    return infinite if value is None else f"{value + 0.0:+.1f}"  # + 0.0: no "-0.0"


def print_report(report: dict[str, Any]) -> None:
    rules = f"{report['variant']}/{report['first']}"
    rules += "" if report["threshold"] is None else f", matches to {report['threshold']}"
    title = f"match: {' vs '.join(report['bots'])} ({rules}, seed {report['seed']}):"
    out.print(
        f"{title} {report['games']:,} games, {report['deals']:,} deals with the seats rotated",
        markup=False,
    )
    if report["players"] == 2:
        a, b = report["bots"]
        elo = report["elo"]
        losses, draws, wins = report["results"]
        score = report["score"]
        centre = _elo(elo["elo"], "+inf" if score >= 0.5 else "-inf")
        low = _elo(elo["low"], "-inf" if score < 1 else "+inf")
        high = _elo(elo["high"], "+inf" if score > 0 else "-inf")
        out.print(
            f"{a} against {b}: {wins} won, {draws} shared, {losses} lost;"
            f" score {100 * report['score']:.1f}% ± {196 * report['score_se']:.1f}%;"
            f" Elo {centre} [{low}, {high}] (95%)",
            markup=False,
        )
        paired, unpaired = report["score_se"], report["unpaired_se"]
        saved = f" ({100 * (1 - paired / unpaired):.0f}% less)" if unpaired > 0 else ""
        out.print(
            f"pairs (0, ½, 1, 1½, 2 points): {' '.join(map(str, report['pentanomial']))};"
            f" standard error {100 * paired:.2f}% paired, {100 * unpaired:.2f}% unpaired{saved}",
            markup=False,
        )
        if "sprt" in report:
            test = report["sprt"]
            said = {"H1": f"H1 accepted: {a} is stronger by about {test['elo1']:g} Elo or more",
                    "H0": f"H0 accepted: {a} is not stronger by {test['elo1']:g} Elo",
                    None: "no decision yet"}[test["verdict"]]  # fmt: skip
            out.print(
                f"SPRT elo0={test['elo0']:g} elo1={test['elo1']:g} alpha={test['alpha']:g}"
                f" beta={test['beta']:g}: LLR {test['llr']:+.2f}"
                f" [{test['lower']:.2f}, {test['upper']:.2f}]: {said}",
                markup=False,
            )
    else:
        wide = max(len(row["bot"]) for row in report["ratings"])
        out.print(f"{'bot':<{wide}}  {'Elo':>7}  {'95% interval':>17}  mean place", markup=False)
        for row in report["ratings"]:
            interval = f"[{row['low']:+.1f}, {row['high']:+.1f}]"
            out.print(
                f"{row['bot']:<{wide}}  {row['elo']:>+7.1f}  {interval:>17}"
                f"  {row['mean_place']:.2f}",
                markup=False,
            )
    forfeits = report["forfeits"]
    listed = ", ".join(f"{f['bot']} {f['kind']} ×{f['games']}" for f in forfeits)
    out.print(f"forfeits: {listed or 'none'}", markup=False)
    if "records" in report:
        kept = report["records"]
        out.print(f"records: {plural(kept['written'], 'game')} in {kept['folder']}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("match", help=MATCH_HELP, cls=DekalCommand)(match)
