"""What every `dekal` command shares: exit codes, error reporting, JSON output, grid pictures.

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

from dekal.engines import ENGINE_NAMES, GameAPI, get_engine
from dekal_ref.errors import DekalError, IllegalAction, NotationError
from dekal_ref.notation import HOLE, SIZE, value_symbol

EXIT_OK = 0
EXIT_VERDICT = 1
EXIT_BAD_INPUT = 2
EXIT_ENGINE = 3
EXIT_UNPROVED = 4
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C

out = Console(highlight=False, soft_wrap=True)
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


def grid_picture(
    grid: tuple[int, ...], marked: frozenset[int] = frozenset(), title: str = ""
) -> Text:
    """A 4×4 picture with column letters and row digits; marked cells are bracketed and dim.

    Brackets carry the meaning on their own, so the picture reads the same without colour.
    """
    text = Text()
    if title:
        text.append(title + "\n", style="bold")
    text.append("     a   b   c   d\n", style="dim")
    for row in range(SIZE):
        text.append(f"  {row + 1} ", style="dim")
        for column in range(SIZE):
            cell = row * SIZE + column
            symbol = value_symbol(grid[cell]) if grid[cell] != HOLE else "."
            if cell in marked:
                text.append(f"[{symbol}]", style="strike dim")
            else:
                text.append(f" {symbol} ", style="bold" if grid[cell] != HOLE else "dim")
            text.append(" ")
        text.append("\n")
    return text


ENGINE_HELP = (
    "Engine that computes the result: fast (dekal, packed 64-bit grids, the default) or ref"
    " (dekal_ref, the literal reference). Both must agree: run both to cross-check."
)


def engine_by_name(name: str) -> GameAPI:
    """The engine named by --engine, or a one-line error (exit 2) naming the choices."""
    if name not in ENGINE_NAMES:
        fail(f"--engine {name!r}: choose one of {', '.join(ENGINE_NAMES)}")
    return get_engine(name)
