"""`dekal conformance run`: the suite, case by case, against an engine (docs/validate.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dekal.cli._common import (
    EXIT_ENGINE,
    EXIT_OK,
    EXIT_VERDICT,
    err,
    fail,
    input_file,
    input_path,
    out,
    output_file,
    print_json,
    read_text_file,
    text_of_at_most,
    whole_number,
)
from dekal.cli._conformance.options import (
    BadgeFile,
    EngineCommand,
    HtmlFile,
    JsonFlag,
    PythonFactory,
    Seconds,
    advancer,
    engines_to_run,
    progress_bar,
    read_expect,
    write_file,
)
from dekal.cli._formats import EXPECT_LINES
from dekal.cli._written import Quiet, write_output, wrote
from dekal.conformance.cases._needs import smoke_cases
from dekal.conformance.cases._vectors import (
    MAX_CASE_FILE_CHARS,
    SUITE_VERSION,
    SUITE_VERSIONS,
    Case,
    SuiteError,
    case_lines,
    load_cases,
    matches,
)
from dekal.conformance.drive._engine_link import DEFAULT_TIMEOUT, Engine, EngineUnusable
from dekal.conformance.judge._expect import LINE_SHAPES, ExpectedFailures
from dekal.conformance.judge._runner import Run, run_suite
from dekal.conformance.report._formats import junit_xml, report_json, run_text
from dekal_ref.errors import NotationError
from dekal_ref.reading import shortened, shown

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
"T3", "perft", "P1-neg", "game-0007". --expect FILE lists known failures, one per line,
{LINE_SHAPES} (`#` starts a comment; or a JSON list of {{"case", "rule", "reason"}}
objects):

\b
    {EXPECT_LINES[0]}
    {EXPECT_LINES[1]}

A failure counts as expected when its case is listed with the rule it is blamed on, or its
rule is listed without a case; a listed case that passes is reported as an unexpected pass.

--suite v1 runs the frozen first suite instead (1080 cases; every suite stays runnable, so a
CI pinned to v1 keeps its verdict); the report names the suite it ran.

\b
    dekal conformance run --engine "./my-engine" --suite v1 --junit v1.xml

--smoke runs one short case per rule and kind of case (about 40 cases, a few seconds):
a first check before the whole suite. --fail-fast stops at the first unexpected failure.

\b
    dekal conformance run --engine "./my-engine" --smoke --fail-fast

--strict-protocol checks every reply against the JSON Schemas of the protocol
(spec/schemas/protocol.schema.json): a reply with a field of the wrong type or shape fails
its case, and the failure names the field (`scores[0].points`).

\b
    dekal conformance run --engine "./my-engine" --smoke --strict-protocol

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


def read_cases(path: Path) -> list[dict[str, object]]:
    """Cases from a .jsonl file or every .jsonl file of a directory, checked by the schema."""
    import jsonschema  # type: ignore[import-untyped, unused-ignore]

    from dekal.conformance.cases._vectors import schema

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


def cases_matching(text: str, cases: list[Case] | None = None) -> list[Case]:
    """--filter: the cases (of the current suite by default) that match one of its comma
    separated tokens (cases._vectors.matches); a usage error when none does."""
    tokens = [t.strip() for t in text.split(",") if t.strip()]
    found = [case for case in (load_cases() if cases is None else cases) if matches(case, tokens)]
    if not found:
        fail(
            f"{shown(text)} matches no case: give case IDs, ID prefixes, rules or kinds",
            field="--filter",
        )
    return found


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
            help=f"Known failures: lines {LINE_SHAPES} (or JSON).",
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
    quiet: Quiet = False,
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
    strict_protocol: Annotated[
        bool,
        typer.Option(
            "--strict-protocol",
            help="Check every reply against spec/schemas/protocol.schema.json: "
            "a reply that breaks it fails its case, naming the field.",
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
    listed_cases = {case["id"] for case in cases}  # what --expect may name, --filter or not
    if filter_ is not None:  # an empty --filter lists no case: refused, not read as none
        cases = cases_matching(filter_, cases)
    known = read_expect(expect) if expect else ExpectedFailures()
    unknown = sorted(known.cases - listed_cases)
    if unknown:
        listed = ", ".join(shortened(case_id) for case_id in unknown[:5])
        where = f"in {cases_path}" if cases_path else f"in suite {version}"
        fail(f"lists IDs that are not {where}: {listed}", field="--expect")
    runs: list[Run] = []
    for driven in engines_to_run(engine, python, timeout):
        if strict_protocol:
            driven = checked_strictly(driven)
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
        write_output(junit, junit_xml(runs), "--junit")
        wrote(junit, quiet)
    report = report_json(runs)
    write_pictures(report, html_file, badge, show, quiet)
    if json_output:
        print_json(report)
    else:
        out.print("\n\n".join(run_text(r, show) for r in runs), markup=False, highlight=False)
    if any(r.aborted for r in runs):
        raise typer.Exit(EXIT_ENGINE)
    raise typer.Exit(EXIT_VERDICT if any(r.unexpected for r in runs) else EXIT_OK)


def checked_strictly(driven: Engine) -> Engine:
    """--strict-protocol: the engine with every reply checked against the protocol's schema
    (an engine whose hello breaks it cannot be run so: exit code 3)."""
    from dekal.conformance.drive._protocol_schema import StrictProtocolEngine

    try:
        return StrictProtocolEngine(driven)
    except EngineUnusable as error:
        driven.close()
        fail(f"engine unusable: {error}", EXIT_ENGINE)


def write_pictures(
    report: dict[str, object],
    html_file: Path | None,
    badge: Path | None,
    show: int,
    quiet: bool = False,
) -> None:
    """--html and --badge: the page and the badge of a JSON report (report_json's shape)."""
    from dekal.conformance.report._html import html_page, report_badge

    if html_file is not None:
        write_file(html_file, html_page([report], show), "--html", quiet)
    if badge is not None:
        write_file(badge, report_badge(report), "--badge", quiet)
