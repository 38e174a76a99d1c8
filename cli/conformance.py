"""`dekal conformance run` and `dekal conformance fuzz`: judge a Dékal implementation.

The engine under test speaks the protocol of spec/protocol.md over stdin/stdout (--engine
CMD), or is a Python object judged in-process (--python MODULE:FACTORY).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dekal.cli.common import (
    EXIT_ENGINE,
    EXIT_OK,
    EXIT_VERDICT,
    DekalCommand,
    DekalGroup,
    command_line,
    err,
    fail,
    input_path,
    out,
    output_directory,
    output_file,
    parse_seconds,
    print_json,
    read_text_file,
    text_of_at_most,
    whole_number,
)
from dekal.conformance import PROTOCOL_VERSION, SUITE_VERSION
from dekal.conformance.client import (
    DEFAULT_TIMEOUT,
    Engine,
    EngineUnusable,
    InProcessEngine,
    SubprocessEngine,
    bundled_engine,
    load_factory,
)
from dekal.conformance.report import junit_xml, report_json, run_text
from dekal.conformance.runner import Run, run_suite
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

conformance_app = typer.Typer(
    name="conformance",
    help=(
        "Judge a Dékal implementation, in any language, rule by rule (suite "
        f"{SUITE_VERSION}, protocol {PROTOCOL_VERSION}: see spec/protocol.md and docs/validate.md)."
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

--filter keeps the cases whose ID, ID prefix, rule ID or kind is listed (comma separated):
"T3", "perft", "P1-neg", "game-0007". --expect FILE lists known failures, one per line
"ID  reason" (or a JSON object ID -> reason): they count as expected failures, and a listed
case that passes is reported as an unexpected pass.

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
        if engine:
            return [SubprocessEngine(engine, timeout)]
        if factory is not None:
            return [InProcessEngine(factory, str(python), timeout)]
        return [bundled_engine(name, timeout) for name in ("ref", "fast")]
    except EngineUnusable as error:
        fail(f"engine unusable: {error}", EXIT_ENGINE)


FILTER_CHARS = 10_000
"""The longest --filter: each token is tried on every case, so its length bounds the work."""

EngineCommand = Annotated[
    str | None,
    typer.Option(
        "--engine", help="Command line of an engine speaking the protocol.", parser=command_line
    ),
]
PythonFactory = Annotated[
    str | None,
    typer.Option(
        "--python",
        help="MODULE:FACTORY of a Python engine, judged in-process.",
        parser=command_line,
    ),
]
Seconds = Annotated[
    float,
    typer.Option(
        "--timeout",
        help="Seconds allowed per case (run) or per request (fuzz), 0 < s ≤ 604800.",
        parser=parse_seconds,
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
            help="Case IDs, ID prefixes, rule IDs or kinds, comma separated.",
            parser=text_of_at_most(FILTER_CHARS),
        ),
    ] = None,
    expect: Annotated[
        Path | None,
        typer.Option(
            "--expect",
            help="Known failures: lines 'ID reason' or a JSON object.",
            parser=input_path,
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
    json_output: JsonFlag = False,
    timeout: Seconds = DEFAULT_TIMEOUT,
    strict: Annotated[
        bool, typer.Option("--strict", help="Count should-level failures in the exit code.")
    ] = False,
    show: Annotated[
        int,
        typer.Option(help="How many failures to draw in full.", parser=whole_number(0, 1_000_000)),
    ] = 20,
    cases_path: Annotated[
        Path | None,
        typer.Option(
            "--cases",
            help="Run the cases of this .jsonl file or directory (fuzz --save) instead.",
            parser=input_path,
        ),
    ] = None,
) -> None:
    try:
        suite = load_cases()
    except SuiteError as error:
        fail(str(error), EXIT_ENGINE)
    cases = read_cases(cases_path) if cases_path else suite
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
        fail(f"lists IDs that are not in suite {SUITE_VERSION}: {listed}", field="--expect")
    runs: list[Run] = []
    for driven in engines_to_run(engine, python, timeout):
        try:
            with progress_bar(len(cases), f"{driven.label}") as progress:
                runs.append(run_suite(driven, cases, known, timeout, advancer(progress), strict))
        finally:
            driven.close()
    if junit:
        try:
            junit.write_text(junit_xml(runs), "utf-8")
        except OSError as error:  # checked before the run; the disk can still refuse
            fail(f"{junit}: {error.strerror}", kind="input", field="--junit")
    if json_output:
        print_json(report_json(runs))
    else:
        out.print("\n\n".join(run_text(r, show) for r in runs), markup=False, highlight=False)
    if any(r.aborted for r in runs):
        raise typer.Exit(EXIT_ENGINE)
    raise typer.Exit(EXIT_VERDICT if any(r.unexpected for r in runs) else EXIT_OK)


FUZZ_HELP = """Play seeded random games on an engine and on the reference in lock-step.

Every player count and variant the engine claims in its hello is played; most actions are
legal, some deliberately wrong (their refusals and rule IDs are compared too). After every
step the positions and legal actions are compared, and the scores when a round ends. On the
first divergence the game is shrunk (fewer players, fewer steps) and printed as a game
record; --save DIR also writes it as a ready conformance case (run it with --cases DIR).

\b
    dekal conformance fuzz --engine "node examples/engines/js/engine.js" --games 200 --seed 7

Exit codes: 0 no divergence; 1 a divergence was found; 2 bad usage; 3 engine unusable.
"""


def fuzz(
    engine: EngineCommand = None,
    python: PythonFactory = None,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            help="How many random games to play (1-1000000).",
            parser=whole_number(1, 1_000_000),
        ),
    ] = 100,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            help="Seed of the first game, 0 ≤ seed < 2^64; the same seed plays the same games.",
            parser=whole_number(0, SEED_MAX),
        ),
    ] = 0,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            help="Write the shrunk divergence as a case file in this directory (created if"
            " missing; a case file of the same name, the same case, is overwritten).",
            parser=output_directory,
        ),
    ] = None,
    json_output: JsonFlag = False,
    timeout: Seconds = DEFAULT_TIMEOUT,
) -> None:
    from dekal.conformance.fuzz import fuzz as run_fuzz
    from dekal.conformance.fuzz import game_record, saved_case

    if not engine and not python:
        fail("give the engine to fuzz: --engine CMD or --python MODULE:FACTORY")
    (driven,) = engines_to_run(engine, python, timeout)
    try:
        with progress_bar(games, f"fuzz {driven.label}") as progress:
            task = progress.task_ids[0]
            report = run_fuzz(driven, games, seed, timeout, lambda: progress.advance(task))
        saved = None
        if save is not None and report.shrunk is not None and report.shrunk.divergence is not None:
            case = saved_case(report.shrunk)
            saved = save / f"{case['id']}.jsonl"
            try:  # checked before the games; the disk can still refuse
                save.mkdir(parents=True, exist_ok=True)
                saved.write_text(
                    json.dumps(case, ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8"
                )
            except OSError as error:
                fail(f"{saved}: {error.strerror}", kind="input", field="--save")
    except EngineUnusable as error:
        fail(f"engine unusable: {error}", EXIT_ENGINE)
    finally:
        driven.close()
    if json_output:
        print_json({**report.as_json(), "saved": str(saved) if saved else None})
    else:
        found = "1 divergence" if report.divergent else "no divergence"
        out.print(
            f"{report.games} games, {report.steps} steps, {found} ({driven.label})", markup=False
        )
        shrunk = report.shrunk
        if shrunk is not None and shrunk.divergence is not None:
            first = report.divergent
            out.print(
                f"first divergence in game seed {first.seed if first else '?'}; shrunk to "
                f"{shrunk.players} players, {len(shrunk.items)} steps:\n",
                markup=False,
            )
            out.print(game_record(shrunk), markup=False, highlight=False)
            divergence = shrunk.divergence
            if divergence.kind == "position":
                from dekal.conformance.pictures import positions_picture

                out.print(positions_picture(divergence.expected, divergence.actual), markup=False)
        if saved:
            out.print(f"saved as {saved} (dekal conformance run --cases {saved} ...)", markup=False)
    raise typer.Exit(EXIT_VERDICT if report.divergent else EXIT_OK)


def register(app: typer.Typer) -> None:
    conformance_app.command("run", help=RUN_HELP, cls=DekalCommand)(run)
    conformance_app.command("fuzz", help=FUZZ_HELP, cls=DekalCommand)(fuzz)
    app.add_typer(conformance_app, name="conformance")
