"""What every `dekal` command shares: exit codes, error reporting, JSON output, grid pictures.

The pictures themselves are drawn by dekal.cli.pictures.

Exit codes (docs/cli.md):
    0  success
    1  the command ran and its verdict is negative (a conformance failure, a proof
       counterexample, two solver methods that disagree)
    2  bad input: malformed notation, an illegal action, a bad option (typer also uses 2
       for usage errors)
    3  an engine under test could not be started or driven at all
    4  answered, but not proved within the time limit (`dekal solve`: the best witness
       found is printed; no verdict at all counts here too)
  130  interrupted (Ctrl-C)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from dekal.cli.pictures import grid_picture as grid_picture  # re-exported: the commands' pictures
from dekal.engines import ENGINE_NAMES, GameAPI, get_engine
from dekal_ref.errors import DekalError, IllegalAction, NotationError

EXIT_OK = 0
EXIT_VERDICT = 1
EXIT_BAD_INPUT = 2
EXIT_ENGINE = 3
EXIT_UNPROVED = 4
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C


class _Output(Console):
    """Standard output. A closed pipe is passed up to the root command, which exits quietly
    with 141 (cli/app.py); rich's own handling would exit 1, the code of a negative verdict."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


out = _Output(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """One line on standard error, no traceback, and a meaningful exit code."""
    err.print(Text(f"error: {message}", style="bold red"))
    raise typer.Exit(code)


def describe(error: DekalError) -> str:
    """The one-line message for an error: illegal actions name their rule ID."""
    if isinstance(error, IllegalAction):
        return f"illegal (rule {error.rule}): {error.message}"
    if isinstance(error, NotationError):
        return f"malformed {error.field}: {error.message}"
    return str(error)


@contextmanager
def user_errors(prefix: str = "") -> Iterator[None]:
    """Turn a Dékal error raised inside the block into a one-line error and exit code 2."""
    try:
        yield
    except DekalError as error:
        fail(prefix + describe(error))


def print_json(payload: Any) -> None:
    """One JSON object on one line, for machines."""
    sys.stdout.write(json.dumps(payload, separators=(",", ":"), ensure_ascii=False) + "\n")
    sys.stdout.flush()


ENGINE_HELP = (
    "Engine that computes the result: fast (dekal, packed 64-bit grids, the default) or ref"
    " (dekal_ref, the literal reference). Both must agree: run both to cross-check."
)


def engine_by_name(name: str) -> GameAPI:
    """The engine named by --engine, or a one-line error (exit 2) naming the choices."""
    if name not in ENGINE_NAMES:
        fail(f"--engine {name!r}: choose one of {', '.join(ENGINE_NAMES)}")
    return get_engine(name)
