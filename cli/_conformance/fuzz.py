"""`dekal conformance fuzz`: seeded random games on an engine and the reference in lock-step."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from dekal.cli import _paths as paths
from dekal.cli._common import (
    EXIT_ENGINE,
    EXIT_OK,
    EXIT_VERDICT,
    Scheduler,
    Workers,
    checked,
    err,
    fail,
    out,
    output_directory,
    output_file_or_stdout,
    print_json,
    seconds_or_zero,
    whole_number,
)
from dekal.cli._conformance.options import (
    EngineCommand,
    JsonFlag,
    PythonFactory,
    Seconds,
    engines_to_run,
    progress_bar,
    read_expect,
)
from dekal.cli._paths import names_something
from dekal.cli._rates import duration
from dekal.cli._written import write_output
from dekal.conformance.drive._engine_link import DEFAULT_TIMEOUT, EngineUnusable
from dekal.conformance.fuzz._fuzz import DEFAULT_SHRINK_SECONDS, FuzzReport
from dekal.conformance.judge._expect import parse_rules
from dekal_ref.errors import NotationError
from dekal_ref.reading import SEED_MAX
from dekal_ref.words import plural

FUZZ_HELP = """Play seeded random games on an engine and on the reference in lock-step.

Every player count and variant the engine claims in its hello is played; most actions are
legal, some deliberately wrong (their refusals and rule IDs are compared too). After every
step the verdicts, positions, public views (feature public) and legal actions are compared,
perft counts now and then (feature perft), and the scores when a round ends. Each
deviation is blamed on one rule and field, and every distinct one is reported once with
its smallest example: the game that showed it is shrunk with Hypothesis and printed as a
game record (--record FILE writes it as a .dkr file for `dekal replay`; --save DIR as a
ready conformance case, run with `run --cases DIR`).

\b
    dekal conformance fuzz --engine "node examples/engines/js/engine.js" --games 200 --seed 7
    dekal conformance fuzz --engine "./my-engine" --expect M3,S3 --keep-going --json
    dekal conformance fuzz --engine "./my-engine" --record - | dekal replay -

--expect RULES (comma separated rule IDs, or an --expect file as for `run`, of which fuzz
uses the lines `RULE [reason]`) names deviations you know of: they are reported but do
not stop the games. While the full positions still agree the game goes on; once they
part, an engine that claims the position feature is put back on the reference's position,
any other's game is dropped.
The run stops after the first unexpected deviation, or with --keep-going plays every game.

The smallest games are kept in an example database (--db DIR, by default
$XDG_CACHE_HOME/dekal/fuzz-examples or ~/.cache/dekal/fuzz-examples) and replayed first
when the same deviation is found again; --no-db keeps nothing. A shrink stops after
--shrink-seconds; once the engine has hung, requests get a few times its slowest reply.

--workers N plays the games on N local worker processes, --scheduler tcp://HOST:PORT on a
Dask cluster's workers (docs/simulate.md): each chunk of games gets its own engine process,
and the findings are merged in game order, as one process reports them.

Exit codes: 0 no unexpected deviation; 1 one or more; 2 bad usage; 3 engine unusable.
"""


def expected_rules(value: str | None) -> frozenset[str]:
    """--expect: rule IDs, comma separated, or an --expect file as for `run` (its lines
    without a case: fuzz games are not suite cases)."""
    if not value:
        return frozenset()
    if names_something(value):  # a file: checked as every file to read is
        return read_expect(checked(paths.input_file, value, "--expect")).rules
    try:
        return parse_rules(value).rules
    except NotationError as error:
        fail(f"--expect: {error.message} (M1-M5, T1-T5, P1-P2, F1-F4, S1-S4, B1)", field="--expect")


def fuzz(
    engine: EngineCommand = None,
    python: PythonFactory = None,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            metavar="N",
            help="How many random games to play (1-1000000).",
            parser=whole_number(1, 1_000_000),
        ),
    ] = 100,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            metavar="N",
            help="Seed of the first game, 0 ≤ seed < 2^64; the same seed plays the same games.",
            parser=whole_number(0, SEED_MAX),
        ),
    ] = 0,
    expect: Annotated[
        str | None,
        typer.Option(
            "--expect",
            help="Known deviations: rule IDs (M3,S3) or a file of lines `RULE [reason]`.",
        ),
    ] = None,
    keep_going: Annotated[
        bool,
        typer.Option("--keep-going", help="Play every game: report every distinct deviation."),
    ] = False,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            metavar="DIR",
            help="Write each unexpected deviation's smallest game as a case file in this"
            " directory (created if missing; the file of the same case is overwritten).",
            parser=output_directory,
        ),
    ] = None,
    record: Annotated[
        str | None,
        typer.Option(
            "--record",
            metavar="FILE",
            help="Write the first deviation's smallest game as a .dkr record ('-': stdout).",
            parser=output_file_or_stdout,
        ),
    ] = None,
    shrink_seconds: Annotated[
        float,
        typer.Option(
            "--shrink-seconds",
            metavar="SECONDS",
            help="Time budget of each shrink (0: no shrinking).",
            parser=seconds_or_zero,
        ),
    ] = DEFAULT_SHRINK_SECONDS,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            metavar="DIR",
            help="Example database directory (see above).",
            parser=output_directory,
        ),
    ] = None,
    no_db: Annotated[bool, typer.Option("--no-db", help="Keep no example database.")] = False,
    json_output: JsonFlag = False,
    timeout: Seconds = DEFAULT_TIMEOUT,
    workers: Workers = 1,
    scheduler: Scheduler = None,
) -> None:
    from dekal.conformance.fuzz._campaign import EngineSpec, campaign
    from dekal.conformance.fuzz._fuzz import fuzz as run_fuzz
    from dekal.conformance.fuzz._records import game_record, saved_case
    from dekal.conformance.fuzz._shrink import default_database_path
    from dekal.simulation.runner import ClusterUnavailable

    if not engine and not python:
        fail("give the engine to fuzz: --engine CMD or --python MODULE:FACTORY")
    if db is not None and no_db:
        fail("give --db DIR or --no-db, not both")
    rules = expected_rules(expect)
    database = None if no_db else (db or default_database_path())
    (driven,) = engines_to_run(engine, python, timeout)
    saved: list[str] = []
    try:
        with progress_bar(games, f"fuzz {driven.label}") as progress:
            task = progress.task_ids[0]
            if workers > 1 or scheduler is not None:  # chunks of games, an engine per chunk
                report = campaign(
                    EngineSpec(engine, python, timeout),
                    games,
                    seed,
                    workers=workers,
                    scheduler=scheduler,
                    progress=lambda done: progress.update(task, completed=done),
                    expect=rules,
                    keep_going=keep_going,
                    shrink_seconds=shrink_seconds,
                    database=database,
                )
            else:
                report = run_fuzz(
                    driven,
                    games,
                    seed,
                    timeout,
                    lambda: progress.update(task, advance=1, description=f"fuzz {driven.label}"),
                    expect=rules,
                    keep_going=keep_going,
                    shrink_seconds=shrink_seconds,
                    database=database,
                    status=lambda text: progress.update(task, description=text),
                )
        if save is not None and report.unexpected:
            for finding in report.unexpected:
                case = saved_case(finding.shrunk)
                case_file = save / f"{case['id']}.jsonl"
                try:  # checked before the games; the disk can still refuse
                    save.mkdir(exist_ok=True)  # its parent was checked (output_directory)
                except OSError as error:
                    fail(f"{case_file}: {error.strerror}", kind="input", field="--save")
                case_text = json.dumps(case, ensure_ascii=False, separators=(",", ":"))
                write_output(case_file, case_text + "\n", "--save")
                saved.append(str(case_file))
    except EngineUnusable as error:
        fail(f"engine unusable: {error}", EXIT_ENGINE)
    except ClusterUnavailable as error:
        fail(str(error), kind="input", field="--scheduler" if scheduler else "--workers")
    finally:
        driven.close()
    chosen = (report.unexpected or report.known)[:1]
    if record is not None and chosen:
        text = game_record(chosen[0].shrunk)
        if record == "-":
            sys.stdout.write(text)
        else:
            write_output(record, text, "--record")  # checked before the games
    # with `--record -` the record alone is on standard output: the report goes to stderr
    console = err if record == "-" else out
    if json_output:
        summary = {**report.as_json(), "saved": saved}
        if record == "-":
            sys.stderr.write(json.dumps(summary, ensure_ascii=False) + "\n")
        else:
            print_json(summary)
    else:
        console.print(fuzz_text(report, driven.label), markup=False, highlight=False)
        for path in saved:
            console.print(
                f"saved as {path} (dekal conformance run --cases {path} ...)", markup=False
            )
        if record not in (None, "-") and chosen:
            console.print(f"record written to {record} (dekal replay {record})", markup=False)
    raise typer.Exit(EXIT_VERDICT if report.unexpected else EXIT_OK)


def fuzz_text(report: FuzzReport, label: str) -> str:
    """The human report: a summary line, each unexpected deviation's smallest game in full
    (a game record and, for a position, both positions drawn), one line per known one."""
    from dekal.conformance.fuzz._records import game_record
    from dekal.conformance.report._pictures import positions_picture

    count = len(report.unexpected)
    found = "no divergence" if not count else plural(count, "divergence")
    known = f", {len(report.known)} known" if report.known else ""
    games, steps = plural(report.games, "game"), plural(report.steps, "step")
    lines = [f"{games}, {steps}, {found}{known} ({label})"]
    reached, feasible = report.map_coverage()
    if report.situations:
        lines.append(f"situation map: {reached} of {feasible} feasible combinations reached")
    for finding in report.findings:
        example, shrunk = finding.example, finding.shrunk
        if finding.shrink is None:
            how = "not shrunk: the engine deals for itself and cannot load a position"
        elif finding.shrink.complete:
            how = f"shrunk in {duration(finding.shrink.seconds)}"
        else:
            how = f"shrink stopped after {duration(finding.shrink.seconds)} (--shrink-seconds)"
        head = (
            f"{example.blame}, first in game {finding.number} (seed {finding.seed}); "
            f"smallest: {shrunk.players} players, step {example.step} ({how})"
        )
        if finding.known:
            lines.append(f"\nknown: {head}: {example.what}")
            continue
        lines.append(f"\n{head}:\n")
        lines.append(game_record(shrunk))
        if example.kind == "position":
            lines.append(positions_picture(example.expected, example.actual))
    return "\n".join(lines)
