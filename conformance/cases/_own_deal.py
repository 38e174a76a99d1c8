"""Cases for an engine that deals for itself (hello `"deals": "own"`, spec/protocol.md,
own-deal mode).

Such an engine cannot be given a deal, and most cases start from one. When it claims feature
`position`, every deal a case gives is given as a position instead:

* a scripted game (or perft script) starts from its deal loaded as a position: the position
  the reference reaches by dealing it (`start_position`);
* a set-up case sends its deal as that round-1 position (`setup_position`), and the verdict
  due is the reference's on the same request (a deal of 99 cards is then an M1 position);
  a set-up a position cannot state (a threshold of 1.5) is sent with `"deal": null`;
* a new round is sent with `"deal": null` (the engine deals it): its verdict and everything
  that does not depend on the deal (the start seat, F4; the totals; the turn) are compared,
  the round is played on from the engine's deal (dekal.conformance.judge._play_on), and the
  game goes on from the case's next position, loaded as a position. A refused new
  round whose refusal is about the deal itself (M1, M2, M3, notation) cannot be asked of
  such an engine: that step is not sent (the outcome says so).

An own-deal engine without feature `position` cannot run these cases at all:
`MODE_REASON` says why, and reports count them apart from the cases it claims
(dekal.conformance.judge._coverage).
"""

from __future__ import annotations

from typing import Any

from dekal.conformance.cases._vectors import Case
from dekal.conformance.drive._protocol import Message, position_fields

MODE_REASON = "needs a given deal or feature position (the engine deals its own)"
"""Why an own-deal engine without `position` cannot run a case: the reason reports group by."""

ROUND_REFUSALS = frozenset({"M5", "T5", "S4"})
"""Refusals of a new round that do not depend on its deal (the round is not scored, the game
or the match is over): asked of an own-deal engine too, with `"deal": null`."""

DEALT_FIELDS = ("grids", "pile")
"""The position fields a deal decides; the others are compared after an engine's own deal."""


def deals_own(info: Message) -> bool:
    return info.get("deals") == "own"


def needs_a_deal(case: Case) -> bool:
    """Whether the case gives a deal: a set-up with one, or a new round."""
    setup = case.get("setup", {})
    return "deal" in setup or any("new_round" in step for step in case.get("steps", []))


def cannot_run(case: Case, info: Message) -> bool:
    """An own-deal engine without feature `position` cannot run a case that gives a deal."""
    features = info.get("features")
    claims_position = isinstance(features, list) and "position" in features
    return deals_own(info) and needs_a_deal(case) and not claims_position


def reference_reply(request: Message, own: bool = False) -> Message:
    """The reference's reply to one request on a fresh engine (`own`: dealing for itself),
    reduced to the typed verdict a case stores: {"ok": true} or {"ok": false, …}."""
    import dekal_ref
    from dekal.conformance.drive._adapter import ProtocolAdapter

    adapter = ProtocolAdapter(dekal_ref, deals="own" if own else "given")
    reply = adapter.handle(request)
    if reply.get("ok"):
        return {"ok": True, "position": adapter.position({})["position"]}
    error = reply["error"]
    if "rule" in error:
        return {"ok": False, "rule": error["rule"]}
    return {"ok": False, "kind": error["kind"]}


def start_position(case: Case) -> str:
    """The position a scripted case starts from: stored with it, or the reference's after
    dealing the case's deal."""
    stored = case.get("start", {}).get("position")
    if isinstance(stored, str):
        return stored
    return str(reference_reply({"cmd": "new_game", **case["setup"]})["position"])


def setup_position(setup: Message) -> str | None:
    """A set-up written as the round-1 position it starts (spec/protocol.md, "The position
    string"): every dealt card face down, nobody picked, the pile as dealt. None when the
    rules cannot be written in a position (a player count or threshold of the wrong type)."""
    rules, deal = setup.get("rules"), setup.get("deal")
    if not isinstance(rules, dict) or not isinstance(deal, dict):
        return None
    threshold = rules.get("threshold")
    push, first = rules.get("push", "slide"), rules.get("first", "lowest")
    valid_threshold = threshold is None or (
        isinstance(threshold, int) and not isinstance(threshold, bool) and threshold >= 1
    )
    grids, pile = deal.get("grids"), deal.get("pile", "-")
    if not valid_threshold or not isinstance(push, str) or not isinstance(first, str):
        return None
    if not isinstance(grids, list) or not all(isinstance(g, str) for g in grids):
        return None
    first_player = setup.get("first_player")
    start = str(first_player) if isinstance(first_player, int) else "-"
    seats = len(grids)
    return " ".join(
        [
            f"{push}/{first}/{'single' if threshold is None else threshold}",
            "1.1",
            "reveal",
            start,
            "|".join(face_down(grid) for grid in grids),
            ",".join("-" * seats),
            "-",
            str(pile) if pile else "-",
            "-",
            ",".join("0" * seats),
        ]
    )


def face_down(grid: str) -> str:
    """A dealt grid with every card face down: a value becomes its letter (1 a … T j)."""
    letters = {symbol: chr(ord("a") + index) for index, symbol in enumerate("123456789T")}
    return "".join(letters.get(symbol, symbol) for symbol in grid)


def without_deal(position: str) -> dict[str, str]:
    """The fields of a position that do not depend on the deal."""
    fields = position_fields(position)
    return {name: value for name, value in fields.items() if name not in DEALT_FIELDS}


def with_dealt_fields(position: str, dealt: str) -> str:
    """`position` with the deal-decided fields (grids, pile) of `dealt`: an engine's position
    after its own deal, put on the case's deal so that the fields that differ otherwise are
    blamed as they would be after the case's deal."""
    fields, theirs = position_fields(position), position_fields(dealt)
    if "(fields)" in fields or "(fields)" in theirs:
        return position
    merged: dict[str, Any] = {**fields, **{n: theirs.get(n, fields[n]) for n in DEALT_FIELDS}}
    return " ".join(str(merged[name]) for name in fields)
