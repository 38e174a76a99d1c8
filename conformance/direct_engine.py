"""A trusted Python engine driven in the caller's own thread (spec/protocol.md).

`DirectEngine(factory, label)` speaks to the same engines as InProcessEngine (a game API like
dekal_ref's, or an object with `handle(request) -> reply`), with the same JSON round trip
of every request and reply, but without the worker thread: no deadline, so an engine that
hangs hangs its caller. It is for engines known to answer (ours, and the faults the tests
plant in the reference), where a whole suite's 66,000 thread hand-offs would cost about a
third of the run. An engine that raises is an EngineError, as in-process.

With `wire=False` requests and replies are handed over as they are, without the JSON round
trip (a third of what is left): for engines whose replies are JSON values already, such as
the protocol adapter over the reference (dekal.conformance.refusal_sites runs the whole
suite on it that way, and fails if a case does not pass).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from dekal.conformance.adapter import ProtocolAdapter
from dekal.conformance.engine_link import (
    DEFAULT_TIMEOUT,
    EngineError,
    EngineUnusable,
    check_reply,
    handshake,
)
from dekal.conformance.protocol import Message


class DirectEngine:
    """A Python engine called in the caller's thread, requests and replies through JSON."""

    def __init__(self, factory: Callable[[], Any], label: str, wire: bool = True) -> None:
        self.factory = factory
        self.label = label
        self.wire = wire
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
        self.info = handshake(self, DEFAULT_TIMEOUT)

    def request(self, message: Message, timeout: float) -> Message:
        """One request and its reply; `timeout` is not enforced (see the module's note)."""
        if self.handler is None:
            raise EngineError("the engine is closed")
        self.next_id += 1
        request = {"id": self.next_id, **message}
        try:
            if not self.wire:
                return check_reply(self.handler(request), self.next_id)
            reply = json.dumps(self.handler(json.loads(json.dumps(request))))
        except Exception as error:  # noqa: BLE001 - an engine crash is a case error
            raise EngineError(f"the engine raised {type(error).__name__}: {error}") from None
        return check_reply(json.loads(reply), self.next_id)

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        self.handler = None
