"""docs/vectors.md ("Run the vectors in your own test framework") says what is true.

* Every case it shows (a ```json case block) is the suite's case of that ID, field for field.
* Every transcript it shows (a ```protocol block) is what the reference answers, messages
  aside; every one of its messages matches the protocol's schema (tests/test_protocol_schema).
* Its table of kinds names every kind of case the case schema allows, and the README and
  docs/validate.md link to it. Its console examples run with every page's
  (tests/docs/test_docs_examples.py).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from test_conformance_docs import without_messages

from dekal.conformance.cases._vectors import load_cases, schema
from dekal.conformance.drive._serve import bundled_adapter, serve

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "vectors.md"
TEXT = PAGE.read_text("utf-8")
CASES = {str(case["id"]): case for case in load_cases()}


def blocks(info: str) -> list[str]:
    return re.findall(rf"```{info}\n(.*?)```", TEXT, re.DOTALL)


@pytest.mark.parametrize("shown", blocks("json case"), ids=lambda text: json.loads(text)["id"])
def test_every_case_the_page_shows_is_the_suites(shown: str) -> None:
    case = json.loads(shown)
    assert case == CASES[case["id"]]


@pytest.mark.parametrize("transcript", blocks("protocol"))
def test_every_transcript_the_page_shows_is_what_the_reference_answers(transcript: str) -> None:
    lines = transcript.splitlines()
    requests = [line[2:] for line in lines if line.startswith("> ")]
    shown = [json.loads(line[2:]) for line in lines if line.startswith("< ")]
    output = io.StringIO()
    hello = '{"id":0,"cmd":"hello","protocol":1}'
    serve(bundled_adapter("ref"), io.StringIO("\n".join([hello, *requests]) + "\n"), output)
    answered = [json.loads(line) for line in output.getvalue().splitlines()][1:]
    assert [without_messages(r) for r in answered] == [without_messages(r) for r in shown]


def test_the_table_of_kinds_names_every_kind_of_case() -> None:
    table = TEXT.split("## The kinds of case")[1].split("\n\n")[1]
    named = set(re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE))
    assert named == set(schema()["properties"]["kind"]["enum"])


@pytest.mark.parametrize("page", ["README.md", "docs/validate.md"])
def test_the_page_is_linked_from(page: str) -> None:
    assert "vectors.md" in (ROOT / page).read_text("utf-8")
