"""Suite v4's cases of every phase that are no designed game: perft at every depth in every
phase, seeded deals of every round, positions loaded or refused in every phase, and deals
refused at a new game and at a new round.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import dekal_ref
from dekal.conformance.cases._designed_rounds import Shortage
from dekal.conformance.cases._generate_games import position_needs
from dekal.conformance.cases._v4_design import (
    Design,
    build,
    record,
    state_after,
)
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._protocol import position_fields
from dekal_ref.state import GameState, Phase

Case = dict[str, Any]


def _round_positions(design: Design) -> dict[str, GameState]:
    """States of a designed round (round 1, dealt) at turn 16 in each phase, and scored."""
    case_setup = build(replace(design, next_round=False, extra=()), "probe")
    adapter = ProtocolAdapter(dekal_ref)
    adapter.handle({"cmd": "new_game", **case_setup["setup"]})
    found: dict[str, GameState] = {}
    for step in case_setup["steps"]:
        if "action" not in step:
            continue
        adapter.handle({"cmd": "action", "action": step["action"]})
        state: GameState = adapter.state
        if state.turn == 16 or state.phase in (Phase.NEXT_ROUND, Phase.OVER):
            found.setdefault(state.phase.value, state)
    return found


def perft_cases(prefix: str = "perft") -> list[Case]:
    """Perft at depths 0 to 3 in every phase (turn 16, where the counts stay small), for every
    player count and both lengths: depth 0 is one node in every phase, `next` and `over`
    have no moves."""
    cases: list[Case] = []
    for seats in range(2, 7):
        for match, threshold in ((False, "above"), (True, "below"), (True, "at")):
            design = Design(
                seats=seats,
                push="eject" if seats % 2 else "slide",
                first="chosen",
                match=match,
                seed=seats,
                threshold=threshold,
            )
            states = _round_positions(design)
            for phase, state in sorted(states.items()):
                for depth in range(4):
                    text = dekal_ref.format_position(state)
                    adapter = ProtocolAdapter(dekal_ref)
                    adapter.handle({"cmd": "new_game", "position": text})
                    answer = adapter.handle({"cmd": "perft", "depth": depth})
                    needs = position_needs(text)
                    needs["features"] = [*needs["features"], "perft"]
                    variant = "P2" if design.push == "eject" else "P1"
                    cases.append(
                        {
                            "id": f"{prefix}-{4001 + len(cases):04d}",
                            "kind": "perft",
                            "title": f"perft depth {depth} in phase {phase}, {seats} seats, "
                            f"{'match' if match else 'single round'}, turn 16",
                            "rules": ["T1", "T3", "T4", variant],
                            "level": "must",
                            "needs": needs,
                            "setup": {"position": text},
                            "script": [],
                            "position": text,
                            "depth": depth,
                            "expect": {"nodes": answer["nodes"], "divide": answer["divide"]},
                        }
                    )
    return cases


def deal_cases(prefix: str = "deal") -> list[Case]:
    """Seeded deals of rounds 1, 2, 7, 500 and 1000 (the last protocol.md allows) for every
    player count."""
    adapter = ProtocolAdapter(dekal_ref)
    cases: list[Case] = []
    for seats in range(2, 7):
        for round_number in (1, 2, 7, 500, 1000):
            request = {"seed": 2026 + seats, "players": seats, "round": round_number}
            reply = adapter.handle({"cmd": "deal", **request})
            cases.append(
                {
                    "id": f"{prefix}-{4001 + len(cases):04d}",
                    "kind": "deal",
                    "title": f"the seeded deal of seed {2026 + seats}, {seats} players, "
                    f"round {round_number}",
                    "rules": ["M1", "M3", "M5"],
                    "level": "must",
                    "needs": {"features": ["seeded-deal"]},
                    "input": request,
                    "expect": {"ok": True, "deal": reply["deal"]},
                }
            )
    return cases


def position_cases(prefix: str = "position") -> list[Case]:
    """Positions loaded in every phase for every player count: accepted as they are, and
    refused once their start names no seat (M4); with removed cards on turn 1 and after it,
    and match totals exactly at the threshold once a match is over (refused while it plays:
    S4)."""
    cases: list[Case] = []
    for seats in range(2, 7):
        for length in ("single", "below", "at"):
            for tie in (False, True):
                reveal = tuple(1 if (tie and s < 2) else 3 + s % 2 for s in range(seats))
                design = Design(  # a tie needs the lowest-card rule; the rest is chosen's
                    seats=seats,
                    push="slide",
                    first="lowest" if tie else "chosen",
                    match=length != "single",
                    seed=seats + 40,
                    reveal=reveal,
                    pile_top=(-1, -1) if tie else (),
                    threshold="at" if length == "at" else "below",
                    next_round=False,
                )
                try:
                    whole = build(design, "whole")
                except Shortage:
                    continue
                for cut in _cuts(seats, len(whole["steps"])):
                    state = state_after(whole["setup"], whole["steps"][:cut])
                    text = dekal_ref.format_position(state)
                    cases.append(_loaded(f"{prefix}-{4001 + len(cases):04d}", text, whole, cut))
                    for refused in _unreachable(state):
                        cases.append(_refused(f"{prefix}-{4001 + len(cases):04d}", refused))
    for text in _grid_counts():
        cases.append(_refused(f"{prefix}-{4001 + len(cases):04d}", text))
    return cases


def _grid_counts() -> list[str]:
    """Positions of 7 and of exactly 100 grids (M2: 2 to 6 players; 100 is the most grids
    a position line may hold, notation.md). Which kind 101 grids get (the line's bound, or
    M2) the spec does not say of a position: no case asks it."""
    grid = "jjab/gfhh/gabg/baja"
    pile = "25566376374645612481935447358T196T78935165878718672994349226493T1992"
    return [
        f"slide/chosen/single 1.1 reveal 0 {'|'.join([grid] * n)} {','.join('-' * n)} - "
        f"{pile} - {','.join('0' * n)}"
        for n in (7, 100)
    ]


def _unreachable(state: GameState) -> list[str]:
    """The position of `state` made unreachable: its start names no seat (M4); in a match,
    its highest total at the threshold while it plays (S4), or every total under it once it
    is over (S4)."""
    fields = dekal_ref.format_position(state).split(" ")
    broken = [fields[:3] + [str(state.players)] + fields[4:]]
    threshold = state.rules.threshold
    if threshold is not None:
        totals = list(state.totals)
        if state.phase is Phase.OVER:
            totals = [min(t, threshold - 1) for t in totals]
        else:
            totals[0] = threshold
        broken.append(fields[:9] + [",".join(map(str, totals))])
    return [" ".join(line) for line in broken]


def _cuts(seats: int, steps: int) -> list[int]:
    """Where to load a round: in turn 1's reveal, take and push, in turn 2 (removed cards
    after turn 1), at turn 16, and scored."""
    turn = 3 * seats
    return [seats - 1, seats, seats + 1, turn + 1, turn + seats, 15 * turn + seats + 1, steps]


def _loaded(case_id: str, text: str, whole: Case, cut: int) -> Case:
    steps = whole["steps"][cut : cut + 6]
    items = [{k: v for k, v in step.items() if k != "expect"} for step in steps]
    case = record(
        case_id,
        f"position loaded in phase {position_fields(text)['phase']}",
        {"position": text},
        items,
    )
    return case


def _first_rule(text: str) -> str:
    """F1 for a position under the lowest-card rule, F3 under chosen: what it depends on."""
    return "F1" if position_fields(text)["rules"].split("/")[1] == "lowest" else "F3"


def _refused(case_id: str, text: str) -> Case:
    adapter = ProtocolAdapter(dekal_ref)
    reply = adapter.handle({"cmd": "new_game", "position": text})
    error = reply["error"]
    expect = (
        {"ok": False, "rule": error["rule"]}
        if "rule" in error
        else {"ok": False, "kind": error["kind"]}
    )
    refusal = expect.get("rule", expect.get("kind"))
    rules = {str(expect.get("rule", "B1" if expect.get("kind") == "notation" else "M3"))}
    return {
        "id": case_id,
        "kind": "setup",
        "title": f"position refused in phase {position_fields(text)['phase']}: {refusal}",
        "rules": sorted(rules | {_first_rule(text)}),
        "level": "must",
        "needs": position_needs(text),
        "setup": {"position": text},
        "expect": expect,
    }


def deal_refusal_cases() -> list[Case]:
    """For every player count, a new game's deal and a new round's deal refused: one card
    too many of a value (M1), a hole in a dealt grid (M3)."""
    from dekal.conformance.cases._deals import break_deal, seeded_message
    from dekal.conformance.cases._recorder import typed_refusal

    cases: list[Case] = []
    for seats in range(2, 7):
        scored = _round_positions(Design(seats=seats, match=True, seed=seats + 70))["next"]
        for how, rule in (("extra-1", "M1"), ("hole", "M3")):
            deal = break_deal(seeded_message(seats * 11, seats), how)
            rules = {"players": seats, "push": "slide", "first": "chosen", "threshold": None}
            setup = {"rules": rules, "deal": deal, "first_player": 0}
            reply = ProtocolAdapter(dekal_ref).handle({"cmd": "new_game", **setup})
            assert reply["error"]["rule"] == rule, reply
            cases.append(
                {
                    "id": f"{rule}-neg-{4001 + 2 * seats:04d}",
                    "kind": "setup",
                    "title": f"{seats} seats: a new game's deal refused ({how}: {rule})",
                    "rules": [rule],
                    "level": "must",
                    "needs": {"players": seats, "push": "slide", "first": "chosen", "features": []},
                    "setup": setup,
                    "expect": typed_refusal(rule),
                }
            )
            text = dekal_ref.format_position(scored)
            case = record(
                f"{rule}-neg-{4002 + 2 * seats:04d}",
                f"{seats} seats: a new round's deal refused ({how}: {rule})",
                {"position": text},
                [{"new_round": deal}],
            )
            case["rules"] = [rule, "M5"]
            cases.append(case)
    return cases
