"""The conformance vectors check themselves: schema, stable unique IDs, manifest, coverage of
every rule, and a fresh derivation from the source that must equal the frozen files."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from dekal.conformance import PROTOCOL_VERSION, SUITE_VERSION, generate, sources
from dekal.conformance.vectors import load_cases, manifest, schema, suite_directory

ROOT = Path(__file__).resolve().parents[1]
RULINGS_IDS = [
    f"{letter}{n}"
    for letter, count in (("M", 5), ("T", 5), ("P", 2), ("F", 4), ("S", 4), ("B", 1))
    for n in range(1, count + 1)
]
BREAKABLE = {"M1", "M2", "M3", "M4", "M5", "T1", "T3", "T4", "T5", "P1", "P2", "F1", "F3", "S4"}
"""Rules an action or a set-up can break (the others say how the game goes: T2 first player,
F2 ties, F4 rotation, S1–S3 scoring; B1 is the refusal itself)."""


@pytest.fixture(scope="module")
def cases() -> list[dict[str, object]]:
    return load_cases()


def spec_rule_ids() -> list[str]:
    """The rule IDs of spec/rules.md (its `### X9.` headings), else those of RULINGS.md."""
    rules = ROOT / "spec" / "rules.md"
    if rules.is_file():
        found = re.findall(r"^### ([MTPFSB][0-9])\. ", rules.read_text("utf-8"), re.MULTILINE)
        if found:
            return found
    return RULINGS_IDS


def test_every_case_validates_against_the_schema(cases: list[dict[str, object]]) -> None:
    validator = jsonschema.Draft202012Validator(schema())
    jsonschema.Draft202012Validator.check_schema(schema())
    bad = {
        str(c["id"]): next(iter(validator.iter_errors(c))).message
        for c in cases
        if not validator.is_valid(c)
    }
    assert bad == {}


def test_the_schema_rejects_broken_cases(cases: list[dict[str, object]]) -> None:
    """The schema is not a rubber stamp: typical corruptions are caught."""
    validator = jsonschema.Draft202012Validator(schema())
    game = next(c for c in cases if c["kind"] == "game")
    refused_step = next(
        c
        for c in cases
        if c["kind"] == "game" and any(not s["expect"]["ok"] for s in c["steps"])  # type: ignore[union-attr, index]
    )
    broken = [
        {**game, "id": "game-12"},  # not four digits
        {**game, "rules": ["Q7"]},  # no such rule
        {**game, "level": "may"},
        {k: v for k, v in game.items() if k != "steps"},
        {
            **refused_step,
            "steps": [{"action": "take 0 5", "expect": {"ok": False}}],
        },  # untyped refusal
        {**game, "start": {**game["start"], "position": "slide/lowest 1.1"}},  # type: ignore[dict-item]
    ]
    assert [validator.is_valid(case) for case in broken] == [False] * len(broken)


def test_ids_are_unique_and_never_reuse_a_retired_one(cases: list[dict[str, object]]) -> None:
    counts = Counter(str(c["id"]) for c in cases)
    assert [case_id for case_id, n in counts.items() if n > 1] == []
    assert set(sources.RETIRED).isdisjoint(counts)


def test_the_manifest_matches_the_files() -> None:
    data = manifest()
    jsonschema.validate(data, schema("conformance-manifest"))
    assert (data["suite"], data["protocol"]) == (SUITE_VERSION, PROTOCOL_VERSION)
    directory = suite_directory()
    listed = set(data["files"])
    present = {entry.name for entry in directory.iterdir() if entry.name.endswith(".jsonl")}
    assert listed == present
    total = 0
    for name, entry in data["files"].items():
        raw = directory.joinpath(name).read_bytes()
        assert hashlib.sha256(raw).hexdigest() == entry["sha256"], name
        assert len(raw.decode().splitlines()) == entry["cases"], name
        total += entry["cases"]
    assert total == data["cases"]


def test_vectors_rederive_identically_from_their_source() -> None:
    """The frozen files are exactly what the reference answers today: never stale."""
    fresh = generate.render(generate.all_cases())
    directory = suite_directory()
    stale = [
        name for name, text in fresh.items() if directory.joinpath(name).read_text("utf-8") != text
    ]
    assert stale == [], "run: python -m dekal.conformance.generate (and review the diff)"


def test_every_rule_has_a_positive_case_and_breakable_ones_a_negative_case(
    cases: list[dict[str, object]],
) -> None:
    """A positive case lists the rule and expects no refusal naming it (the rule applied);
    a negative case expects a refusal naming exactly that rule."""
    positive: set[str] = set()
    negative: set[str] = set()
    for case in cases:
        refusals = _refused_rules(case)
        negative |= refusals
        positive |= {str(rule) for rule in case["rules"]} - refusals  # type: ignore[attr-defined]
    gaps = [f"{rule}: no positive case" for rule in spec_rule_ids() if rule not in positive]
    gaps += [
        f"{rule}: no negative case"
        for rule in spec_rule_ids()
        if rule in BREAKABLE and rule not in negative
    ]
    assert gaps == []


def _refused_rules(case: dict[str, object]) -> set[str]:
    """The rule IDs a case expects in refusals (typed negative expectations)."""
    found: set[str] = set()
    expect = case.get("expect")
    if isinstance(expect, dict) and expect.get("ok") is False and "rule" in expect:
        found.add(str(expect["rule"]))
    for step in case.get("steps", []):  # type: ignore[attr-defined]
        if not step["expect"]["ok"] and "rule" in step["expect"]:
            found.add(step["expect"]["rule"])
    return found


def test_negative_ids_name_the_rule_they_expect(cases: list[dict[str, object]]) -> None:
    """`T3-neg-0002` expects at least one refusal with exactly T3."""
    wrong = []
    for case in cases:
        prefix = str(case["id"]).split("-")[0]
        if "-neg-" in str(case["id"]) and prefix != "B1" and prefix not in _refused_rules(case):
            wrong.append(case["id"])
    assert wrong == []


def test_the_suite_is_plentiful(cases: list[dict[str, object]]) -> None:
    kinds = Counter(str(c["kind"]) for c in cases)
    assert kinds["score"] >= 300 and kinds["push"] >= 300 and kinds["pushes"] == 32
    assert kinds["perft"] >= 10 and kinds["game"] >= 60 and kinds["setup"] >= 8
    players = Counter(c["needs"].get("players") for c in cases if c["kind"] == "game")  # type: ignore[union-attr]
    assert all(players[n] for n in range(2, 7))


def test_traps_are_present(cases: list[dict[str, object]]) -> None:
    """Corner holes, eject full lines, F2 re-draws and the pile fallback, shared victories,
    the exact threshold: each has a case whose observations show it."""
    by_id = {str(c["id"]): c for c in cases}
    shared = by_id["game-0301"]["steps"][-1]["expect"]["result"]["ranking"]  # type: ignore[index]
    assert [r["place"] for r in shared] == [1, 1]
    fewer = by_id["game-0303"]["steps"][-1]["expect"]["result"]  # type: ignore[index]
    points = [s["points"] for s in fewer["scores"]]
    assert (
        points[0] == points[1]
        and fewer["ranking"][0]["place"] == 1
        and fewer["ranking"][1]["place"] == 2
    )
    exact = by_id["match-0003"]
    threshold = exact["setup"]["rules"]["threshold"]  # type: ignore[index]
    final = exact["steps"][-1]["expect"]  # type: ignore[index]
    assert max(final["result"]["totals"]) == threshold and " over " in final["position"]
    fallback = by_id["game-0105"]["steps"][5]["expect"]["position"]  # type: ignore[index]
    assert fallback.split()[3] == "1"  # five seats tied on a 1, four cards in the pile: seat 1
    zero = by_id["perft-0016"]["expect"]  # type: ignore[index]
    assert zero["nodes"] == 0 and list(zero["divide"].values()) == [0]


def test_frozen_files_are_one_json_object_per_line() -> None:
    for entry in suite_directory().iterdir():
        if entry.name.endswith(".jsonl"):
            for line in entry.read_text("utf-8").splitlines():
                assert isinstance(json.loads(line), dict)
