"""What the conformance runner needs from a driven engine (spec/protocol.md, section 1).

An engine is driven over the protocol by one of two drivers (dekal.conformance.
subprocess_engine, inprocess_engine); both send one request, wait for one reply with a
deadline, and check it here. Anything that is not a well-formed reply — the process died,
said nothing in time, printed something that is not a JSON object, echoed the wrong id, or
(in-process) raised — is an EngineError: the runner marks the case errored, calls
`restart()` and goes on. An engine that cannot start or complete `hello` is EngineUnusable.
"""

from __future__ import annotations

from typing import Protocol

from dekal.conformance.drive._engine_text import cleaned, visible
from dekal.conformance.drive._protocol import PROTOCOL_VERSION, Message

DEFAULT_TIMEOUT = 10.0


class EngineError(Exception):
    """The engine crashed, hung, or broke the protocol's framing. The message may quote the
    engine: it is made `visible` (dekal.conformance.drive._engine_text)."""

    def __init__(self, message: object = "") -> None:
        super().__init__(visible(str(message)))


class EngineUnusable(Exception):
    """The engine cannot be started or does not complete the handshake (exit code 3). The
    message may quote the engine (its stderr): it is made `visible`."""

    def __init__(self, message: object = "") -> None:
        super().__init__(visible(str(message)))


class Engine(Protocol):
    """What the runner needs from a driven engine."""

    label: str
    info: Message

    def request(self, message: Message, timeout: float) -> Message: ...
    def restart(self) -> None: ...
    def close(self) -> None: ...


def check_reply(reply: object, expected_id: int) -> Message:
    """A reply must be a JSON object echoing the id with a boolean `ok`; its strings are
    made `visible` here, before anything of the judge reads them."""
    reply = cleaned(reply)
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
