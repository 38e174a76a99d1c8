"""Blame from the reference's own trace (conformance/judge/_trace.py, attribution.blame_step): the
rule blamed for a diverging field is the rule the reference applied to write it at that step;
an engine that goes on by itself is blamed on the action it played unasked; a refusal that
names no rule is blamed on what the request is about (attribution.blame_subject)."""

from __future__ import annotations

import pytest

from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.judge._attribution import Blame, blame_step, blame_subject, blame_verdict
from dekal.conformance.judge._trace import Stage, forced_action, trace_step

(GAME,) = [case for case in load_cases() if case["id"] == "game-0005"]  # 3 seats, lowest
POSITIONS = [GAME["start"]["position"]] + [step["expect"]["position"] for step in GAME["steps"]]
ACTIONS = [step["action"] for step in GAME["steps"]]


def changed(position: str, field: int, value: str) -> str:
    parts = position.split(" ")
    parts[field] = value
    return " ".join(parts)


def test_a_reveal_before_the_last_writes_only_the_picks_T1() -> None:
    trace = trace_step(POSITIONS[0], ACTIONS[0])
    assert trace is not None and trace.after == POSITIONS[1]
    assert trace.stages == (Stage("T1", ("picks",)),)


def test_the_last_reveal_of_turn_1_is_T1_then_F2_on_a_tie_then_T2_for_the_first_taker() -> None:
    trace = trace_step(POSITIONS[2], ACTIONS[2])  # seats 0 and 1 both revealed a 2
    assert trace is not None and trace.after == POSITIONS[3]
    assert [stage.rule for stage in trace.stages] == ["T1", "F2", "T2"]
    assert trace.tied == (0, 1)


def test_a_first_player_outside_the_tied_seats_is_F1_inside_them_F2() -> None:
    before, after = POSITIONS[2], POSITIONS[3]
    assert blame_step(before, ACTIONS[2], after, changed(after, 3, "2")).rule == "F1"  # a T
    assert blame_step(before, ACTIONS[2], after, changed(after, 3, "0")).rule == "F2"


def test_the_next_taker_after_a_push_is_T3_not_the_push_rule() -> None:
    before, after = POSITIONS[4], POSITIONS[5]  # push 1 T, then seat 2 takes
    assert blame_step(before, ACTIONS[4], after, changed(after, 2, "take@0")) == Blame(
        "T3", "phase"
    )


def test_the_last_take_played_unasked_after_a_push_is_T3() -> None:
    before, after = POSITIONS[6], POSITIONS[7]  # push 2 T leaves one card, a T, for seat 0
    assert forced_action(after, POSITIONS[8]) == "take 0 T"
    blame = blame_step(before, ACTIONS[6], after, POSITIONS[8])
    assert blame.rule == "T3" and "a take played unasked" in blame.field


def test_a_start_moved_on_a_later_turn_is_T2() -> None:
    later = next(n for n, p in enumerate(POSITIONS) if p.split(" ")[1] == "1.2" and "take@" in p)
    before, after = POSITIONS[later - 1], POSITIONS[later]
    moved = changed(after, 3, str((int(after.split(" ")[3]) + 1) % 3))
    assert blame_step(before, ACTIONS[later - 1], after, moved).rule == "T2"


def test_a_step_the_reference_cannot_replay_falls_back_on_the_field_name() -> None:
    after = POSITIONS[5]
    assert blame_step("", ACTIONS[4], after, changed(after, 2, "take@0")).rule == "T3"
    assert trace_step(POSITIONS[0], "take 0 5") is None  # refused there: nothing to trace


@pytest.mark.parametrize(
    ("request_", "rule"),
    [
        ({"cmd": "new_game", "rules": {"players": 2, "threshold": 1.5}}, "S4"),
        ({"cmd": "new_game", "rules": {"players": "2"}}, "M2"),
        ({"cmd": "new_game", "rules": {"players": 2, "push": "zigzag"}}, "P1"),
        ({"cmd": "new_game", "rules": {"players": 2, "first": "youngest"}}, "F3"),
        ({"cmd": "new_game", "rules": {"players": 2, "push": "eject"}}, "P2"),
        ({"cmd": "new_round", "deal": 7}, "M5"),
        ({"cmd": "deal", "seed": -1, "players": 2}, "M3"),
        ({"cmd": "deal", "seed": 1, "players": "2"}, "M2"),
        ({"cmd": "pushes", "grid": "5T32/1.44/9999/TT11"}, "P1"),
    ],
)
def test_a_refusal_that_names_no_rule_is_blamed_on_the_subject_of_the_request(
    request_: dict[str, object], rule: str
) -> None:
    assert blame_subject(request_).rule == rule


def test_result_before_the_end_is_the_end_rule_and_a_perft_depth_the_phase_rule() -> None:
    position = POSITIONS[4]  # push@1: the push rule's phase
    assert blame_subject({"cmd": "result"}, position).rule == "T5"
    assert blame_subject({"cmd": "perft", "depth": -1}, position).rule == "P1"
    match = changed(position, 0, "slide/lowest/100")
    assert blame_subject({"cmd": "result"}, match).rule == "S4"


def test_only_a_notation_refusal_is_B1_by_kind() -> None:
    bad_request = {"ok": False, "kind": "bad_request"}
    assert blame_verdict("result", POSITIONS[4], bad_request, {"cmd": "result"}).rule == "T5"
    assert (
        blame_verdict("reveal 0 e1", POSITIONS[0], {"ok": False, "kind": "notation"}).rule == "B1"
    )
