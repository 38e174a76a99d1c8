"""What the hostile-input tests of advise, play and puzzle share (tests/test_hostile_*.py,
tests/bots/test_advise_oracle.py): the error convention of issue 13 asserted, the positions they
start from, and random games on the reference engine.

Whatever the position, the options or standard input, these commands end with a documented
exit code and never a traceback; a refusal is one line on standard error naming the field or
the rule, or under --json one object {"error": {...}} on standard output.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from test_advise import deciding_seat as deciding_seat  # re-exported: one definition
from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal_ref import Rules
from dekal_ref.actions import NewRound, apply, legal_actions
from dekal_ref.deal import seeded_deal
from dekal_ref.game import new_game
from dekal_ref.state import GameState, Phase

DEKAL = str(Path(sys.executable).with_name("dekal"))
BOUND = 120  # seconds: a subprocess that takes longer has hung
runner = CliRunner()

LAST_PUSH = (
    "slide/lowest/single 1.16 push@0:3 0 T491/8437/8837/555.|1112/TT82/T72T/T62T -,- - #68 - 0,0"
)
TAKE = "slide/lowest/single 1.15 take@1 1 TTT2/T338/T917/5.?4|3518/2688/7427/.?21 -,- 5T #68 - 0,0"
FIRST_REVEAL_6 = (
    "slide/lowest/single 1.1 reveal - "
    + "|".join(["????/????/????/????"] * 6)
    + " -,-,-,-,-,- - #4 - 0,0,0,0,0,0"
)
HOSTILE = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def dekal(*args: str, stdin: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


def assert_refused(result: Result, json_mode: bool) -> dict[str, str]:
    """Exit 2, no traceback, and the one error convention; the error object (or its line)."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    if json_mode:
        lines = result.stdout.splitlines()
        assert len(lines) == 1, result.stdout
        error: dict[str, str] = json.loads(lines[0])["error"]
        assert error["kind"] != "illegal" or "rule" in error
        assert "rule" in error or "field" in error, error
        return error
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    return {"message": lines[0]}


def assert_handled(result: Result, json_mode: bool) -> None:
    """Either an answer (exit 0) or a refusal by the convention."""
    if result.exit_code == 0:
        assert result.exception is None
        if json_mode:
            assert len(result.stdout.splitlines()) == 1
            json.loads(result.stdout)
        return
    assert_refused(result, json_mode)


def random_game(rules: Rules, seed: int) -> Iterator[GameState]:
    """Every state of one game on the reference engine, random legal actions (plain loop)."""
    rng = random.Random(seed)
    first = 0 if rules.first == "chosen" else None
    state = new_game(rules, seeded_deal(seed, rules.players), first)
    rounds = 1
    while state.phase is not Phase.OVER:
        yield state
        if state.phase is Phase.NEXT_ROUND:
            rounds += 1
            state = apply(state, NewRound(seeded_deal(seed, rules.players, rounds)))
        else:
            state = apply(state, rng.choice(legal_actions(state)))
    yield state


rules_strategy = st.builds(
    Rules,
    players=st.integers(2, 6),
    push=st.sampled_from(["slide", "eject"]),
    first=st.sampled_from(["lowest", "chosen"]),
    threshold=st.sampled_from([None, 30]),
)


def midgame_state(phase: Phase = Phase.TAKE, players: int = 2, seed: int = 5) -> GameState:
    """A state of a random reference game, past turn 2, in the phase asked for."""
    for state in random_game(Rules(players=players), seed):
        if state.turn > 2 and state.phase is phase:
            return state
    raise AssertionError("no such state")
