"""Scripted, set-up, perft and from-a-position cases, derived from their sources by
playing them on the reference (dekal.conformance.cases._recorder)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dekal.conformance.cases._deals import SourceError
from dekal.conformance.cases._recorder import (
    play,
    resolved_threshold,
    setup_message,
    typed_refusal,
    who_acts,
)
from dekal.conformance.cases._source_types import FromPosition, Game, Perft
from dekal.conformance.cases._suites import v2 as sources_v2
from dekal.conformance.drive._protocol import Message, position_fields
from dekal_ref.notation import CELL_NAMES, value_symbol
from dekal_ref.position import HIDDEN_LETTERS

Case = dict[str, Any]


def _needs(game: Game, features: list[str]) -> Message:
    """What the set-up sends decides what the case needs: its player count, and its push
    variant and first-player rule when they are ones an engine can claim (a set-up with an
    unknown variant, refused by every engine, or one left out, needs no variant)."""
    rules = dict(game.rules_extra)
    push, first = rules.get("push", game.push), rules.get("first", game.first)
    push = None if "rules.push" in game.setup_omit else push
    first = None if "rules.first" in game.setup_omit else first
    players = rules.get("players", game.players)  # v3 sends a player count written as text
    needs: Message = {"players": players} if isinstance(players, int) else {}
    if push in ("slide", "eject"):
        needs["push"] = push
    if first in ("lowest", "chosen"):
        needs["first"] = first
    return {**needs, "features": features}


def game_case(game: Game) -> Case:
    threshold = resolved_threshold(game)
    recorder = play(game, threshold)
    setup = setup_message(game, threshold)
    uses_match = setup["rules"]["threshold"] is not None
    features = ["match"] if uses_match or any("deal" in item for item in game.script) else []
    if any("ask perft" in item for item in game.script):
        features.append("perft")
    if game.expect_places is not None and not game.refuse_setup:
        places = tuple(r["place"] for r in recorder.steps[-1]["expect"]["result"]["ranking"])
        if places != game.expect_places:
            raise SourceError(
                f"{game.id}: the source expects places {game.expect_places}, "
                f"the reference ranks {places}"
            )
    base: Case = {
        "id": game.id,
        "kind": "setup" if game.refuse_setup else "game",
        "title": game.title,
        "rules": list(game.rules),
        "level": game.level,
        "needs": _needs(game, features),
        "setup": setup,
    }
    if game.refuse_setup:
        return {**base, "expect": typed_refusal(game.refuse_setup)}
    start = recorder.initial
    return {**base, "start": {"position": start, **who_acts(start)}, "steps": recorder.steps}


def perft_case(source: Perft) -> Case:
    game = replace(source.game, id=source.id)
    recorder = play(game, resolved_threshold(game))
    script = [step["action"] for step in recorder.steps]
    result = recorder.send("perft", depth=source.depth)
    features = ["perft"] + (["match"] if game.threshold is not None else [])
    return {
        "id": source.id,
        "kind": "perft",
        "title": source.title,
        "rules": ["T1", "T3", "T4", "P1" if game.push == "slide" else "P2"],
        "level": "must",
        "needs": _needs(game, features),
        "setup": setup_message(game, resolved_threshold(game)),
        "script": script,
        "position": recorder.position(),
        "depth": source.depth,
        "expect": {"nodes": result["nodes"], "divide": result["divide"]},
    }


def _edited(position: str, edit: tuple[tuple[int, str], ...]) -> str:
    fields = position.split(" ")
    grid0 = fields[4].split("|")[0]
    faceup = (
        next(
            CELL_NAMES[index]
            for index, symbol in enumerate(grid0.replace("/", ""))
            if symbol in "123456789T"
        )
        if any(symbol in "123456789T" for symbol in grid0)
        else "a1"
    )
    grids, centre, pile = fields[4].split("|"), fields[6], fields[7]
    face_down = next((s for s in grid0 if s in HIDDEN_LETTERS), "")
    shown_up = value_symbol(HIDDEN_LETTERS.index(face_down) + 1) if face_down else ""
    names = {
        "grid0": grid0,
        "faceup0": faceup,
        # suite v3: the other grid, seat 0's grid with its first face-down card turned up,
        # the centre and pile as written, the pile's top card and the rest
        "grid1": grids[1] if len(grids) > 1 else "",
        "grid0_up": grid0.replace(face_down, shown_up, 1) if face_down else grid0,
        "centre": "" if centre == "-" else centre,
        "pile": "" if pile == "-" else pile,
        "pile_top": pile[:1],
        "pile_rest": pile[1:] or "-",
    }
    for index, text in edit:
        fields[index] = text.format(**names)
    return " ".join(field for field in fields if field)


def position_needs(position: str) -> Message:
    """What a game started from `position` needs: its rules, and the feature position."""
    fields = position_fields(position)
    parts = fields["rules"].split("/")
    if len(parts) != 3 or parts[0] not in ("slide", "eject") or parts[1] not in FIRST_RULES:
        return {"features": ["position"]}  # suite v3: rules that do not read need nothing
    push, first, threshold = parts
    features = ["position"] + ([] if threshold == "single" else ["match"])
    players = fields["grids"].count("|") + 1
    return {"players": players, "push": push, "first": first, "features": features}


FIRST_RULES = ("lowest", "chosen")


def position_case(source: FromPosition) -> Case:
    reached = play(
        source.reach, source.reach.threshold if isinstance(source.reach.threshold, int) else None
    )
    position = _edited(reached.position(), source.edit)
    setup: Message = {"position": position}
    base: Case = {
        "id": source.id,
        "kind": "setup" if source.refused else "game",
        "title": f"position: {source.title}",
        "rules": list(source.rules),
        "level": "must",
        "needs": position_needs(position),
        "setup": setup,
    }
    game = replace(source.reach, id=source.id, script=source.script, refuse_setup=source.refused)
    recorder = play(game, None, setup)
    if source.refused:
        return {**base, "expect": typed_refusal(source.refused)}
    start = recorder.initial
    return {**base, "start": {"position": start, **who_acts(start)}, "steps": recorder.steps}


def v2_case(case: Case) -> Case:
    if case["id"] in sources_v2.PROMOTED_TO_MUST:
        return {**case, "level": "must"}
    return case
