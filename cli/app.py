"""The `dekal` command. Each command lives in its own module and registers itself here."""

from __future__ import annotations

import os
import signal
import sys


def _interrupted_while_loading(signum: int, frame: object) -> None:
    """Ctrl-C before `main` runs: nothing is started yet, so nothing needs closing."""
    os.write(2, b"error: interrupted (Ctrl-C)\n")
    os._exit(130)


if os.path.basename(sys.argv[0] if sys.argv else "") == "dekal":
    # this process is the `dekal` command (not a test importing it): the modules below take
    # a noticeable time to load, and a Ctrl-C meanwhile must not print a traceback either
    signal.signal(signal.SIGINT, _interrupted_while_loading)

import threading  # noqa: E402 - after the handler above, as every import below
from importlib.metadata import version  # noqa: E402
from types import FrameType  # noqa: E402
from typing import Annotated  # noqa: E402

import typer  # noqa: E402

from dekal.cli import conformance, grid_commands, prove, solve  # noqa: E402
from dekal.cli import replay as replay_command  # noqa: E402
from dekal.cli.common import EXIT_INTERRUPTED, err  # noqa: E402

app = typer.Typer(
    name="dekal",
    help=(
        "Dékal Lab: the rules of Dékal, checked by machine.\n\n"
        "Grids are written as four rows joined by '/': 53T2/1.44/9999/TT11"
        " (T is ten, '.' the hole)."
        " Every command takes --json for machines. Exit codes: 0 ok, 1 negative verdict,"
        " 2 bad input or illegal action, 3 engine under test unusable, 4 answered but not"
        " proved within the time limit (dekal solve), 130 interrupted (Ctrl-C)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
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


class Interrupted(BaseException):
    """Ctrl-C (or SIGTERM). Not an Exception, so that no `except Exception` on the way up can
    swallow it (and not a KeyboardInterrupt, which typer turns into "Aborted!", exit 1)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


STOPPED = {
    signal.SIGINT: ("interrupted (Ctrl-C)", EXIT_INTERRUPTED),
    signal.SIGTERM: ("terminated (SIGTERM)", 128 + signal.SIGTERM),
}
"""What `main` says and exits with for each signal it handles."""


def _inside_z3(frame: FrameType | None) -> bool:
    """Is Python running Z3's own code (possibly a callback from C, which cannot pass an
    exception on: ctypes would print it and drop it)?"""
    z3 = sys.modules.get("z3")
    folder = os.path.dirname(getattr(z3, "__file__", None) or "/nowhere/")
    return frame is not None and frame.f_code.co_filename.startswith(folder + os.sep)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """Stop whatever runs: the unwinding closes engines (their whole process groups) and
    cancels a Z3 check (`proofs.limits.z3_check`) on its way up to `main`."""
    if _inside_z3(frame):  # deliver it again in a moment, outside Z3's Python code
        threading.Timer(0.05, os.kill, (os.getpid(), signum)).start()
        return
    for handled in STOPPED:  # the cleanup on the way up runs to its end
        signal.signal(handled, signal.SIG_IGN)
    raise Interrupted(signum)


def main() -> None:
    """The `dekal` command: a Ctrl-C exits with 130 (a SIGTERM with 143) and one line, never
    a traceback, and leaves no engine process behind."""
    for handled in STOPPED:
        signal.signal(handled, _on_signal)
    try:
        app()
    except Interrupted as stop:
        message, code = STOPPED[signal.Signals(stop.signum)]
        err.print(f"error: {message}", style="bold red")
        sys.stdout.flush()
        sys.stderr.flush()
        # everything that needed closing was closed on the way up; what is left (a search's
        # memo of millions of states) need not be freed one object at a time
        os._exit(code)
