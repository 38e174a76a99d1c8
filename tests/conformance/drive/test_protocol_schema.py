"""spec/schemas/protocol.schema.json: the JSON Schemas of every protocol request and reply.

* Every command of spec/protocol.md (section 3) has a request and a reply definition.
* Every transcript of every Markdown page validates: the ```protocol blocks (`>` a request, `<` its
  reply) and the request/`→` reply examples of protocol.md's ```json blocks. An example the
  page abridges (a string holding `…`, a list or object ending `, …`) is checked for its
  shape: the elided items are left out, and an abridged string only for its type.
* The bundled engines' replies over a smoke run match them (`--strict-protocol`), and a reply
  that breaks them fails its case naming the field.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from support.doc_pages import pages
from typer.testing import CliRunner

from dekal.cli._app import app
from dekal.conformance.cases._needs import smoke_cases
from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.drive._direct_engine import bundled_engine
from dekal.conformance.drive._engine_link import Engine, EngineUnusable
from dekal.conformance.drive._protocol import Message
from dekal.conformance.drive._protocol_schema import (
    StrictProtocolEngine,
    field_path,
    protocol_schema,
    reply_definition,
    validator,
    violations,
)
from dekal.conformance.judge._runner import run_suite

ROOT = Path(__file__).resolve().parents[3]
PROTOCOL = ROOT / "spec" / "protocol.md"
ELIDED = "…"
COMMANDS = {
    "hello", "new_game", "action", "position", "legal", "result", "new_round", "perft",
    "score", "pushes", "push", "deal", "quit",
}  # fmt: skip
runner = CliRunner()


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(protocol_schema())


def test_every_command_of_protocol_md_has_a_request_and_a_reply_definition() -> None:
    headings = re.findall(r"^### (`.*)$", PROTOCOL.read_text("utf-8"), re.MULTILINE)
    commands = {
        name for heading in headings for name in re.findall(r"`(\w+)`", heading.split("(")[0])
    }
    definitions = set(protocol_schema()["$defs"])
    assert commands == COMMANDS
    assert {f"{c}_request" for c in commands} | {f"{c}_reply" for c in commands} <= definitions


# -- the transcripts of the docs ----------------------------------------------------------------
def abridged_json(text: str) -> Any:
    """A docs example read as JSON, its elisions (`, …` before a closing bracket) left out."""
    return json.loads(re.sub(r",\s*…\s*(?=[\]}])", "", text))


def excused(error: Any, elided_items: bool) -> bool:
    """Whether a schema error is only the page's abridging: a pattern on a string holding …,
    a list too short where items were elided, or a combinator one of whose branches fails only
    so."""
    if error.validator == "pattern":
        return isinstance(error.instance, str) and ELIDED in error.instance
    if error.validator == "minItems":
        return elided_items
    if error.validator in ("oneOf", "anyOf"):
        branches: dict[object, list[Any]] = {}
        for inner in error.context:
            branches.setdefault(inner.relative_schema_path[0], []).append(inner)
        return any(all(excused(e, elided_items) for e in errors) for errors in branches.values())
    return False


def shape_problems(message: object, definition: str, elided_items: bool = False) -> list[str]:
    """What is wrong with a docs example, its abridging excused."""
    return [
        f"{field_path(error.absolute_path)}: {error.message}"
        for error in validator(definition).iter_errors(message)
        if not excused(error, elided_items)
    ]


Pair = tuple[str, Message, Message, bool]  # page, request, reply, items elided from the reply


def protocol_transcripts(page: str, text: str) -> list[Pair]:
    """The (request, reply) pairs of a page's ```protocol blocks (`>` then `<` lines)."""
    pairs = []
    for block in re.findall(r"```protocol\n(.*?)```", text, re.DOTALL):
        request: Message = {}
        for line in block.splitlines():
            if line.startswith("> "):
                request = json.loads(line[2:])
            elif line.startswith("< "):
                pairs.append((page, request, json.loads(line[2:]), False))
    return pairs


def json_examples(page: str, text: str) -> list[Pair]:
    """The (request, reply) pairs of ```json blocks: a request object, then `→` and its
    reply without `"id"` and `"ok": true`, each possibly over several lines."""
    pairs = []
    for block in re.findall(r"```json\n(.*?)```", text, re.DOTALL):
        for example in re.split(r"\n\s*\n", block.strip()):
            if "→" not in example:
                continue
            request_text, _, reply_text = example.partition("→")
            request, reply = abridged_json(request_text), abridged_json(reply_text)
            elided = re.search(r",\s*…\s*[\]}]", reply_text) is not None
            pairs.append((page, request, {"id": request["id"], "ok": True, **reply}, elided))
    return pairs


OTHER_PROTOCOLS = {"spec/bot-protocol.md": "the bot protocol: other messages, its own page"}
"""Pages whose transcripts speak another protocol than the engine's, and why."""


def transcript_pairs() -> list[Pair]:
    found = []
    for page in pages():
        name, text = page.relative_to(ROOT).as_posix(), page.read_text("utf-8")
        if name in OTHER_PROTOCOLS:
            continue
        found += protocol_transcripts(name, text) + json_examples(name, text)
    return found


PAIRS = transcript_pairs()


def test_the_docs_show_a_transcript_of_every_command() -> None:
    shown = {str(request["cmd"]) for _, request, _, _ in PAIRS}
    assert shown == COMMANDS


@pytest.mark.parametrize(
    ("page", "request_", "reply", "elided"),
    PAIRS,
    ids=[f"{page}:{request['id']}:{request['cmd']}" for page, request, _, _ in PAIRS],
)
def test_every_transcript_of_the_docs_matches_the_schema(
    page: str, request_: Message, reply: Message, elided: bool
) -> None:
    assert shape_problems(request_, f"{request_['cmd']}_request", elided) == []
    definition = reply_definition(request_, reply)
    assert definition is not None
    assert shape_problems(reply, definition, elided) == []


# -- replies checked by the runner --------------------------------------------------------------
def test_a_violation_names_the_field_it_is_in() -> None:
    reply = {"id": 3, "ok": True, "points": 4, "remaining": 2, "cancelled": ["a1", "e9"]}
    (first, *_) = violations(reply, "score_reply")
    assert (first.field, first.value) == ("cancelled[1]", "e9")
    assert field_path(["scores", 0, "points"]) == "scores[0].points"


def test_an_illegal_refusal_must_name_its_rule() -> None:
    refusal = {"id": 3, "ok": False, "error": {"kind": "illegal", "message": "no"}}
    assert [v.field for v in violations(refusal, "refusal")] == ["error"]
    assert violations({**refusal, "error": {**refusal["error"], "rule": "T3"}}, "refusal") == []


class Misshapen:
    """The reference, with the reply to one command reshaped by `change` (a planted fault)."""

    def __init__(self, cmd: str, change: Any) -> None:
        self.inner = bundled_engine("ref")
        self.label, self.info = "misshapen", self.inner.info
        self.cmd, self.change = cmd, change

    def request(self, message: Message, timeout: float) -> Message:
        reply = self.inner.request(message, timeout)
        return self.change(reply) if message["cmd"] == self.cmd and reply.get("ok") else reply

    def restart(self) -> None:
        self.inner.restart()

    def close(self) -> None:
        self.inner.close()


def strict_run(engine: Engine, ids: set[str]) -> Any:
    cases = [case for case in load_cases() if case["id"] in ids]
    return run_suite(StrictProtocolEngine(engine), cases)


def seatless(reply: Message) -> Message:
    """A result whose scores do not say their seat (the runner reads them in seat order)."""
    return {
        **reply,
        "scores": [{k: v for k, v in s.items() if k != "seat"} for s in reply["scores"]],
    }


def test_a_reply_that_breaks_the_schema_fails_its_case_naming_the_field() -> None:
    run = strict_run(Misshapen("result", seatless), {"game-0001"})
    (outcome,) = run.outcomes
    assert outcome.status == "fail" and outcome.divergence is not None
    assert outcome.divergence.field == "reply field scores[0]"
    assert "'seat' is a required property" in outcome.divergence.what


def test_without_strict_protocol_the_same_reply_passes() -> None:
    """The runner compares the values it needs, and reads scores in seat order: only the
    schema sees the missing `seat` (what --strict-protocol adds)."""
    cases = [case for case in load_cases() if case["id"] == "game-0001"]
    assert run_suite(Misshapen("result", seatless), cases).outcomes[0].status == "pass"


def test_a_hello_that_breaks_the_schema_cannot_be_run_strictly() -> None:
    engine = Misshapen("hello", lambda reply: reply)
    engine.info = {**engine.info, "players": ["two"]}
    with pytest.raises(EngineUnusable, match=r"players\[0\]"):
        StrictProtocolEngine(engine)


def test_the_reference_replies_match_the_schema_over_a_smoke_run() -> None:
    engine = bundled_engine("ref")
    cases = smoke_cases(load_cases(), engine.info)
    run = run_suite(StrictProtocolEngine(engine), cases)
    assert len(run.outcomes) >= 40 and run.count("pass") == len(run.outcomes)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_the_javascript_engine_replies_match_the_schema_over_a_smoke_run() -> None:
    js = ROOT / "examples" / "engines" / "js" / "engine.js"
    result = runner.invoke(
        app,
        ["conformance", "run", "--engine", f"node {js}", "--smoke", "--strict-protocol", "--json"],
    )
    (engine,) = json.loads(result.stdout)["engines"]
    assert result.exit_code == 0 and engine["summary"]["fail"] == 0
    assert engine["summary"]["pass"] >= 40


def test_abridging_excuses_only_the_elided_parts() -> None:
    shown = abridged_json(
        '{"id": 6, "ok": true, "scores": [{"seat": 0, "points": "19", "remaining": 5,'
        ' "cancelled": ["a1"]}, …], "totals": [19, 31], "ranking": []}'
    )
    assert shape_problems(shown, "result_reply", elided_items=True) == [
        "scores[0].points: '19' is not of type 'integer'"
    ]
