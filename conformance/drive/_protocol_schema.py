"""Every protocol reply checked against spec/schemas/protocol.schema.json (--strict-protocol).

The schema holds one definition per request (`CMD_request`), per successful reply
(`CMD_reply`) and `refusal` for every reply with `"ok": false` (spec/protocol.md, sections 1
and 3). `StrictProtocolEngine` wraps a driven engine: every reply it gives is checked against
the definition of the command it answers, and the first that does not match raises
ProtocolViolation, naming the field (`scores[0].points`) and what is wrong with it. The
runner turns it into a failure of the case in flight (dekal.conformance.judge._runner).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

import jsonschema  # type: ignore[import-untyped, unused-ignore]

from dekal.conformance.drive._engine_link import Engine, EngineUnusable
from dekal.conformance.drive._protocol import Message
from dekal_ref.reading import shortened

SCHEMA_FILE = "spec/schemas/protocol.schema.json"


@functools.cache
def protocol_schema() -> dict[str, Any]:
    """The schema of the protocol's messages, as installed with the package (dekal.spec)."""
    text = resources.files("dekal.spec").joinpath("schemas", "protocol.schema.json")
    schema: dict[str, Any] = json.loads(text.read_text("utf-8"))
    return schema


@functools.cache
def validator(definition: str) -> Any:
    schema = protocol_schema()
    return jsonschema.Draft202012Validator(
        {"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]},
        format_checker=None,
    )


def definitions() -> frozenset[str]:
    return frozenset(protocol_schema()["$defs"])


@dataclass(frozen=True)
class Violation:
    """The first way a message fails its definition: where (a JSON path) and what."""

    definition: str
    field: str  # `scores[0].points`; `(the message)` for the message itself
    message: str  # jsonschema's own words, shortened
    value: object

    def __str__(self) -> str:
        return f"{self.field}: {self.message} ({self.definition}, {SCHEMA_FILE})"


def field_path(path: Any) -> str:
    """A jsonschema path as the field it names: `scores[0].points`."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(the message)"


def violations(message: object, definition: str) -> list[Violation]:
    """Every place `message` breaks `definition`, the deepest (most precise) first."""
    errors = sorted(
        validator(definition).iter_errors(message),
        key=lambda error: (-len(error.absolute_path), list(map(str, error.absolute_path))),
    )
    return [
        Violation(
            definition,
            field_path(error.absolute_path),
            shortened(error.message, 160),
            error.instance,
        )
        for error in errors
    ]


def reply_definition(request: Message, reply: Message) -> str | None:
    """The definition a reply to `request` must match; None for a command the schema does
    not define (an unknown command is answered with a refusal, checked as such)."""
    if reply.get("ok") is False:
        return "refusal"
    name = f"{request.get('cmd')}_reply"
    return name if name in definitions() else None


def reply_violation(request: Message, reply: Message) -> Violation | None:
    """The first way `reply` breaks the definition of a reply to `request`, or None."""
    definition = reply_definition(request, reply)
    if definition is None:
        return None
    found = violations(reply, definition)
    return found[0] if found else None


class ProtocolViolation(Exception):
    """A reply that does not match the protocol's schema (--strict-protocol)."""

    def __init__(self, request: Message, violation: Violation) -> None:
        super().__init__(f"the reply to {request.get('cmd')!r} breaks the schema: {violation}")
        self.request = request
        self.violation = violation


class StrictProtocolEngine:
    """A driven engine whose every reply is checked against the protocol's schema.

    The hello reply is checked when the engine is wrapped and after each restart: an engine
    whose hello breaks the schema cannot be run strictly (EngineUnusable, exit code 3)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.label = engine.label
        self._check_hello()

    @property
    def info(self) -> Message:
        return self.engine.info

    @info.setter
    def info(self, value: Message) -> None:
        self.engine.info = value

    def _check_hello(self) -> None:
        hello = {"id": 1, "ok": True, **self.engine.info}
        found = violations(hello, "hello_reply")
        if found:
            raise EngineUnusable(f"hello breaks the protocol's schema: {found[0]}")

    def request(self, message: Message, timeout: float) -> Message:
        reply = self.engine.request(message, timeout)
        violation = reply_violation(message, reply)
        if violation is not None:
            raise ProtocolViolation(message, violation)
        return reply

    def restart(self) -> None:
        self.engine.restart()
        self._check_hello()

    def close(self) -> None:
        self.engine.close()

    def diagnostics(self) -> str:
        return str(getattr(self.engine, "diagnostics", lambda: "")())


def shown_value(value: object) -> str:
    return shortened(json.dumps(value, ensure_ascii=False, default=str), 200)
