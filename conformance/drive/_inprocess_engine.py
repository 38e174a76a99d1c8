"""A Python engine judged in-process: a game API like dekal_ref's, or an object with
`handle(request) -> reply`, called in a worker thread with a deadline (spec/protocol.md).

`load_factory("MODULE:FACTORY")` finds a user's engine (--python). Our own engines are
driven without the worker thread (dekal.conformance.drive._direct_engine.bundled_engine).
"""

from __future__ import annotations

import ctypes
import importlib
import json
import os
import queue
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._engine_link import (
    DEFAULT_TIMEOUT,
    STARTUP_TIMEOUT,
    EngineError,
    EngineUnusable,
    check_reply,
    handshake,
)
from dekal.conformance.drive._protocol import Message

Handler = Callable[[Message], Message]

HUNG_WORKERS_LIMIT = 16
"""Timed-out in-process calls still running (they could not be stopped) at which the engine
is declared unusable, so that a run does not pile up threads without end."""

STOP_GRACE = 0.5
"""Seconds a timed-out in-process call gets to stop once told to."""


class _Stopped(BaseException):
    """Raised inside a timed-out in-process call to end its worker thread."""


def interrupt_thread(thread: threading.Thread) -> None:
    """Ask a thread to raise _Stopped at its next Python instruction (CPython's documented
    PyThreadState_SetAsyncExc: the only way to stop a thread from outside it)."""
    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(thread.ident), ctypes.py_object(_Stopped)
        )


class InProcessEngine:
    """A Python engine called in-process: an object with handle(request) -> reply, or a game
    API like dekal_ref's (wrapped in a ProtocolAdapter).

    The factory and the handler run in one worker thread, so a hang becomes a timeout.
    Requests and replies go through JSON, as they would over a pipe. When a call times out,
    `close()` (called by `restart()`) raises _Stopped inside the worker: a handler looping in
    Python code stops there. What Python cannot stop is a call blocked inside C code (a long
    `time.sleep`, a lock, a C extension's loop): that worker is left behind as a daemon thread
    (it dies with the process, or ends when the call returns), and while HUNG_WORKERS_LIMIT of
    them still run the engine cannot be restarted (EngineUnusable).
    """

    def __init__(
        self, factory: Callable[[], Any], label: str, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        self.factory = factory
        self.label = label
        self.timeout = timeout
        self.next_id = 0
        self.info: Message = {}
        self.hung: list[threading.Thread] = []  # timed-out workers that could not be stopped
        self.worker: threading.Thread | None = None
        self.requests: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.replies: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self.start()

    def __enter__(self) -> InProcessEngine:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def start(self) -> None:
        self.hung = [worker for worker in self.hung if worker.is_alive()]
        if len(self.hung) >= HUNG_WORKERS_LIMIT:
            raise EngineUnusable(
                f"{len(self.hung)} timed-out calls still run in code Python cannot interrupt "
                "(a sleep, a lock, C code)"
            )
        self.requests, self.replies = queue.SimpleQueue(), queue.SimpleQueue()
        self.worker = threading.Thread(
            target=self._work,
            args=(self.factory, self.label, self.requests, self.replies),
            name=f"engine {self.label}",
            daemon=True,
        )
        self.worker.start()
        try:
            tag, value = self.replies.get(timeout=max(self.timeout, STARTUP_TIMEOUT))
        except queue.Empty:
            self.close()
            raise EngineUnusable(
                f"the factory did not return within {max(self.timeout, STARTUP_TIMEOUT):g} s"
            ) from None
        if tag == "crash":
            raise EngineUnusable(f"the factory failed: {type(value).__name__}: {value}")
        try:
            self.info = handshake(self, self.timeout)
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _work(
        factory: Callable[[], Any],
        label: str,
        requests: queue.SimpleQueue[str | None],
        replies: queue.SimpleQueue[tuple[str, Any]],
    ) -> None:
        try:
            try:
                made = factory()
                handler: Handler = (
                    made.handle
                    if hasattr(made, "handle")
                    else ProtocolAdapter(made, name=label).handle
                )
            except Exception as error:  # the user's factory: any failure means unusable
                replies.put(("crash", error))
                return
            replies.put(("ready", None))
            while (line := requests.get()) is not None:
                try:
                    reply = handler(json.loads(line))
                    replies.put(("reply", json.dumps(reply)))
                except _Stopped:
                    raise
                except BaseException as error:  # noqa: BLE001 - an engine crash is a case error
                    replies.put(("crash", error))
        except _Stopped:
            return

    def request(self, message: Message, timeout: float) -> Message:
        self.next_id += 1
        message = {"id": self.next_id, **message}
        self.requests.put(json.dumps(message))
        try:
            tag, value = self.replies.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"no reply within {timeout:.1f} s to {message['cmd']!r}") from None
        if tag == "crash":
            raise EngineError(f"the engine raised {type(value).__name__}: {value}")
        return check_reply(json.loads(value), self.next_id)

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        """End the worker: at once when it is idle; a busy (timed-out) one is interrupted."""
        worker, self.worker = self.worker, None
        if worker is None:
            return
        self.requests.put(None)
        worker.join(0.05)
        if worker.is_alive():
            interrupt_thread(worker)
            worker.join(STOP_GRACE)
        if worker.is_alive():
            self.hung.append(worker)

    def diagnostics(self) -> str:
        running = sum(worker.is_alive() for worker in self.hung)
        return f"{running} timed-out call(s) could not be stopped and still run" if running else ""


def import_within(name: str, seconds: float) -> ModuleType:
    """Import a user's module in a helper thread, so that one looping at import is stopped
    (as a timed-out in-process call is) instead of hanging the command."""
    outcome: list[ModuleType | BaseException] = []

    def load() -> None:
        try:
            outcome.append(importlib.import_module(name))
        except BaseException as error:  # noqa: BLE001 - handed to the caller below
            outcome.append(error)

    helper = threading.Thread(target=load, name=f"import {name}", daemon=True)
    helper.start()
    helper.join(seconds)
    if helper.is_alive():
        interrupt_thread(helper)
        raise ValueError(f"importing {name} did not finish within {seconds:g} s")
    (loaded,) = outcome
    if isinstance(loaded, BaseException):
        raise loaded
    return loaded


def load_factory(spec: str) -> Callable[[], Any]:
    """`MODULE:FACTORY` -> the factory. Python implementations are judged in-process with it.

    Every way the module can fail to provide one (not found, a syntax error, an exception
    while importing, an import that does not finish within STARTUP_TIMEOUT, no such
    callable) is a ValueError with a one-line message naming it.
    """
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"{spec!r}: write MODULE:FACTORY, like mypackage.engine:make_engine")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` would: the user's modules first
    try:
        module = import_within(module_name, STARTUP_TIMEOUT)
    except SyntaxError as error:
        where = f"{os.path.basename(error.filename or module_name)}, line {error.lineno}"
        raise ValueError(f"{module_name} does not compile: {error.msg} ({where})") from None
    except ModuleNotFoundError as error:
        raise ValueError(f"cannot import {module_name}: {error}") from None
    except (Exception, SystemExit) as error:  # the user's module: whatever it raises
        said = " ".join(str(error).split())[:200]
        raise ValueError(
            f"importing {module_name} raised {type(error).__name__}" + (f": {said}" if said else "")
        ) from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(f"{module_name} has no callable {attribute!r}")
    return factory  # type: ignore[no-any-return]
