"""The JavaScript engine of examples/engines/js, an outsider written from the spec alone.

* The correct build passes the whole conformance suite (`dekal conformance run`) and plays
  seeded random games against the reference without a divergence (`dekal conformance fuzz`).
* Every deliberately broken build (`node engine.js --bug NAME`) is caught by `run`, by the
  cases of the rule it breaks (named below by their stable case IDs), and by `fuzz` within a
  few games.
* Its seeded deals (SplitMix64 + Fisher–Yates on BigInt) are the reference's, card for card.

Skipped, with the reason, when `node` is not on PATH.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import JS_WHOLE_RUNS
from typer.testing import CliRunner

from dekal.cli._app import app
from dekal.conformance.cases._vectors import load_cases
from dekal_ref.deal import seeded_deal
from dekal_ref.notation import format_grid, value_symbol

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not on PATH: the JavaScript example engine cannot run"
)

ENGINE_DIR = Path(__file__).resolve().parents[3] / "examples" / "engines" / "js"
ENGINE_JS = ENGINE_DIR / "engine.js"
runner = CliRunner()


def engine_command(bug: str | None = None) -> str:
    command = f"{shlex.quote(NODE or 'node')} {shlex.quote(str(ENGINE_JS))}"
    return command if bug is None else f"{command} --bug {bug}"


def dekal_json(*args: str) -> tuple[int, dict[str, Any]]:
    """Run a `dekal` command with --json in-process: its exit code and its JSON report."""
    result = runner.invoke(app, [*args, "--json"])
    return result.exit_code, json.loads(result.stdout)


def case_statuses(report: dict[str, Any]) -> dict[str, str]:
    (engine,) = report["engines"]
    return {case["id"]: case["status"] for case in engine["cases"]}


# Each broken build: the --filter that selects the cases of the rule it breaks, and cases
# (stable IDs of suite v2; those of v1 kept their meaning) that must be among the failures,
# the narrowest first. Suite v2 adds: shared places when not everyone shares (game-0304,
# game-0305), an F2 draw before a new round (match-0008), a later round's turn-1 reveals
# (match-0009, match-0010), a game started from a push phase (position-0004).
CAUGHT_BY: dict[str, tuple[str, set[str]]] = {
    "diagonal": ("S1", {"score-0003", "score-0007"}),
    "pairs-only": ("S1", {"score-0001", "score-0004"}),
    "highest-wins": ("S3", {"game-0001", "game-0002", "game-0304", "game-0305"}),
    "tie-more-cards": ("S3", {"game-0303"}),
    "shift-copies": ("push", {"push-0002", "push-0006"}),
    "into-hole": ("P1", {"P1-neg-0101", "pushes-0001"}),
    "token-right": ("T5", {"game-0109"}),
    "reveal-face-up": ("T1-neg", {"T1-neg-0003", "T1-neg-0004", "T1-neg-0006"}),
    "f2-highest-draw": ("F2", {"game-0103", "game-0104", "game-0107", "match-0008"}),
    "wrong-rule-id": ("T4", {"T4-neg-0003", "position-0004"}),
    "eject-wrong-card": ("P2", {"game-0203", "push-0007", "position-0004"}),
    "threshold-strict": ("S4", {"match-0003"}),
    "no-rotation": ("F4", {"match-0001", "match-0002", "match-0006", "match-0009", "match-0010"}),
    "take-leaks": ("B1", {"T3-neg-0002"}),
}

# `fuzz --seed S --games N` for each broken build. The fuzzer steers a share of its games into
# turn-1 ties for the lowest card and into matches that end exactly on their threshold, so from
# seed 0 every broken build diverges within 8 games (measured: f2-highest-draw at game 1,
# threshold-strict at game 2).
FUZZ_BUDGET: dict[str, tuple[int, int]] = {bug: (0, 8) for bug in CAUGHT_BY}


def listed_bugs() -> list[str]:
    listing = subprocess.run(
        [NODE or "node", str(ENGINE_JS), "--list-bugs"],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line.split()[0] for line in listing.stdout.splitlines() if line.strip()]


def test_every_listed_bug_has_its_expectations_and_there_are_at_least_eight() -> None:
    bugs = listed_bugs()
    assert len(bugs) >= 8
    assert sorted(bugs) == sorted(CAUGHT_BY) == sorted(FUZZ_BUDGET)


def test_an_unknown_bug_is_refused_by_name() -> None:
    result = subprocess.run(
        [NODE or "node", str(ENGINE_JS), "--bug", "no-such-bug"], capture_output=True, text=True
    )
    assert result.returncode == 2 and "unknown bug" in result.stderr and "diagonal" in result.stderr


@pytest.mark.deep
def test_the_correct_engine_passes_the_whole_suite() -> None:
    """Deep only (30 s, most of it the round trips of 220,000 requests over pipes): in the
    default run the correct build passes every case under run-vectors.mjs
    (test_js_vectors), every eighth case here, and its broken builds' whole-suite runs
    below pass every case their bug does not reach."""
    code, report = dekal_json("conformance", "run", "--engine", engine_command())
    statuses = case_statuses(report)
    assert code == 0 and report["ok"] is True
    assert report["engines"][0]["hello"]["name"] == "dekal-js"
    assert len(statuses) == len(load_cases())
    assert set(statuses.values()) == {"pass"}, "every case runs (all features claimed) and passes"


def test_the_correct_engine_passes_every_eighth_case_of_the_suite() -> None:
    """A slice through every file of the suite (every eighth case in its order), driven by
    the Python runner with its probes and blame."""
    every_eighth = [str(case["id"]) for case in load_cases()][::8]
    code, report = dekal_json(
        "conformance", "run", "--engine", engine_command(), "--filter", ",".join(every_eighth)
    )
    statuses = case_statuses(report)
    assert code == 0 and report["ok"] is True
    assert sorted(statuses) == sorted(every_eighth)
    assert set(statuses.values()) == {"pass"}


CORRECT_SEED, CORRECT_GAMES = 0, 8
"""The fuzz run the correct engine survives (it covers every broken build's budget)."""


def test_the_correct_engine_survives_the_fuzzer() -> None:
    code, summary = dekal_json(
        "conformance", "fuzz", "--engine", engine_command(),
        "--games", str(CORRECT_GAMES), "--seed", str(CORRECT_SEED),
    )  # fmt: skip
    assert code == 0 and summary["divergences"] == 0 and summary["games"] == CORRECT_GAMES
    assert summary["steps"] > 1000


def judged(report: dict[str, Any], code: int, bug: str) -> None:
    """The build's run fails, among others, the cases CAUGHT_BY names, and never errs."""
    statuses = case_statuses(report)
    failed = {case for case, status in statuses.items() if status == "fail"}
    expected_failures = CAUGHT_BY[bug][1]
    assert code == 1 and report["ok"] is False
    assert expected_failures <= failed, f"{bug}: expected {expected_failures} among {failed}"
    assert "error" not in statuses.values(), "a broken rule is a failure, not a crash"


@pytest.mark.parametrize("bug", sorted(CAUGHT_BY))
def test_a_broken_build_fails_the_cases_named_for_it(
    bug: str, js_suite_run: Callable[[str], dict[str, Any]]
) -> None:
    """The cases CAUGHT_BY names for the build (those the README shows) fail on it: judged
    on the shared whole-suite run where there is one, else on those cases alone."""
    if bug in JS_WHOLE_RUNS:  # the whole suite's run, shared with the blame and HTML tests
        done = js_suite_run(bug)
        judged(json.loads(str(done["stdout"])), int(str(done["code"])), bug)
        return
    named = ",".join(sorted(CAUGHT_BY[bug][1]))
    code, report = dekal_json(
        "conformance", "run", "--engine", engine_command(bug), "--filter", named
    )
    judged(report, code, bug)


@pytest.mark.deep
@pytest.mark.parametrize("bug", sorted(set(CAUGHT_BY) - set(JS_WHOLE_RUNS)))
def test_a_broken_build_fails_and_never_errs_on_every_case_of_its_rule(bug: str) -> None:
    """Deep only (the default run judges the named cases, and three builds on the whole
    suite): every case of the broken rule's filter runs, none errs."""
    rule_filter = CAUGHT_BY[bug][0]
    code, report = dekal_json(
        "conformance", "run", "--engine", engine_command(bug), "--filter", rule_filter
    )
    judged(report, code, bug)


@pytest.mark.parametrize("bug", sorted(FUZZ_BUDGET))
def test_a_broken_build_is_caught_by_the_fuzzer(bug: str) -> None:
    seed, games = FUZZ_BUDGET[bug]
    # what is checked is that the fuzzer finds the bug, not how far it shrinks it (that is
    # test_conformance_fuzz's): the default 10 s of shrinking was most of this test's CPU
    code, summary = dekal_json(
        "conformance",
        "fuzz",
        "--engine",
        engine_command(bug),
        "--games",
        str(games),
        "--seed",
        str(seed),
        "--shrink-seconds",
        "0",
    )
    assert code == 1 and summary["divergences"] == 1
    divergence = summary["divergence"]
    assert divergence["record"].startswith("[Format") and divergence["what"]


def test_a_correct_build_is_not_caught_on_the_fuzz_budgets_of_the_broken_ones() -> None:
    """Every broken build's fuzz budget is among the games the correct engine survives
    (test_the_correct_engine_survives_the_fuzzer): so a divergence on it is the bug's. Game
    N of `--seed S` is the same game whatever --games is (fuzz.py: game seed S·stride+N−1), so
    the first CORRECT_GAMES games of seed CORRECT_SEED cover any budget within them."""
    uncovered = {
        bug: (seed, games)
        for bug, (seed, games) in FUZZ_BUDGET.items()
        if seed != CORRECT_SEED or games > CORRECT_GAMES
    }
    assert uncovered == {}


# -- seeded deals: the same cards in JavaScript and in Python --------------------------------

DEAL_SEEDS = [0, 1, 7, 23, 42, 2026, 123456789, 2**32 + 5, 2**63 - 1, 2**64 - 1]


def js_deals(requests: list[tuple[int, int, int]]) -> list[dict[str, Any]]:
    """The JS engine's deal(seed, players, round) for each request, in one node process."""
    script = (
        "const { deal } = require(process.argv[1]);"
        "const requests = JSON.parse(process.argv[2]);"
        "console.log(JSON.stringify(requests.map(([s, p, r]) => deal(BigInt(s), p, r))));"
    )
    payload = json.dumps([[str(seed), players, rnd] for seed, players, rnd in requests])
    result = subprocess.run(
        [NODE or "node", "-e", script, str(ENGINE_DIR / "deal.js"), payload],
        capture_output=True,
        text=True,
        check=True,
    )
    deals: list[dict[str, Any]] = json.loads(result.stdout)
    return deals


def python_deal(seed: int, players: int, rnd: int) -> dict[str, Any]:
    deal = seeded_deal(seed, players, rnd)
    pile = "".join(value_symbol(value) for value in deal.pile)
    return {"grids": [format_grid(grid) for grid in deal.grids], "pile": pile or "-"}


def test_seeded_deals_are_the_same_in_javascript_and_python() -> None:
    requests = [(s, p, r) for s in DEAL_SEEDS for p in range(2, 7) for r in (1, 2, 5)]
    assert js_deals(requests) == [python_deal(*request) for request in requests]


def test_the_engine_prints_a_seeded_deal_from_the_command_line() -> None:
    result = subprocess.run(
        [NODE or "node", str(ENGINE_JS), "--deal", "42", "2", "2"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout) == python_deal(42, 2, 2)


# -- the transport: what the suite does not exercise ----------------------------------------


def talk(lines: list[str]) -> tuple[int, list[dict[str, Any]]]:
    """Send raw lines to a fresh engine, close its input; its exit code and its replies."""
    result = subprocess.run(
        [NODE or "node", str(ENGINE_JS)],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=30,
    )
    return result.returncode, [json.loads(line) for line in result.stdout.splitlines()]


def test_garbage_and_unknown_commands_get_bad_request_replies_and_the_engine_goes_on() -> None:
    code, replies = talk(
        [
            "this is not json",
            '{"id": 1, "cmd": "dance"}',
            '{"id": 2, "cmd": "position"}',
            '{"id": 3, "cmd": "score", "grid": "1111/2222/3333/444"}',
            '{"id": 4, "cmd": "score", "grid": "1111/2222/3333/4444"}',
        ]
    )
    assert code == 0
    kinds = [reply.get("error", {}).get("kind") for reply in replies]
    assert kinds == ["bad_request", "bad_request", "bad_request", "notation", None]
    assert [reply["id"] for reply in replies] == [None, 1, 2, 3, 4]
    every_cell = [column + row for row in "1234" for column in "abcd"]
    assert replies[4] == {"id": 4, "ok": True, "points": 0, "remaining": 0, "cancelled": every_cell}


def test_quit_replies_then_exits_and_nothing_after_it_is_read() -> None:
    code, replies = talk(['{"id": 9, "cmd": "quit"}', '{"id": 10, "cmd": "hello", "protocol": 1}'])
    assert code == 0 and replies == [{"id": 9, "ok": True}]


# -- the README shows what the engine and these tests say -------------------------------------


def test_the_readme_lists_the_broken_builds_and_the_cases_that_catch_them() -> None:
    readme = (ENGINE_DIR / "README.md").read_text(encoding="utf-8")
    listing = subprocess.run(
        [NODE or "node", str(ENGINE_JS), "--list-bugs"], capture_output=True, text=True, check=True
    ).stdout
    assert listing in readme
    rows = {
        cells[1].strip("` "): cells[3]
        for line in readme.splitlines()
        if line.startswith("| `") and len(cells := line.split("|")) > 4
        if not cells[1].strip("` ").endswith((".js", ".mjs"))
    }
    assert sorted(rows) == sorted(CAUGHT_BY)
    for bug, (_, expected_failures) in CAUGHT_BY.items():
        shown = {word.strip("`,") for word in rows[bug].split() if word.startswith("`")}
        assert shown == expected_failures, bug
