"""The `dekal` command. Each command lives in its own module and registers itself here."""

from __future__ import annotations

from importlib.metadata import version
from typing import Annotated

import typer

from dekal.cli import conformance, grid_commands, prove, solve
from dekal.cli import replay as replay_command
from dekal.cli.common import DekalGroup

app = typer.Typer(
    name="dekal",
    help=(
        "Dékal Lab: the rules of Dékal, checked by machine.\n\n"
        "Grids are written as four rows joined by '/': 53T2/1.44/9999/TT11"
        " (T is ten, '.' the hole)."
        " Every command takes --json for machines. Exit codes: 0 ok, 1 negative verdict,"
        " 2 bad input or illegal action, 3 engine under test unusable."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=DekalGroup,
)


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(f"dekal {version('dekal')}")
        raise typer.Exit()


@app.callback()
def root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Options that come before the command."""


grid_commands.register(app)
replay_command.register(app)
solve.register(app)
prove.register(app)
conformance.register(app)


def main() -> None:
    app()
