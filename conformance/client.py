"""Driving an engine over the protocol: as a subprocess, or in-process (spec/protocol.md).

Both drivers send one request and wait for one reply with a deadline. Anything that is not a
well-formed reply — the process died, said nothing in time, printed something that is not a
JSON object, echoed the wrong id, or (in-process) raised — is an EngineError: the runner
marks the case errored, calls `restart()` and goes on.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import queue
import shlex
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from dekal.conformance import PROTOCOL_VERSION
from dekal.conformance.adapter import ProtocolAdapter
from dekal.conformance.protocol import Message
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import read_json
from dekal_ref.reading import shown

DEFAULT_TIMEOUT = 10.0


class EngineError(Exception):
    """The engine crashed, hung, or broke the protocol's framing."""


class EngineUnusable(Exception):
    """The engine cannot be started or does not complete the handshake (exit code 3)."""


class Engine(Protocol):
    """What the runner needs from a driven engine."""

    label: str
    info: Message

    def request(self, message: Message, timeout: float) -> Message: ...
    def restart(self) -> None: ...
    def close(self) -> None: ...


def check_reply(reply: object, expected_id: int) -> Message:
    """A reply must be a JSON object echoing the id with a boolean `ok`."""
    if not isinstance(reply, dict):
        raise EngineError(f"the reply is not a JSON object: {str(reply)[:120]!r}")
    if reply.get("id") != expected_id:
        raise EngineError(f"the reply echoes id {reply.get('id')!r}, expected {expected_id}")
    if not isinstance(reply.get("ok"), bool):
        raise EngineError("the reply has no boolean 'ok'")
    if not reply["ok"]:
        error = reply.get("error")
        if not isinstance(error, dict) or not isinstance(error.get("kind"), str):
            raise EngineError("a refusing reply needs an 'error' object with a 'kind'")
    return reply


STARTUP_TIMEOUT = 15.0
"""Seconds an engine gets to answer hello: start-up (an interpreter, a JVM) is not a case."""


def handshake(engine: Engine, timeout: float) -> Message:
    """Send hello; EngineUnusable if the engine cannot answer it or speaks another protocol."""
    try:
        reply = engine.request(
            {"cmd": "hello", "protocol": PROTOCOL_VERSION}, max(timeout, STARTUP_TIMEOUT)
        )
    except EngineError as error:
        raise EngineUnusable(f"no answer to hello: {error}") from None
    if not reply.get("ok"):
        raise EngineUnusable(f"hello refused: {reply.get('error')}")
    if reply.get("protocol") != PROTOCOL_VERSION:
        raise EngineUnusable(
            f"the engine speaks protocol {reply.get('protocol')!r}; "
            f"this runner speaks {PROTOCOL_VERSION}"
        )
    info = {key: value for key, value in reply.items() if key not in ("id", "ok")}
    problem = hello_problem(info)
    if problem:
        raise EngineUnusable(f"hello: {problem} (see spec/protocol.md, 'hello')")
    return info


def hello_problem(info: Message) -> str | None:
    """What is wrong with a hello reply's claims, if anything."""
    players, variants, features = (
        info.get("players"),
        info.get("variants"),
        info.get("features", []),
    )
    if not isinstance(players, list) or not all(isinstance(p, int) for p in players):
        return "'players' must be a list of numbers"
    if not isinstance(variants, dict):
        return "'variants' must be an object with 'push' and 'first' lists"
    for name in ("push", "first"):
        listed = variants.get(name)
        if not isinstance(listed, list) or not all(isinstance(v, str) for v in listed):
            return f"'variants.{name}' must be a list of names"
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        return "'features' must be a list of names"
    return None


class SubprocessEngine:
    """An engine program started from a command line, spoken to over its stdin/stdout."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command = command
        self.label = command
        self.timeout = timeout
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr_tail: deque[str] = deque(maxlen=20)
        self.next_id = 0
        self.info: Message = {}
        self.start()

    def start(self) -> None:
        try:
            args = shlex.split(self.command)
            self.process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except (OSError, ValueError) as error:
            raise EngineUnusable(f"cannot start {self.command!r}: {error}") from None
        self.lines = queue.Queue()
        process = self.process
        threading.Thread(target=self._pump_stdout, args=(process, self.lines), daemon=True).start()
        threading.Thread(target=self._pump_stderr, args=(process,), daemon=True).start()
        self.info = handshake(self, self.timeout)

    @staticmethod
    def _pump_stdout(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    def _pump_stderr(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            self.stderr_tail.append(line.rstrip("\n"))

    def request(self, message: Message, timeout: float) -> Message:
        process = self.process
        if process is None or process.stdin is None:
            raise EngineError("the engine is not running")
        self.next_id += 1
        message = {"id": self.next_id, **message}
        try:
            process.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            raise EngineError(f"the engine exited (status {process.poll()})") from None
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineError(f"no reply within {timeout:.1f} s to {message['cmd']!r}")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                time.sleep(0.05)  # let the exit status settle for the message
                raise EngineError(f"the engine exited (status {process.poll()})")
            if line.strip():
                break
        try:
            reply = read_json(line, "reply")
        except NotationError as error:  # not JSON, too deep, NaN: never a crash of the judge
            garbage = shown(line.strip())
            raise EngineError(f"garbage on stdout: {garbage} ({error.message})") from None
        return check_reply(reply, self.next_id)

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if process.poll() is None and process.stdin is not None:
                process.stdin.write(json.dumps({"id": 0, "cmd": "quit"}) + "\n")
                process.stdin.flush()
                process.stdin.close()
        try:
            process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    def diagnostics(self) -> str:
        return "\n".join(self.stderr_tail)


Handler = Callable[[Message], Message]


class InProcessEngine:
    """A Python engine called in-process: an object with handle(request) -> reply, or a game
    API like dekal_ref's (wrapped in a ProtocolAdapter).

    The handler runs in one worker thread so that a hang becomes a timeout; a hung worker is
    abandoned (a daemon thread with its own queues) and the engine is rebuilt from its factory.
    Requests and replies go through JSON, as they would over a pipe.
    """

    def __init__(
        self, factory: Callable[[], Any], label: str, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        self.factory = factory
        self.label = label
        self.timeout = timeout
        self.next_id = 0
        self.info: Message = {}
        self.requests: queue.Queue[str | None] = queue.Queue()
        self.replies: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.start()

    def start(self) -> None:
        try:
            made = self.factory()
        except Exception as error:  # the user's factory: any failure means unusable
            raise EngineUnusable(f"the factory failed: {type(error).__name__}: {error}") from None
        handler: Handler = (
            made.handle
            if hasattr(made, "handle")
            else ProtocolAdapter(made, name=self.label).handle
        )
        self.requests, self.replies = queue.Queue(), queue.Queue()
        threading.Thread(
            target=self._work, args=(handler, self.requests, self.replies), daemon=True
        ).start()
        self.info = handshake(self, self.timeout)

    @staticmethod
    def _work(
        handler: Handler, requests: queue.Queue[str | None], replies: queue.Queue[tuple[str, Any]]
    ) -> None:
        while (line := requests.get()) is not None:
            try:
                reply = handler(json.loads(line))
                replies.put(("reply", json.dumps(reply)))
            except BaseException as error:  # noqa: BLE001 - an engine crash is a case error
                replies.put(("crash", error))

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
        self.requests.put(None)

    def diagnostics(self) -> str:
        return ""


def load_factory(spec: str) -> Callable[[], Any]:
    """`MODULE:FACTORY` -> the factory. Python implementations are judged in-process with it."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"{spec!r}: write MODULE:FACTORY, like mypackage.engine:make_engine")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` would: the user's modules first
    module = importlib.import_module(module_name)
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(f"{module_name} has no callable {attribute!r}")
    return factory  # type: ignore[no-any-return]


def bundled_engine(name: str, timeout: float = DEFAULT_TIMEOUT) -> InProcessEngine:
    """One of our own engines, `ref` or `fast`, judged in-process."""
    from dekal.conformance.serve import bundled_adapter

    return InProcessEngine(lambda: bundled_adapter(name), f"dekal-{name}", timeout)
