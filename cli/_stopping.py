"""How a `dekal` command stops on Ctrl-C or SIGTERM: one line, exit 130 or 143, nothing left.

The signal becomes `Interrupted`, raised in the main thread wherever it runs, so that the
unwinding closes every engine (its whole process group), cancels a Z3 check and closes a
Dask cluster on its way up to `dekal.cli._app.main`, which says why in one line and exits.

That unwinding is the normal path, not a promise: Python code can swallow an exception
(a GC callback or `__del__` reports it as "unraisable" and goes on; a library's `except
BaseException` can drop it) or hang in a cleanup (distributed's cancel of 30,000 futures
took minutes). So a stop holds by construction, whatever the command:

- an `Interrupted` reported as unraisable is not printed: the signal is delivered again
  (and what else is reported as unraisable after the signal is its consequence, not news);
- STOP_GRACE seconds after the signal, if the command has not ended, it ends anyway, with
  the same line and the same code;
- either way, any process it started that is still running is killed before it exits.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

STOPPED = {
    signal.SIGINT: ("interrupted (Ctrl-C)", 128 + signal.SIGINT),  # EXIT_INTERRUPTED, 130
    signal.SIGTERM: ("terminated (SIGTERM)", 128 + signal.SIGTERM),
    signal.SIGHUP: ("hung up (SIGHUP)", 128 + signal.SIGHUP),  # a closed terminal, ssh gone
}
"""What a stopped command says and exits with, for each signal it handles (SIGHUP as
SIGTERM: a terminal closed under a command is a request to stop it, issue 29)."""


def _stopped_while_loading(signum: int, frame: object) -> None:
    """A signal before `main` runs: nothing is started yet, so nothing needs closing."""
    message, code = STOPPED[signal.Signals(signum)]
    os.write(2, f"error: {message}\n".encode())
    os._exit(code)


def stop_while_loading() -> None:
    """From now on until `stopped_by_signals`, each signal of STOPPED ends the process with
    its line and code at once (the `dekal` command calls this before its first import)."""
    for handled in STOPPED:
        signal.signal(handled, _stopped_while_loading)


AS_COMMAND = threading.Event()
"""Set by the `dekal` command's main(): this process is the command, which may end itself
at once after its answer (dekal.cli._solver.solve_run). Unset when a program or a test calls the
app in its own process: that process is never ended from inside."""
STOP_GRACE = 10.0
"""Seconds the unwinding after a signal may take (engines get TERM_GRACE each to quit, a
local Dask cluster some seconds to close) before the command ends anyway."""


class Interrupted(BaseException):
    """Ctrl-C (or SIGTERM). Not an Exception, so that no `except Exception` on the way up can
    swallow it (and not a KeyboardInterrupt, which typer turns into "Aborted!", exit 1)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_last_words = threading.Lock()
"""Held by whoever says the last line (main, or the grace timer): it is said once."""
_stop: list[int] = []
"""The signal that stops the command, once one came."""
_lost = threading.Event()
"""Set when the Interrupted raised was swallowed (reported as unraisable): raise it again."""


def _inside_z3(frame: FrameType | None) -> bool:
    """Is Python running Z3's own code (possibly a callback from C, which cannot pass an
    exception on: ctypes would print it and drop it)?"""
    z3 = sys.modules.get("z3")
    folder = os.path.dirname(getattr(z3, "__file__", None) or "/nowhere/")
    return frame is not None and frame.f_code.co_filename.startswith(folder + os.sep)


def _deliver_again(signum: int, after: float = 0.05) -> None:
    timer = threading.Timer(after, os.kill, (os.getpid(), signum))
    timer.daemon = True
    timer.start()


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """Stop whatever runs: raise Interrupted here, once (a second signal while the first
    unwinds is ignored, so that the cleanup runs to its end: STOP_GRACE bounds it)."""
    if _inside_z3(frame):  # deliver it again in a moment, outside Z3's Python code
        _deliver_again(signum)
        return
    if _stop and not _lost.is_set():
        return
    if not _stop:
        _stop.append(signum)
        grace = threading.Thread(target=_end_anyway, name="dekal stop grace", daemon=True)
        grace.start()
    _lost.clear()
    raise Interrupted(_stop[0])


def _on_unraisable(report: Any, previous: Callable[[Any], object]) -> None:
    """An Interrupted swallowed where Python cannot pass it on (a GC callback, a `__del__`):
    not a warning for the user, a stop to raise again where it can be."""
    if isinstance(report.exc_value, Interrupted):
        _lost.set()
        _deliver_again(report.exc_value.signum)
        return
    if _stop:  # a consequence of the stop (distributed's GC timer, cut mid-way, asserts)
        return
    previous(report)


def _end_anyway() -> None:
    """The grace timer: STOP_GRACE seconds after the signal, end the command whatever its
    main thread does."""
    time.sleep(STOP_GRACE)
    say_stopped_and_exit(_stop[0])


def say_stopped_and_exit(signum: int) -> None:
    """The one line of a stopped command, and its exit code (never returns). Whatever
    process it started and its unwinding did not end (or the grace timer cut) is killed."""
    message, code = STOPPED[signal.Signals(signum)]
    with _last_words:
        kill_descendants(os.getpid())
        from dekal.cli._common import err

        with contextlib.suppress(Exception):
            err.print(f"error: {message}", style="bold red")
            sys.stdout.flush()
            sys.stderr.flush()
        # everything that needed closing was closed on the way up (or killed); what is left
        # (a search's memo of millions of states) need not be freed one object at a time
        os._exit(code)


def kill_descendants(root: int) -> None:
    """SIGKILL every process below `root`, all listed before the first is killed (a killed
    process's children would be handed to init, out of sight)."""
    for pid in descendants(root):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def descendants(root: int) -> set[int]:
    """Every process below `root` (dekal.conformance.drive._process_group.descendants)."""
    from dekal.conformance.drive._process_group import descendants

    return descendants(root)


def ignore_stops() -> None:
    """From here on Ctrl-C, SIGTERM and SIGHUP are ignored: the command's work is over, and
    Python's shutdown would put their default back (which ends a process silently, killed by
    the signal) but leaves an ignored one ignored."""
    for handled in STOPPED:
        signal.signal(handled, signal.SIG_IGN)


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[None]:
    """Within: Ctrl-C and SIGTERM raise Interrupted; the caller ends with
    `say_stopped_and_exit(stop.signum)` when it reaches it."""
    previous = sys.unraisablehook
    sys.unraisablehook = lambda report: _on_unraisable(report, previous)
    for handled in STOPPED:
        signal.signal(handled, _on_signal)
    yield
