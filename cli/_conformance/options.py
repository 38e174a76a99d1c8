"""What the `dekal conformance` subcommands share: the engine options and the engines they
drive, the progress bar, the --expect file, and writing the files they are asked for."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dekal.cli._common import (
    EXIT_ENGINE,
    command_line,
    err,
    fail,
    output_file,
    parse_seconds,
    read_text_file,
)
from dekal.cli._written import write_output, wrote
from dekal.conformance.drive._direct_engine import bundled_engine
from dekal.conformance.drive._engine_link import Engine, EngineUnusable
from dekal.conformance.drive._inprocess_engine import InProcessEngine, load_factory
from dekal.conformance.drive._subprocess_engine import SubprocessEngine
from dekal.conformance.judge._expect import ExpectedFailures, parse_expect
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import MAX_JSON_CHARS
from dekal_ref.reading import shortened


def read_expect(path: Path) -> ExpectedFailures:
    """A known-failures file (dekal.conformance.judge._expect): lines `ID RULE [reason]` or
    `RULE [reason]` (# comments), or the JSON equivalent; a line that is neither is refused,
    naming its line."""
    text = read_text_file(path, "--expect", MAX_JSON_CHARS)
    try:
        return parse_expect(text, str(path))
    except NotationError as error:
        fail(error.message, kind="input", field="--expect")


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


def write_file(path: Path, text: str, option: str, quiet: bool = False) -> None:
    write_output(path, text, option)  # whole or not at all: dekal._atomic
    wrote(path, quiet)
