"""The `dekal` command. Each command lives in its own module, imported only when it is used.

`dekal --help` and `dekal score` must start in a blink, so the root knows each command by
name and one-line summary only (COMMANDS below). A command's module (and whatever heavy
library it needs: NumPy, Z3) is imported when that command is run, asked for its --help, or
completed in the shell: Click's "lazily loading subcommands" pattern.

A reader that stops early (`dekal replay game | head`) is not an error of ours: the command
stops quietly with exit code 141, what a Unix tool killed by SIGPIPE reports (128 + 13), so
`set -o pipefail` scripts treat it like `yes | head`; never 1, which means a negative verdict.

Ctrl-C stops any command at once with exit code 130 (SIGTERM: 143) and one line, never a
traceback: `main` turns the signal into an exception that unwinds through every engine
(closing its whole process group) and every Z3 check (cancelled), then exits.
"""

from __future__ import annotations

import os
import signal
import sys

from dekal.cli._stopping import AS_COMMAND, stop_while_loading

if os.path.basename(sys.argv[0] if sys.argv else "") == "dekal":
    if "__mp_main__" in sys.modules:
        # a process the command spawned (multiprocessing's spawn: a local Dask cluster's
        # worker), which runs the `dekal` script again as __mp_main__ with the command's
        # argv: the command answers a Ctrl-C for all, so a worker still starting must not
        # print the line too (dekal.simulation._local_worker ignores it once started)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    else:
        # this process is the `dekal` command (not a test importing it): the modules below
        # take a noticeable time to load, and a Ctrl-C, SIGTERM or SIGHUP meanwhile must not
        # print a traceback either, nor end the command without its line
        stop_while_loading()

import errno  # noqa: E402 - after the handler above, as every import below
import importlib  # noqa: E402
from collections.abc import Iterator, MutableMapping  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from functools import cache  # noqa: E402
from typing import TYPE_CHECKING, Annotated, Any  # noqa: E402

import typer  # noqa: E402
import typer.main  # noqa: E402
from typer.core import TyperCommand, TyperGroup  # noqa: E402

from dekal._streams import EXIT_NOT_WRITTEN, StreamLost, lost_exit, say  # noqa: E402
from dekal._streams import install as install_streams  # noqa: E402
from dekal.cli._home import guard_home  # noqa: E402
from dekal.cli._stopping import (  # noqa: E402
    Interrupted,
    ignore_stops,
    kill_descendants,
    say_stopped_and_exit,
    stopped_by_signals,
)
from dekal.conformance.drive._process_group import adopt_orphans  # noqa: E402
from dekal_ref.reading import shown  # noqa: E402

if TYPE_CHECKING:  # typer vendors Click there; only the type checker looks
    from typer._click import Command, Context, HelpFormatter

EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: the reader closed the pipe (see the module docstring)


@dataclass(frozen=True)
class Entry:
    """A command as the root knows it before importing it: its module in dekal.cli (without
    the leading underscore: "show" is dekal.cli._show, "solver.solve" the wing's module
    dekal.cli._solver.solve), and its summary."""

    module: str
    summary: str


COMMANDS = {
    "score": Entry("grid_commands", "Score grids as at the end of a round (rules S1, S2)."),
    "push": Entry("grid_commands", "Insert a card into a grid by a push (rules P1, P2)."),
    "show": Entry("show", "Draw a grid or a position, as text or SVG."),
    "replay": Entry("replay", "Play a game record and tell the game turn by turn."),
    "solve": Entry("solver.solve", "Find the lowest score a grid can still reach, with proof."),
    "puzzle": Entry("solver.puzzle", "Solve a rated puzzle: find the one best first move."),
    "prove": Entry("solver.prove", "Prove the optimized engine means what the spec says."),
    "advise": Entry("bots.advise", "Each legal action of one seat: expected score and P(win)."),
    "play": Entry("play", "Play a game of Dékal at the terminal against bots."),
    "annotate": Entry("bots.annotate", "Judge every decision of a game record, as advise would."),
    "simulate": Entry("simulate", "Play many seeded games between bots: who wins, with 95% CIs."),
    "bots": Entry("bots.check", "Check bots against the bot protocol (spec/bot-protocol.md)."),
    "match": Entry(
        "bots.match", "Play bots against each other on paired deals: Elo, SPRT, ratings."
    ),
    "conformance": Entry(
        "conformance", "Judge a Dékal implementation, in any language, rule by rule."
    ),
}  # fmt: skip
"""Every command, in the order a new user meets them (the order of `dekal --help`)."""


def _use_dekal_help(app: typer.Typer) -> None:
    """Every command of `app` and of its sub-apps is a DekalCommand: man-page help and the one
    error convention (dekal.cli._common), whether or not its module said so."""
    from dekal.cli._common import DekalCommand

    for command in app.registered_commands:
        if command.cls in (None, TyperCommand):  # typer fills in its own class when none is given
            command.cls = DekalCommand
    for group in app.registered_groups:
        if group.typer_instance is not None:
            _use_dekal_help(group.typer_instance)


@cache
def commands_of(module_name: str) -> dict[str, Command]:
    """Import dekal.cli._`module_name` and build the commands its `register(app)` declares."""
    module = importlib.import_module(f"dekal.cli._{module_name}")
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    module.register(app)
    _use_dekal_help(app)
    from dekal.cli._completion import attach

    return {name: attach(command) for name, command in typer.main.get_group(app).commands.items()}


class LazyCommands(MutableMapping[str, "Command"]):
    """The root's commands: every name is known, a command is built when it is looked up."""

    def __init__(self) -> None:
        self.added: dict[str, Command] = {}

    def __getitem__(self, name: str) -> Command:
        if name in self.added:
            return self.added[name]
        if name not in COMMANDS:
            raise KeyError(name)
        return commands_of(COMMANDS[name].module)[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self.added[name] = command

    def __delitem__(self, name: str) -> None:
        del self.added[name]

    def __iter__(self) -> Iterator[str]:
        yield from COMMANDS
        yield from (name for name in self.added if name not in COMMANDS)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class DekalGroup(TyperGroup):
    """The root group: lists commands from COMMANDS, imports one only when it is used."""

    def __init__(self, **attributes: Any) -> None:
        super().__init__(**attributes)
        self.commands = LazyCommands()

    def list_commands(self, ctx: Context) -> list[str]:
        return list(self.commands)

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        from typer._click.exceptions import UsageError

        try:
            return super().resolve_command(ctx, args)
        except UsageError as error:  # an unknown command: one line, or JSON under --json
            from dekal.cli._common import unknown_command

            unknown_command(ctx, args, error)

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, entry.summary) for name, entry in COMMANDS.items()])

    def invoke(self, ctx: Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
            return result
        except BrokenPipeError:
            # Nothing more can be written; send what is buffered nowhere so exit stays quiet.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(EXIT_BROKEN_PIPE) from None


app = typer.Typer(
    name="dekal",
    cls=DekalGroup,
    help=(
        "Dékal Lab: the rules of Dékal, checked by machine.\n\n"
        "Grids are written as four rows joined by '/': 53T2/1.44/9999/TT11"
        " (T is ten, '.' the hole)."
        " Every command takes --json for machines and -h for its help with examples."
        " Exit codes: 0 ok, 1 negative verdict, 2 bad input or illegal action,"
        " 3 engine under test unusable, 4 answered but not proved within the time limit"
        " (dekal solve), 130 interrupted (Ctrl-C), 141 the reader closed the pipe."
    ),
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version  # costs 40 ms: only when asked

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


def main() -> None:
    """The `dekal` command: a Ctrl-C exits with 130 (a SIGTERM with 143, a SIGHUP with 129)
    and one line, never a traceback, and leaves no process behind (dekal.cli._stopping); a
    standard stream that is closed, full or gone is one line and its exit code
    (dekal._streams); so is a system limit met anywhere (descriptors, file size, disk)."""
    AS_COMMAND.set()
    install_streams()
    guard_home()  # a missing $HOME: the libraries' caches go to a private folder
    adopt_orphans()  # what any process started leaves behind is handed to this one
    with stopped_by_signals():
        try:
            app()
        except Interrupted as stop:
            say_stopped_and_exit(stop.signum)
        except StreamLost as lost:
            code = lost_exit(lost)
            kill_descendants(os.getpid())
            raise SystemExit(code) from None
        except OSError as error:  # a limit met where no command expected it: one line
            say(f"error: {system_limit(error)}")
            kill_descendants(os.getpid())
            raise SystemExit(EXIT_NOT_WRITTEN) from None
        finally:
            kill_descendants(os.getpid())  # a daemon an engine or a worker left, adopted
            # done: a signal from now on comes after the command's end, which it keeps
            ignore_stops()


def system_limit(error: OSError) -> str:
    """An OSError no command caught, said in one line: what failed and on which file."""
    why = error.strerror or str(error)
    named = error.filename if isinstance(error.filename, str) else None
    hint = _HINTS.get(error.errno or 0, "")
    return f"{shown(named)}: {why}{hint}" if named else f"{why}{hint}"


_HINTS = {
    errno.EMFILE: " (too many open files: raise `ulimit -n`, or use fewer --workers)",
    errno.ENFILE: " (the system's table of open files is full)",
    errno.EFBIG: " (a file would pass `ulimit -f`)",
    errno.ENOSPC: " (the disk is full)",
}
