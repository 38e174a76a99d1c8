"""`dekal conformance run` and `dekal conformance fuzz`: judge a Dékal implementation.

The engine under test speaks the protocol of spec/protocol.md over stdin/stdout (--engine
CMD), or is a Python object judged in-process (--python MODULE:FACTORY).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dekal.cli import paths
from dekal.cli.common import (
    EXIT_ENGINE,
    EXIT_OK,
    EXIT_VERDICT,
    DekalCommand,
    DekalGroup,
    Scheduler,
    Workers,
    checked,
    command_line,
    err,
    fail,
    input_file,
    input_path,
    out,
    output_directory,
    output_file,
    output_file_or_stdout,
    parse_seconds,
    print_json,
    read_text_file,
    seconds_or_zero,
    text_of_at_most,
    whole_number,
)
from dekal.cli.paths import names_something
from dekal.conformance import PROTOCOL_VERSION, SUITE_VERSION, SUITE_VERSIONS
from dekal.conformance.client import (
    DEFAULT_TIMEOUT,
    Engine,
    EngineUnusable,
    InProcessEngine,
    SubprocessEngine,
    bundled_engine,
    load_factory,
)
from dekal.conformance.fuzz import DEFAULT_SHRINK_SECONDS
from dekal.conformance.report import junit_xml, report_json, run_text
from dekal.conformance.runner import Run, run_suite
from dekal.conformance.smoke import smoke_cases
from dekal.conformance.vectors import (
    MAX_CASE_FILE_CHARS,
    SuiteError,
    case_lines,
    load_cases,
    matches,
)
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import MAX_JSON_CHARS, read_json
from dekal_ref.reading import SEED_MAX, shortened, shown

if TYPE_CHECKING:
    from dekal.conformance.fuzz import FuzzReport

conformance_app = typer.Typer(
    name="conformance",
    help=(
        "Judge a Dékal implementation, in any language, rule by rule.\n\n"
        f"Suite {SUITE_VERSION}, protocol {PROTOCOL_VERSION}: see spec/protocol.md and"
        " docs/validate.md."
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
    cls=DekalGroup,
)

RUN_HELP = f"""Run the conformance suite ({SUITE_VERSION}) against an engine, step by step.

Every case is played on the engine over the protocol of spec/protocol.md; the first step
where the engine's answer differs (accepted or refused with which rule, the position, the
legal actions, the scores) is shown with the expected and actual positions side by side.

\b
    dekal conformance run --engine "node examples/engines/js/engine.js"
    dekal conformance run --python mypkg.engine:make_engine --filter P1,T3
    dekal conformance run          # our reference and optimized engines
    dekal conformance run --engine ref      # only the reference (or: --engine fast)

--filter keeps the cases whose ID, ID prefix, rule ID or kind is listed (comma separated):
"T3", "perft", "P1-neg", "game-0007". --expect FILE lists known failures, one per line
"ID  reason" (or a JSON object ID -> reason): they count as expected failures, and a listed
case that passes is reported as an unexpected pass.

--suite v1 runs the frozen first suite instead (1080 cases; every suite stays runnable, so a
CI pinned to v1 keeps its verdict); the report names the suite it ran.

\b
    dekal conformance run --engine "./my-engine" --suite v1 --junit v1.xml

--smoke runs one short case per rule and kind of case (about 40 cases, a few seconds):
a first check before the whole suite. --fail-fast stops at the first unexpected failure.

\b
    dekal conformance run --engine "./my-engine" --smoke --fail-fast

--html FILE writes the report as one self-contained web page (the matrix, coverage, every
failure with its positions drawn); --badge FILE writes an SVG badge of the first engine's
must-level coverage of what it claims. `dekal conformance report` draws both again from
saved --json reports.

\b
    dekal conformance run --engine "./my-engine" --html report.html --badge badge.svg

The report is a rule × result matrix (a failure counts under the one rule its first
divergence breaks, named with the field that shows it: "S3 (ranking)"), the coverage (per
rule, and two headline figures: must-level coverage of what the engine claims, and core
coverage), then every failure with the expected and actual values side by side.

Cases are `must` or `should` (the kind of refusal for text that does not parse): failed
`should` cases are reported but change the exit code only with --strict.

Exit codes: 0 every case passed (or failed as expected, or was skipped); 1 unexpected
failures, errors or unexpected passes; 2 bad usage (options, filter, expect file); 3 the
engine could not be started or did not complete the handshake.
"""


def read_expect(path: Path) -> dict[str, str]:
    """A known-failures file: a JSON object ID -> reason, or lines `ID reason` (# comments)."""
    text = read_text_file(path, "--expect", MAX_JSON_CHARS)
    if text.lstrip().startswith("{"):
        try:
            data = read_json(text, str(path))
        except NotationError as error:
            fail(f"{error.field}: {error.message}", kind="input", field="--expect")
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            fail(f"{path}: write a JSON object mapping case IDs to reasons", field="--expect")
        return {str(k): v for k, v in data.items()}
    known: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            case_id, _, reason = line.partition(" ")
            known[case_id] = reason.strip() or "known failure"
    return known


def read_cases(path: Path) -> list[dict[str, object]]:
    """Cases from a .jsonl file or every .jsonl file of a directory, checked by the schema."""
    import jsonschema  # type: ignore[import-untyped, unused-ignore]

    from dekal.conformance.vectors import schema

    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    validator = jsonschema.Draft202012Validator(schema())
    cases = []
    for file in files:
        text = read_text_file(file, "--cases", MAX_CASE_FILE_CHARS)
        try:
            numbered = list(case_lines(text, str(file)))
        except NotationError as error:
            fail(f"{error.field}: {error.message}", kind="input", field="--cases")
        for number, case in numbered:
            problem = next(iter(validator.iter_errors(case)), None)
            if problem is not None:
                fail(
                    f"{file}:{number}: not a conformance case: {shortened(problem.message, 200)}",
                    kind="input",
                    field="--cases",
                )
            cases.append(case)
    if not cases:
        fail(f"{path}: no case found", kind="input", field="--cases")
    return cases


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Progress]:
    """A progress bar on standard error (drawn only on a terminal)."""
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as progress:
        progress.add_task(label, total=total)
        yield progress


def advancer(progress: Progress) -> Callable[[object], None]:
    task = progress.task_ids[0]
    return lambda _: progress.advance(task)


BUNDLED = ("ref", "fast")
"""--engine names that mean our own engines (dekal_ref, dekal) rather than a command."""


def engines_to_run(engine: str | None, python: str | None, timeout: float) -> list[Engine]:
    """The engines a command drives: a subprocess, a Python factory, or our two engines."""
    if engine and python:
        fail("give --engine CMD or --python MODULE:FACTORY, not both", field="--engine")
    factory = None
    if python:
        try:
            factory = load_factory(python)
        except (ImportError, ValueError) as error:
            fail(f"--python {shortened(python)}: {error}", EXIT_ENGINE)
        except (Exception, SystemExit) as error:  # importing runs the user's code: anything
            fail(f"--python {shortened(python)}: {type(error).__name__}: {error}", EXIT_ENGINE)
    try:
        if engine in BUNDLED:  # `--engine ref`: our engine, not a command named ref
            return [bundled_engine(engine, timeout)]
        if engine:
            return [SubprocessEngine(engine, timeout)]
        if factory is not None:
            return [InProcessEngine(factory, str(python), timeout)]
        return [bundled_engine(name, timeout) for name in BUNDLED]
    except EngineUnusable as error:
        fail(f"engine unusable: {error}", EXIT_ENGINE)


def suite_version(value: object) -> str:
    """--suite: one of the suites that stay loadable (SUITE_VERSIONS: v1 is frozen, not gone)."""
    text = str(value)
    if text not in SUITE_VERSIONS:
        raise typer.BadParameter(
            f"{shown(text)} is not a suite: choose one of {', '.join(SUITE_VERSIONS)}"
        )
    return text


FILTER_CHARS = 10_000
"""The longest --filter: each token is tried on every case, so its length bounds the work."""

EngineCommand = Annotated[
    str | None,
    typer.Option(
        "--engine",
        metavar="COMMAND",
        help="Command line of an engine speaking the protocol; ref or fast: our own engines.",
        parser=command_line,
    ),
]
PythonFactory = Annotated[
    str | None,
    typer.Option(
        "--python",
        metavar="MODULE:FACTORY",
        help="MODULE:FACTORY of a Python engine, judged in-process.",
        parser=command_line,
    ),
]
Seconds = Annotated[
    float,
    typer.Option(
        "--timeout",
        metavar="SECONDS",
        help="Seconds allowed per case (run) or per request (fuzz), 0 < s ≤ 604800.",
        parser=parse_seconds,
    ),
]
HtmlFile = Annotated[
    Path | None,
    typer.Option(
        "--html",
        metavar="FILE",
        help="Write the report as one self-contained HTML page (an existing file is overwritten).",
        parser=output_file,
    ),
]
BadgeFile = Annotated[
    Path | None,
    typer.Option(
        "--badge",
        metavar="FILE",
        help="Write an SVG badge of the first engine's claimed must-level coverage.",
        parser=output_file,
    ),
]
JsonFlag = Annotated[
    bool,
    typer.Option(
        "--json",
        help='Print one JSON report; an error is {"error": {"kind", "field", "message"}}.',
    ),
]


def run(
    engine: EngineCommand = None,
    python: PythonFactory = None,
    filter_: Annotated[
        str | None,
        typer.Option(
            "--filter",
            metavar="IDS",
            help="Case IDs, ID prefixes, rule IDs or kinds, comma separated.",
            parser=text_of_at_most(FILTER_CHARS),
        ),
    ] = None,
    expect: Annotated[
        Path | None,
        typer.Option(
            "--expect",
            metavar="FILE",
            help="Known failures: lines 'ID reason' or a JSON object.",
            parser=input_file,
        ),
    ] = None,
    junit: Annotated[
        Path | None,
        typer.Option(
            "--junit",
            help="Write a JUnit XML report to this file (an existing file is overwritten).",
            parser=output_file,
        ),
    ] = None,
    html_file: HtmlFile = None,
    badge: BadgeFile = None,
    json_output: JsonFlag = False,
    timeout: Seconds = DEFAULT_TIMEOUT,
    strict: Annotated[
        bool, typer.Option("--strict", help="Count should-level failures in the exit code.")
    ] = False,
    show: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="How many failures to draw in full.",
            parser=whole_number(0, 1_000_000),
        ),
    ] = 20,
    cases_path: Annotated[
        Path | None,
        typer.Option(
            "--cases",
            metavar="PATH",
            help="Run the cases of this .jsonl file or directory (fuzz --save) instead.",
            parser=input_path,
        ),
    ] = None,
    fail_fast: Annotated[
        bool,
        typer.Option("--fail-fast", help="Stop at the first unexpected failure, error or pass."),
    ] = False,
    smoke: Annotated[
        bool,
        typer.Option(
            "--smoke", help="Run one short case per rule and kind of case (seconds, not minutes)."
        ),
    ] = False,
    suite: Annotated[
        str | None,
        typer.Option(
            "--suite",
            metavar="VERSION",
            help=f"The suite to run: {' or '.join(SUITE_VERSIONS)} (default {SUITE_VERSION}).",
            parser=suite_version,
        ),
    ] = None,
) -> None:
    if cases_path and suite:
        fail(
            "give --cases PATH or --suite VERSION, not both: --cases replaces the suite",
            field="--suite",
        )
    version = suite or SUITE_VERSION
    try:
        suite_cases = load_cases(version)
    except SuiteError as error:
        fail(str(error), EXIT_ENGINE)
    cases = read_cases(cases_path) if cases_path else suite_cases
    if filter_:
        tokens = [t.strip() for t in filter_.split(",") if t.strip()]
        cases = [case for case in cases if matches(case, tokens)]
        if not cases:
            fail(
                f"{shown(filter_)} matches no case: give case IDs, ID prefixes, rules or kinds",
                field="--filter",
            )
    known = read_expect(expect) if expect else {}
    unknown = sorted(set(known) - {case["id"] for case in cases})
    if unknown:
        listed = ", ".join(shortened(case_id) for case_id in unknown[:5])
        fail(f"lists IDs that are not in suite {version}: {listed}", field="--expect")
    runs: list[Run] = []
    for driven in engines_to_run(engine, python, timeout):
        if runs and fail_fast and runs[-1].unexpected:
            err.print(f"--fail-fast: {driven.label} not run", markup=False, highlight=False)
            driven.close()
            continue
        chosen = smoke_cases(cases, driven.info) if smoke else cases
        try:
            with progress_bar(len(chosen), f"{driven.label}") as progress:
                runs.append(
                    run_suite(
                        driven,
                        chosen,
                        known,
                        timeout,
                        advancer(progress),
                        strict,
                        fail_fast,
                        suite=version,
                    )
                )
        finally:
            driven.close()
    if junit:
        try:
            junit.write_text(junit_xml(runs), "utf-8")
        except OSError as error:  # checked before the run; the disk can still refuse
            fail(f"{junit}: {error.strerror}", kind="input", field="--junit")
    report = report_json(runs)
    write_pictures(report, html_file, badge, show)
    if json_output:
        print_json(report)
    else:
        out.print("\n\n".join(run_text(r, show) for r in runs), markup=False, highlight=False)
    if any(r.aborted for r in runs):
        raise typer.Exit(EXIT_ENGINE)
    raise typer.Exit(EXIT_VERDICT if any(r.unexpected for r in runs) else EXIT_OK)


def write_file(path: Path, text: str, option: str) -> None:
    try:  # checked before the work; the disk can still refuse
        path.write_text(text, "utf-8")
    except OSError as error:
        fail(f"{path}: {error.strerror}", kind="input", field=option)


def write_pictures(
    report: dict[str, object], html_file: Path | None, badge: Path | None, show: int
) -> None:
    """--html and --badge: the page and the badge of a JSON report (report_json's shape)."""
    from dekal.conformance.badge import report_badge
    from dekal.conformance.html_report import html_page

    if html_file is not None:
        write_file(html_file, html_page([report], show), "--html")
    if badge is not None:
        write_file(badge, report_badge(report), "--badge")


REPORT_HELP = """Draw saved JSON reports (of `run --json`) as one HTML page, and a badge.

Every engine of every report gets a column of the rule × engine matrix, side by side:
compare builds, or your engine with ours, without running anything again.

\b
    dekal conformance run --engine "./my-engine" --json > mine.json
    dekal conformance run --json > ours.json
    dekal conformance report mine.json ours.json --html report.html
    dekal conformance report mine.json --badge badge.svg

The badge shows the first engine's must-level coverage of what it claims
("dekal conformance | 1362/1362"): green when every claimed must case passes, red
otherwise. The files are read as untrusted input; a report_version this dekal does not
know is refused.

Exit codes: 0 every report passed; 1 a report has unexpected failures (as `run` said);
2 bad usage or a file that is not a known report.
"""


def report(
    results: Annotated[
        list[Path],
        typer.Argument(metavar="RESULTS", help="Reports saved by `run --json`.", parser=input_file),
    ],
    html_file: HtmlFile = None,
    badge: BadgeFile = None,
    show: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="How many failures per engine to draw in full.",
            parser=whole_number(0, 1_000_000),
        ),
    ] = 20,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the reports merged into one JSON report.")
    ] = False,
) -> None:
    from dekal.conformance.badge import report_badge
    from dekal.conformance.html_report import html_page, read_report

    if html_file is None and badge is None and not json_output:
        fail("give --html FILE, --badge FILE or --json (see --help)")
    reports = []
    for path in results:
        text = read_text_file(path, "RESULTS", MAX_JSON_CHARS)
        try:
            reports.append(read_report(text, str(path)))
        except NotationError as error:
            fail(f"{error.field}: {error.message}", kind="input", field="RESULTS")
    if html_file is not None:
        write_file(html_file, html_page(reports, show), "--html")
    if badge is not None:
        write_file(badge, report_badge(reports[0]), "--badge")
    ok = all(r.get("ok") is True for r in reports)
    if json_output:
        suites = ", ".join(sorted({str(r.get("suite")) for r in reports}))
        merged = {**reports[0], "suite": suites, "ok": ok}
        merged["engines"] = [engine for r in reports for engine in r["engines"]]
        print_json(merged)
    raise typer.Exit(EXIT_OK if ok else EXIT_VERDICT)


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

--expect RULES (comma separated rule IDs, or a file of lines "RULE reason" as for `run`)
names deviations you know of: they are reported but do not stop the games. While the full
positions still agree the game goes on; once they part, an engine that claims the
position feature is put back on the reference's position, any other's game is dropped.
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
    """--expect: rule IDs, comma separated, or a file of lines `RULE reason` (or JSON)."""
    from dekal.conformance.attribution import RULE_IDS

    if not value:
        return frozenset()
    if names_something(value):  # a file of rules: checked as every file to read is
        tokens = list(read_expect(checked(paths.input_file, value, "--expect")))
    else:
        tokens = value.split(",")
    rules = [token.strip() for token in tokens if token.strip()]
    unknown = [rule for rule in rules if rule not in RULE_IDS]
    if unknown:
        fail(
            f"--expect: {', '.join(unknown)} is not a rule ID (M1-M5, T1-T5, P1-P2, F1-F4, "
            "S1-S4, B1) nor a file"
        )
    return frozenset(rules)


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
            help="Known deviations: rule IDs (M3,S3) or a file of lines 'RULE reason'.",
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
    from dekal.conformance.campaign import EngineSpec, campaign
    from dekal.conformance.fuzz import fuzz as run_fuzz
    from dekal.conformance.fuzz_records import game_record, saved_case
    from dekal.conformance.shrink import default_database_path
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
                    case_file.write_text(
                        json.dumps(case, ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8"
                    )
                except OSError as error:
                    fail(f"{case_file}: {error.strerror}", kind="input", field="--save")
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
            try:  # checked before the games; the disk can still refuse
                Path(record).write_text(text, "utf-8")
            except OSError as error:
                fail(f"{record}: {error.strerror}", kind="input", field="--record")
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
    from dekal.conformance.fuzz_records import game_record
    from dekal.conformance.pictures import positions_picture

    count = len(report.unexpected)
    found = "no divergence" if not count else f"{count} divergence{'s' * (count > 1)}"
    known = f", {len(report.known)} known" if report.known else ""
    lines = [f"{report.games} games, {report.steps} steps, {found}{known} ({label})"]
    for finding in report.findings:
        example, shrunk = finding.example, finding.shrunk
        if finding.shrink is None:
            how = "not shrunk: the engine deals for itself and cannot load a position"
        elif finding.shrink.complete:
            how = f"shrunk in {finding.shrink.seconds:.1f} s"
        else:
            how = f"shrink stopped after {finding.shrink.seconds:.1f} s (--shrink-seconds)"
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


def register(app: typer.Typer) -> None:
    conformance_app.command("run", help=RUN_HELP, cls=DekalCommand)(run)
    conformance_app.command("fuzz", help=FUZZ_HELP, cls=DekalCommand)(fuzz)
    conformance_app.command("report", help=REPORT_HELP, cls=DekalCommand)(report)
    app.add_typer(conformance_app, name="conformance")
