"""The optional protocol features of suite v2, on the reference adapter (spec/protocol.md):
`seeded-deal` (the deals of spec/rules.md), `position` (a game started from a position, and
which positions play can reach), own-deal mode (`"deals": "own"`, `"deal": null`)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

import dekal_ref
from dekal.conformance.cases._own_deal import MODE_REASON
from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._inprocess_engine import InProcessEngine
from dekal.conformance.drive._reachable import check_reachable
from dekal.conformance.drive._serve import bundled_adapter, serve
from dekal.conformance.judge._coverage import claimed_coverage, coverage_json, coverage_text
from dekal.conformance.judge._refusal_sites import DirectReference
from dekal.conformance.judge._runner import run_suite
from dekal_ref.deal import SplitMix64, seeded_deal
from dekal_ref.errors import IllegalAction
from dekal_ref.notation import format_grid, value_symbol
from dekal_ref.position import parse_position


def ask(adapter: ProtocolAdapter, cmd: str, **fields: Any) -> dict[str, Any]:
    return adapter.handle({"id": 1, "cmd": cmd, **fields})


def deal_message(seed: int, players: int, round_number: int = 1) -> dict[str, Any]:
    deal = seeded_deal(seed, players, round_number)
    pile = "".join(value_symbol(v) for v in deal.pile) or "-"
    return {"grids": [format_grid(grid) for grid in deal.grids], "pile": pile}


# -- seeded-deal -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1])
def test_the_deal_command_is_the_seeded_deal_of_the_rules(seed: int) -> None:
    adapter = ProtocolAdapter(dekal_ref)
    for players in range(2, 7):
        reply = ask(adapter, "deal", seed=seed, players=players, round=3)
        assert reply["deal"] == deal_message(seed, players, 3)


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"seed": 2**64}, "seed"), ({"seed": -1}, "seed"), ({"round": 0}, "round")],
)
def test_a_deal_out_of_range_is_a_bad_request_naming_the_field(
    fields: dict[str, int], field: str
) -> None:
    request = {"seed": 1, "players": 2, "round": 1, **fields}
    error = ask(ProtocolAdapter(dekal_ref), "deal", **request)["error"]
    assert (error["kind"], error["field"]) == ("bad_request", field)


def test_an_engine_that_does_not_claim_seeded_deal_says_unsupported() -> None:
    adapter = ProtocolAdapter(dekal_ref, features=("match",))
    reply = ask(adapter, "deal", seed=1, players=2, round=1)
    assert reply["error"]["kind"] == "unsupported"


# -- position ----------------------------------------------------------------------------------
def random_game_positions(seed: int, players: int, threshold: int | None) -> list[str]:
    """Every position of a seeded random game (a match when `threshold`), with its deals."""
    policy = SplitMix64(seed)
    rules = dekal_ref.Rules(
        players=players, push="eject" if seed % 2 else "slide", threshold=threshold
    )
    state = dekal_ref.new_game(rules, seeded_deal(seed, players))
    positions, round_number = [dekal_ref.format_position(state)], 1
    while state.phase is not dekal_ref.Phase.OVER:
        if state.phase is dekal_ref.Phase.NEXT_ROUND:
            round_number += 1
            state = dekal_ref.start_round(state, seeded_deal(seed, players, round_number))
        else:
            actions = dekal_ref.legal_actions(state)
            state = dekal_ref.apply(state, actions[policy.next() % len(actions)])
        positions.append(dekal_ref.format_position(state))
    return positions


@pytest.mark.parametrize(("seed", "players", "threshold"), [(1, 2, None), (2, 4, 60), (3, 6, 40)])
def test_every_position_play_reaches_is_reachable_and_starts_a_game(
    seed: int, players: int, threshold: int | None
) -> None:
    """No false refusal: each position of a random game passes check_reachable, and
    new_game from it answers the same position back."""
    adapter = ProtocolAdapter(dekal_ref)
    for position in random_game_positions(seed, players, threshold):
        check_reachable(parse_position(position))
        assert ask(adapter, "new_game", position=position)["ok"], position
        assert ask(adapter, "position")["position"] == position


@pytest.mark.parametrize(
    ("field", "text", "rule"),
    [
        (8, "1", "M1"),  # a removed card too many: 101 cards
        (1, "1.17", "T5"),  # turn 17
        (3, "7", "M4"),  # a start that is no seat
        (5, "a1,a1", "T1"),  # picks after the round is scored
    ],
)
def test_an_unreachable_position_is_refused_with_the_rule_it_breaks(
    field: int, text: str, rule: str
) -> None:
    fields = random_game_positions(4, 2, None)[-1].split(" ")
    fields[field] = text
    position = " ".join(fields)
    with pytest.raises(IllegalAction) as refused:
        check_reachable(parse_position(position))
    assert refused.value.rule == rule
    reply = ask(ProtocolAdapter(dekal_ref), "new_game", position=position)
    assert (reply["ok"], reply["error"].get("rule")) == (False, rule)


# -- own-deal mode -----------------------------------------------------------------------------
def test_an_own_deal_engine_deals_its_seeded_deals_when_sent_null() -> None:
    adapter = bundled_adapter("ref", own_deal=True, seed=7)
    assert ask(adapter, "hello")["deals"] == "own"
    rules = {"players": 3, "push": "slide", "first": "chosen", "threshold": 500}
    assert ask(adapter, "new_game", rules=rules, deal=None, first_player=0)["ok"]
    grids = ask(adapter, "position")["position"].split(" ")[4]
    first = deal_message(7, 3, 1)
    letters = "|".join(
        g.translate(str.maketrans("123456789T", "abcdefghij")) for g in first["grids"]
    )
    assert grids == letters
    assert "deals" not in ask(bundled_adapter("ref"), "hello")


def test_an_own_deal_engine_with_position_runs_every_case_and_passes() -> None:
    # its adapter called in this thread (DirectReference): the mode is the question, not
    # the driver
    run = run_suite(DirectReference(lambda: bundled_adapter("ref", own_deal=True)), load_cases())
    assert run.count("skip") == 0 and run.unexpected == []
    assert {o.status for o in run.outcomes} == {"pass"}
    # refused new rounds about the deal itself (M1, M2, M3, notation) cannot be asked of it
    noted = {o.id for o in run.outcomes if o.message}
    assert noted and all("not sent" in o.message for o in run.outcomes if o.message)
    assert claimed_coverage(run).ratio == 1.0


def test_an_own_deal_engine_without_position_is_told_which_cases_it_cannot_run() -> None:
    def own_deal_no_position() -> ProtocolAdapter:
        return ProtocolAdapter(dekal_ref, deals="own", features=("match", "perft", "public"))

    cases = [c for c in load_cases() if c["id"] in ("game-0001", "M1-neg-0001", "score-0001")]
    engine = InProcessEngine(own_deal_no_position, label="own-deal, no position")
    try:
        run = run_suite(engine, cases)
    finally:
        engine.close()
    skipped = {o.id: o.message for o in run.outcomes if o.status == "skip"}
    assert skipped == {"game-0001": MODE_REASON, "M1-neg-0001": MODE_REASON}
    assert run.unexpected == [] and run.count("pass") == 1
    # counted apart: not claimed-and-not-passed, so the badge is green
    assert (claimed_coverage(run).count, claimed_coverage(run).of) == (1, 1)
    assert coverage_json(run)["cannot_run"] == {"count": 2, "reason": MODE_REASON}
    text = coverage_text(run)  # per case, as in the JSON's messages
    assert "cannot be run in this mode: 2 cases" in text and "M1-neg-0001" in text


def test_an_unreadable_line_gets_a_bad_request_with_a_null_id() -> None:
    output = io.StringIO()
    serve(bundled_adapter("ref"), io.StringIO('not json\n[1]\n{"id": 3, "cmd": "quit"}\n'), output)
    replies = [json.loads(line) for line in output.getvalue().splitlines()]
    assert [(r["id"], r["ok"]) for r in replies] == [(None, False), (None, False), (3, True)]
    assert replies[0]["error"]["kind"] == replies[1]["error"]["kind"] == "bad_request"
