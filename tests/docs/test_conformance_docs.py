"""docs/validate.md and spec/protocol.md: their protocol transcript is replayed on the
reference engine (every reply must match, `message` texts aside) and the cases protocol.md
cites exist. Their console examples (which run validate.md's Python example engine) are run,
with every other page's, by tests/docs/test_docs_examples.py."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from dekal.conformance.drive._serve import bundled_adapter, serve

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "validate.md"
PROTOCOL = ROOT / "spec" / "protocol.md"


def blocks(language: str, doc: Path = DOC) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", doc.read_text("utf-8"), re.DOTALL)


def without_messages(reply: dict[str, object]) -> dict[str, object]:
    error = reply.get("error")
    if isinstance(error, dict):
        reply = {**reply, "error": {k: v for k, v in error.items() if k != "message"}}
    return {k: v for k, v in reply.items() if k != "version"}


@pytest.mark.parametrize("doc", [DOC, PROTOCOL], ids=["validate.md", "protocol.md"])
def test_the_protocol_transcript_is_what_the_reference_answers(doc: Path) -> None:
    (transcript,) = blocks("protocol", doc)
    requests = [line[2:] for line in transcript.splitlines() if line.startswith("> ")]
    shown = [json.loads(line[2:]) for line in transcript.splitlines() if line.startswith("< ")]
    output = io.StringIO()
    serve(bundled_adapter("ref"), io.StringIO("\n".join(requests) + "\n"), output)
    answered = [json.loads(line) for line in output.getvalue().splitlines()]
    assert [without_messages(r) for r in answered] == [without_messages(r) for r in shown]


def test_every_case_protocol_md_cites_exists_in_the_suite() -> None:
    """protocol.md answers implementers' questions by naming cases (`proto-0004`,
    `B1-neg-0101` … `B1-neg-0127`): each named ID is a case of the default suite."""
    from dekal.conformance.cases._vectors import load_cases

    ids = {str(case["id"]) for case in load_cases()}
    cited = set(
        re.findall(
            r"`((?:[A-Z][0-9]-neg|proto|deal|position|game|push|match)-[0-9]{4})`",
            PROTOCOL.read_text("utf-8"),
        )
    )
    assert len(cited) >= 30 and sorted(cited - ids) == []
