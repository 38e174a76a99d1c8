"""A trusted Python engine driven in the caller's own thread (spec/protocol.md).

`DirectEngine(factory, label, timeout)` speaks to the same engines as InProcessEngine (a game
API like dekal_ref's, or an object with `handle(request) -> reply`), with the same JSON round
trip of every request and reply, but without the worker thread: a whole suite's 66,000
thread hand-offs cost three quarters of a bundled engine's run. Each request keeps its
deadline (dekal.conformance.drive._call_watchdog): a handler still running in Python code when it
passes is interrupted, and the request is an EngineError, as in-process. What it cannot
interrupt is a call blocked inside C code, so it drives engines known to run Python only:
our bundled engines (`bundled_engine`) and the faults tests and benchmarks plant in them. A
user's engine (`--python`) keeps InProcessEngine's worker thread.

With `wire=False` requests and replies are handed over as they are, without the JSON round
trip (a third of what is left): for engines whose replies are JSON values already, such as
the protocol adapter over the reference (dekal.conformance.judge._refusal_sites runs the whole
suite on it that way, and fails if a case does not pass).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._call_watchdog import Overdue, Watchdog
from dekal.conformance.drive._engine_link import (
    DEFAULT_TIMEOUT,
    EngineError,
    EngineUnusable,
    check_reply,
    handshake,
)
from dekal.conformance.drive._protocol import Message


class DirectEngine:
    """A Python engine called in the caller's thread, requests and replies through JSON."""

    def __init__(
        self,
        factory: Callable[[], Any],
        label: str,
        timeout: float = DEFAULT_TIMEOUT,
        wire: bool = True,
    ) -> None:
        self.factory = factory
        self.label = label
        self.timeout = timeout
        self.wire = wire
        self.watchdog = Watchdog()
        self.next_id = 0
        self.info: Message = {}
        self.handler: Callable[[Message], Message] | None = None
        self.start()

    def __enter__(self) -> DirectEngine:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def start(self) -> None:
        try:
            made = self.factory()
        except Exception as error:  # the factory: any failure means unusable
            raise EngineUnusable(f"the factory failed: {type(error).__name__}: {error}") from None
        adapter = None if hasattr(made, "handle") else ProtocolAdapter(made, name=self.label)
        self.handler = made.handle if adapter is None else adapter.handle
        try:
            self.info = handshake(self, self.timeout)
        except BaseException:
            self.close()
            raise

    def request(self, message: Message, timeout: float) -> Message:
        """One request and its reply within `timeout` seconds."""
        handler = self.handler
        if handler is None:
            raise EngineError("the engine is closed")
        self.next_id += 1
        request = {"id": self.next_id, **message}
        try:
            if not self.wire:
                reply = self.watchdog.call(lambda: handler(request), timeout)
                return check_reply(reply, self.next_id)
            line = json.dumps(request)
            wired = self.watchdog.call(lambda: json.dumps(handler(json.loads(line))), timeout)
        except Overdue:
            raise EngineError(f"no reply within {timeout:.1f} s to {message['cmd']!r}") from None
        except Exception as error:  # noqa: BLE001 - an engine crash is a case error
            raise EngineError(f"the engine raised {type(error).__name__}: {error}") from None
        return check_reply(json.loads(wired), self.next_id)

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        self.handler = None
        self.watchdog.close()


def bundled_engine(name: str, timeout: float = DEFAULT_TIMEOUT) -> DirectEngine:
    """One of our own engines, `ref` or `fast`, judged in-process in the caller's thread."""
    from dekal.conformance.drive._serve import bundled_adapter

    return DirectEngine(lambda: bundled_adapter(name), f"dekal-{name}", timeout)
