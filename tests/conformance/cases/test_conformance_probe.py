"""Negative probing (dekal.conformance.cases._probe, suite v3): at the positions a game reaches, the
actions the reference refuses, frozen with its refusal; an engine that accepts one of them,
names another rule, or moves on a refusal fails the run."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

import dekal_ref
from dekal.conformance.cases._probe import Prober, candidates, read, refused_candidates
from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.drive._inprocess_engine import InProcessEngine
from dekal.conformance.judge._runner import run_suite
from dekal_ref.state import Phase

CASES = load_cases()
GAMES = [case for case in CASES if case["kind"] == "game"]


def probed(case: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(position, action, refusal) of every frozen probe of a game case."""
    found = [(case["start"]["position"], a, r) for a, r in case["start"].get("probes", [])]
    for step in case["steps"]:
        found += [(step["expect"]["position"], a, r) for a, r in step.get("probes", [])]
    return found


ALL_PROBES = [probe for case in GAMES for probe in probed(case)]


def test_every_game_case_is_probed() -> None:
    assert [case["id"] for case in GAMES if not probed(case)] == []


def test_no_probe_is_a_legal_action() -> None:
    """A probe is an action the reference refuses; the light reading that picks candidates
    agrees with dekal_ref's own list of legal actions (every tenth game, every position)."""
    wrong = []
    for case in GAMES[::10]:
        positions = [case["start"]["position"]] + [
            s["expect"]["position"] for s in case["steps"] if s["expect"].get("ok")
        ]
        for position in positions:
            legal = {str(a) for a in dekal_ref.legal_actions(dekal_ref.parse_position(position))}
            guessed = {c.action for c in candidates(read(position)) if c.legal}
            refused = {c.action for c in refused_candidates(position)}
            if refused & legal or guessed - legal:
                wrong.append(position)
    assert wrong == []


def _probes_with(verb: str, phase: str, refusal: str) -> list[tuple[str, str, str]]:
    return [
        (position, action, rule)
        for position, action, rule in ALL_PROBES
        if action.startswith(verb) and position.split()[2].startswith(phase) and rule == refusal
    ]


def test_a_seat_that_pushed_is_probed_with_a_reveal_while_others_take() -> None:
    """T1: the reveal phase is over for every seat, the one done with its push included."""
    done = [
        (position, action)
        for position, action, rule in _probes_with("reveal", "take@", "T1")
        if _standing(position, int(action.split()[1])) == "done"
    ]
    assert len(done) >= 20


def test_a_wrong_seat_is_probed_with_a_push_its_own_grid_forbids() -> None:
    """Competing refusals: the seat is not the one to push (T4) and its own hole forbids the
    push (P1/P2); T4 is due."""
    competing = []
    for position, action, _ in _probes_with("push", "push@", "T4"):
        seat, push = int(action.split()[1]), action.split()[2]
        grids = position.split()[4].split("|")
        grid = grids[seat].replace("/", "") if seat < len(grids) else ""
        if grid.count(".") == 1 and _forbidden(grid.index("."), push, position):
            competing.append(action)
    assert len(competing) >= 20


def test_the_seat_numbered_as_the_player_count_is_probed_in_every_phase() -> None:
    phases = {
        position.split()[2].split("@")[0]
        for position, action, rule in ALL_PROBES
        if int(action.split()[1]) == len(position.split()[4].split("|")) and rule == "M4"
    }
    assert phases == {"reveal", "take", "push"}


@pytest.mark.parametrize(
    ("phase", "rule"), [("over", "T5"), ("over", "S4"), ("next", "M5")], ids=str
)
def test_after_a_game_or_between_rounds_every_verb_and_seat_gets_the_end_rule(
    phase: str, rule: str
) -> None:
    """Precedence: a finished game (T5), a finished match (S4), a match between rounds (M5)
    come before the seat (M4) and the phase rules, for every verb."""
    found = {
        action.split()[0]
        for position, action, refusal in ALL_PROBES
        if position.split()[2] == phase and refusal == rule
    }
    assert found == {"reveal", "take", "push"}
    assert not [
        action
        for position, action, refusal in ALL_PROBES
        if position.split()[2] == phase and refusal not in ("T5", "S4", "M5")
    ]


def test_a_game_is_probed_with_each_situation_at_one_position() -> None:
    """Within one game a situation is probed where it first appears, never again later (the
    bound that keeps a run short)."""
    again = []
    for case in GAMES:
        where: dict[tuple[str, ...], str] = {}
        for position, action, _ in probed(case):
            situation = next(c for c in refused_candidates(position) if c.action == action)
            if where.setdefault(situation.situation, position) != position:
                again.append((case["id"], action))
    assert again == []


def test_the_prober_chooses_what_a_fresh_game_would_be_probed_with() -> None:
    position = GAMES[0]["start"]["position"]
    actions = [probe.action for probe in Prober().probes(position)]
    assert actions == [action for action, _ in GAMES[0]["start"]["probes"]]


def _standing(position: str, seat: int) -> str:
    from dekal.conformance.cases._probe import standing

    return standing(read(position), seat)


def _forbidden(hole: int, push: str, position: str) -> bool:
    variant = position.split()[0].split("/")[0]
    return push not in {str(p) for p in dekal_ref.legal_pushes(hole, variant)}


# -- engines that slip past every scripted step but not past the probes ----------------------
def _api(**overrides: Any) -> SimpleNamespace:
    names = {name: getattr(dekal_ref, name) for name in dir(dekal_ref) if not name.startswith("_")}
    return SimpleNamespace(**{**names, **overrides})


def _reveal_late(state: Any, seat: int, cell: int) -> Any:
    """Fault: a seat that has taken and pushed may reveal again while others still take (the
    reveal is kept as its pick for the next turn)."""
    if state.phase is Phase.TAKE and state.picks[seat] is None and state.to_act != seat:
        from dataclasses import replace

        picks = state.picks[:seat] + (cell,) + state.picks[seat + 1 :]
        return replace(state, picks=picks)
    return dekal_ref.reveal(state, seat, cell)


def _push_checks_the_grid_first(state: Any, seat: int, move: Any) -> Any:
    """Fault: competing refusals checked in the wrong order (the push before the seat)."""
    if state.phase is Phase.PUSH and seat != state.to_act and 0 <= seat < state.players:
        from dekal_ref.push import hole_of, push_chain

        grid = state.grids[seat]
        if sum(card is None for card in grid) == 1:
            push_chain(hole_of(grid), move, state.rules.push)  # raises P1/P2 when forbidden
    return dekal_ref.push(state, seat, move)


def _judge(api: Any) -> list[str]:
    engine = InProcessEngine(lambda: api, "faulty", timeout=5)
    try:
        run = run_suite(engine, GAMES, timeout=5)
    finally:
        engine.close()
    return [o.id for o in run.unexpected]


@pytest.mark.parametrize(
    "fault", [_reveal_late, _push_checks_the_grid_first], ids=lambda f: f.__name__
)
def test_probes_catch_what_no_scripted_step_sends(fault: Any) -> None:
    overrides = {"reveal": fault} if fault is _reveal_late else {"push": fault}
    assert _judge(_api(**overrides)) != []
