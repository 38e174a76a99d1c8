"""A fuzz game written down: as a game record (.dkr, replayable by `dekal replay`) and as a
ready conformance case (`fuzz --save`, run with `dekal conformance run --cases DIR`).

Both are the reference's view of the game: the record holds the set-up, every deal and the
moves the reference accepted (refused ones are noted in comments, which a record reader
skips), then the step where the engine parted from it, told in comments.
"""

from __future__ import annotations

import hashlib
import json
from typing import Protocol

import dekal_ref
from dekal.conformance.cases._recorder import record_case
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._protocol import Message
from dekal.conformance.fuzz._lockstep import Deviation
from dekal_ref.actions import Action, NewRound, parse_action
from dekal_ref.notation import parse_grid, parse_value
from dekal_ref.record import format_record, record_from_game


class WrittenGame(Protocol):
    """What is written down of a fuzz game."""

    setup: Message
    items: list[Message]
    divergence: Deviation | None


def refused_by_reference(setup: Message, items: list[Message]) -> list[bool]:
    """For each item, whether the reference refused it (played from the set-up)."""
    reference = ProtocolAdapter(dekal_ref)
    reference.handle({"id": 0, "cmd": "new_game", **setup})
    flags = []
    for item in items:
        if "action" in item:
            reply = reference.handle({"id": 0, "cmd": "action", "action": item["action"]})
        else:
            reply = reference.handle({"id": 0, "cmd": "new_round", "deal": item["new_round"]})
        flags.append(not reply["ok"])
    return flags


def deal_object(deal: Message) -> dekal_ref.Deal:
    pile = "" if deal["pile"] == "-" else deal["pile"]
    return dekal_ref.Deal(
        tuple(parse_grid(g) for g in deal["grids"]), tuple(parse_value(s) for s in pile)
    )


def game_record(game: WrittenGame) -> str:
    """The game as a game record (spec/notation.md, "Game records"): the moves the
    reference accepted, the diverging one included; then, in comments, the divergence."""
    setup = game.setup
    refused = refused_by_reference(setup, game.items)
    actions: list[Action | NewRound] = []
    skipped: list[str] = []
    for number, (item, bad) in enumerate(zip(game.items, refused, strict=True), start=1):
        if bad:
            if number < len(game.items):
                skipped.append(item.get("action", "new_round"))
        elif "action" in item:
            actions.append(parse_action(item["action"]))
        else:
            actions.append(NewRound(deal_object(item["new_round"])))
    rules = dekal_ref.Rules(**setup["rules"])
    try:
        record = record_from_game(
            rules, [deal_object(setup["deal"])], setup["first_player"], actions
        )
        text = format_record(record)
    except dekal_ref.DekalError as error:
        text = f"# (no record: {error})\n"
    if skipped:
        text += (
            f"\n# refused by both before the divergence (left out above): {'; '.join(skipped)}\n"
        )
    divergence = game.divergence
    if divergence is not None:
        last = "the last move above" if game.items and not refused[-1] else divergence.sent
        if divergence.step == 0:
            last = "the deal"
        text += (
            f"\n# the engine parts from the reference at step {divergence.step} ({last}):"
            f" {divergence.what}\n# blamed on {divergence.blame}\n"
        )
        if divergence.expected or divergence.actual:
            text += f"# reference: {divergence.expected}\n# engine:    {divergence.actual}\n"
    return text


def saved_case(game: WrittenGame) -> Message:
    """The game as a ready conformance case (its ID from a hash of the game), testing the
    rule its divergence is blamed on."""
    digest = hashlib.sha256(
        json.dumps([game.setup, game.items], sort_keys=True).encode()
    ).hexdigest()[:8]
    divergence = game.divergence
    title = f"fuzz: {divergence.what if divergence else 'a random game'}"
    rules = [divergence.blame.rule] if divergence else ["B1"]
    return record_case(f"fuzz-{digest}", title, rules, game.setup, game.items)
