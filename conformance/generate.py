"""Derive the conformance vectors from their readable sources (dekal.conformance.sources for
suite v1, dekal.conformance.sources_v2 for what v2 adds).

Every expectation is what the reference engine answers over the protocol (through
`ProtocolAdapter(dekal_ref)`): the vectors record the reference's observations, so an
engine that answers the same way conforms. Each suite is frozen in spec/conformance/VERSION/
and the tests re-derive both: a change in the reference or the source that alters any frozen case
fails the tests instead of silently changing the suite.

    python -m dekal.conformance.generate               # rewrite spec/conformance/v2/ (newest)
    python -m dekal.conformance.generate --suite v1    # rewrite the frozen v1 (never needed)
    python -m dekal.conformance.generate --check       # exit 1 if any suite's files differ
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import dekal_ref
from dekal.conformance import PROTOCOL_VERSION, SUITE_VERSION, SUITE_VERSIONS, sources, sources_v2
from dekal.conformance.adapter import ProtocolAdapter
from dekal.conformance.protocol import Message, position_fields
from dekal_ref.deal import DECK, SplitMix64, seeded_deal
from dekal_ref.notation import CELL_NAMES, format_grid, parse_grid, value_symbol
from dekal_ref.position import HIDDEN_LETTERS

Case = dict[str, Any]


class SourceError(Exception):
    """The source says one thing, the reference engine another."""


# -- deals ----------------------------------------------------------------------------------
def _shuffle(cards: list[int], seed: int) -> list[int]:
    """Fisher–Yates with the project's SplitMix64 (as in dekal_ref.deal)."""
    generator, cards = SplitMix64(seed), list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = generator.next() % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _deal_message(
    grids: list[list[int]] | tuple[tuple[int, ...], ...], pile: list[int] | tuple[int, ...]
) -> Message:
    return {
        "grids": [format_grid(tuple(grid)) for grid in grids],
        "pile": "".join(value_symbol(v) for v in pile) or "-",
    }


def _seeded(seed: int, players: int) -> Message:
    deal = seeded_deal(seed, players)
    return _deal_message(deal.grids, deal.pile)


def build_deal(deal: sources.Deal, players: int) -> Message:
    """The explicit deal (grids and pile) a source deal stands for."""
    if isinstance(deal, sources.Seeded):
        return _seeded(deal.seed, deal.players or players)
    if isinstance(deal, sources.Explicit):
        return {"grids": list(deal.grids), "pile": deal.pile or "-"}
    if isinstance(deal, sources.Broken):
        return break_deal(_seeded(deal.seed, players), deal.how)
    if isinstance(deal, sources.Twins):
        return _twins_deal(deal, players)
    if isinstance(deal, sources.Mirrored):
        deck, grid = _shuffle(list(DECK), deal.seed), list[int]()
        limit = 10 // players
        for value in deck:
            if len(grid) < 16 and grid.count(value) < limit:
                grid.append(value)
        rest = list(deck)
        for value in grid * players:
            rest.remove(value)
        return _deal_message([grid] * players, rest)
    fixed: dict[tuple[int, int], int] = {}
    for key, symbol in deal.cells.items():
        seat, _, cell = key.partition(":")
        fixed[(int(seat), CELL_NAMES.index(cell))] = parse_grid(symbol + "111/1111/1111/1111")[0]
    top = [parse_grid(s + "111/1111/1111/1111")[0] for s in deal.pile]
    rest = list(DECK)
    for value in [*fixed.values(), *top]:
        rest.remove(value)
    rest = _shuffle(rest, deal.seed)
    grids = [
        [fixed[(seat, cell)] if (seat, cell) in fixed else rest.pop() for cell in range(16)]
        for seat in range(players)
    ]
    return _deal_message(grids, top + rest)


def _twins_deal(deal: sources.Twins, players: int) -> Message:
    """The seats of `deal.seats` get one grid (each value at most 10 // len(seats) times in
    it); the other seats and the pile are the rest of the deck, shuffled."""
    deck = _shuffle(list(DECK), deal.seed)
    limit, grid = 10 // len(deal.seats), list[int]()
    for value in deck:
        if len(grid) < 16 and grid.count(value) < limit:
            grid.append(value)
    rest = list(deck)
    for value in grid * len(deal.seats):
        rest.remove(value)
    grids: list[list[int]] = []
    for seat in range(players):
        if seat in deal.seats:
            grids.append(list(grid))
        else:
            grids.append(rest[:16])
            rest = rest[16:]
    return _deal_message(grids, rest)


def break_deal(deal: Message, how: str) -> Message:
    """A deal broken on purpose (sources.Broken)."""
    grids, pile = list(deal["grids"]), str(deal["pile"])
    if how == "extra-1":
        pile = pile.replace("2", "1", 1)
    elif how == "short-pile":
        pile = pile[:-1]
    elif how == "drop-grid":
        grids = grids[:-1]
    elif how == "extra-grid":
        grids = [*grids, grids[0]]
    elif how == "hole":
        grids[-1] = grids[-1][:-1] + "."
    elif how == "short-grid":
        grids[-1] = grids[-1][:-1]
    elif how == "long-pile":
        pile = pile + "1"
    else:
        raise SourceError(f"unknown way to break a deal: {how!r}")
    return {"grids": grids, "pile": pile}


# -- playing a script on the reference ---------------------------------------------------------
class Recorder:
    """Plays a source game on the reference over the protocol and records each observation."""

    def __init__(self, game: sources.Game) -> None:
        self.game = game
        self.engine = ProtocolAdapter(dekal_ref)
        self.policy = SplitMix64(game.seed)
        self.next_id = 0
        self.steps: list[Message] = []
        self.initial = ""
        self.mirror_cell: str | None = None
        self.mirror_push: str | None = None
        self.own_values: list[str] = []

    def send(self, cmd: str, **fields: Any) -> Message:
        self.next_id += 1
        return self.engine.handle({"id": self.next_id, "cmd": cmd, **fields})

    def position(self) -> str:
        return str(self.send("position")["position"])

    def legal(self) -> list[str]:
        return [str(a) for a in self.send("legal")["actions"]]

    def observe(self, reply: Message, scored_before: bool) -> Message:
        """The expected observation after one step."""
        return observation(self.engine, reply, scored_before, self.game.legal)

    def step(self, item: Message, expected_refusal: str | None) -> None:
        scored_before = position_fields(self.position())["phase"] in ("next", "over")
        if "action" in item:
            reply = self.send("action", action=item["action"])
        elif "request" in item:
            reply = self.send(**item["request"])
        else:
            reply = self.send("new_round", deal=item["new_round"])
        if "request" in item:
            observed = request_observation(reply)
        else:
            observed = self.observe(reply, scored_before)
        got = "accepted" if observed["ok"] else observed.get("rule", observed.get("kind"))
        wanted = expected_refusal or "accepted"
        if got != wanted:
            shown = item.get("action", "a new deal")
            raise SourceError(
                f"{self.game.id}: {shown!r}: the source expects {wanted}, the reference says {got}"
            )
        self.steps.append({**item, "expect": observed})

    def play_one(self) -> None:
        legal = self.legal()
        if not legal:
            raise SourceError(f"{self.game.id}: 'play' past the end of the round")
        self.step({"action": legal[self.policy.next() % len(legal)]}, None)

    def mirror_one(self) -> None:
        """Every seat mirrors the others: the same cell revealed, the same side pushed."""
        legal = self.legal()
        verb = legal[0].split()[0]
        if verb == "reveal":
            if self.mirror_cell is None:
                cells = sorted({a.split()[2] for a in legal}, key=CELL_NAMES.index)
                self.mirror_cell = cells[self.policy.next() % len(cells)]
            seat = min(int(a.split()[1]) for a in legal)
            self.step({"action": f"reveal {seat} {self.mirror_cell}"}, None)
        elif verb == "take":
            self.mirror_cell = None
            self.step({"action": legal[0]}, None)
        else:
            if self.mirror_push is None:
                self.mirror_push = legal[self.policy.next() % len(legal)].split()[2]
            self.step({"action": f"push {legal[0].split()[1]} {self.mirror_push}"}, None)
            if not position_fields(self.position())["phase"].startswith("take"):
                self.mirror_push = None

    def twin_one(self) -> None:
        """Seats dealt alike stay alike: the same cell, their own value back, the same side."""
        legal = self.legal()
        verb = legal[0].split()[0]
        if verb == "reveal":
            if self.mirror_cell is None:
                cells = sorted({a.split()[2] for a in legal}, key=CELL_NAMES.index)
                self.mirror_cell = cells[self.policy.next() % len(cells)]
                grids = position_fields(self.position())["grids"].split("|")
                cell = CELL_NAMES.index(self.mirror_cell)
                self.own_values = [
                    value_symbol(HIDDEN_LETTERS.index(grid.replace("/", "")[cell]) + 1)
                    for grid in grids
                ]
            seat = min(int(a.split()[1]) for a in legal)
            self.step({"action": f"reveal {seat} {self.mirror_cell}"}, None)
        elif verb == "take":
            self.mirror_cell = None
            seat = int(legal[0].split()[1])
            self.step({"action": f"take {seat} {self.own_values[seat]}"}, None)
        else:
            if self.mirror_push is None:
                self.mirror_push = legal[self.policy.next() % len(legal)].split()[2]
            self.step({"action": f"push {legal[0].split()[1]} {self.mirror_push}"}, None)
            if not position_fields(self.position())["phase"].startswith("take"):
                self.mirror_push = None

    def run(self, item: str) -> None:
        words = item.split()
        refusal = None
        if words[0].startswith("!"):
            refusal, words = words[0][1:], words[1:]
        if words[0] == "play" or words[0] == "mirror":
            self.run_policy(words)
        elif words[0] == "twin":
            while position_fields(self.position())["phase"] not in ("next", "over"):
                self.twin_one()
        elif words[0] == "ask":
            self.step({"request": ask_request(words[1:])}, refusal)
        elif words[0] == "deal" and words[1].startswith("@"):
            deal = build_deal(self.game.later_deals[int(words[1][1:])], self.game.players)
            self.step({"new_round": deal}, refusal)
        elif words[0] == "deal":
            deal = _seeded(int(words[1]), self.game.players)
            if len(words) > 2:
                deal = break_deal(deal, words[2])
            self.step({"new_round": deal}, refusal)
        else:
            self.step({"action": " ".join(words)}, refusal)

    def run_policy(self, words: list[str]) -> None:
        one = self.mirror_one if words[0] == "mirror" else self.play_one
        if words[1] == "match":
            rounds = 1
            while True:
                self.run_policy([words[0], "round"])
                if position_fields(self.position())["phase"] == "over":
                    return
                self.run(f"deal {self.game.seed + 1000 * rounds}")
                rounds += 1
        if words[1] == "round":
            while position_fields(self.position())["phase"] not in ("next", "over"):
                one()
        elif words[1] == "turn" or (len(words) == 3 and words[2] == "turns"):
            for _ in range(1 if words[1] == "turn" else int(words[1])):
                clock = position_fields(self.position())["round.turn"]
                while True:
                    one()
                    fields = position_fields(self.position())
                    if fields["phase"] in ("next", "over"):
                        return
                    if fields["round.turn"] != clock and fields["phase"] == "reveal":
                        break
        else:
            for _ in range(int(words[1])):
                one()


def ask_request(words: list[str]) -> Message:
    """`ask perft depth=-1` -> {"cmd": "perft", "depth": -1} (field values are JSON)."""
    request: Message = {"cmd": words[0]}
    for word in words[1:]:
        name, _, value = word.partition("=")
        request[name] = json.loads(value)
    return request


def request_observation(reply: Message) -> Message:
    """What a case expects of a request step: the typed refusal, or the reply's fields."""
    if not reply["ok"]:
        error = reply["error"]
        if error["kind"] == "illegal":
            return {"ok": False, "rule": error["rule"]}
        return {"ok": False, "kind": error["kind"]}
    return {"ok": True, "reply": {k: v for k, v in reply.items() if k not in ("id", "ok")}}


def _ask(engine: ProtocolAdapter, cmd: str, **fields: Any) -> Message:
    return {
        k: v
        for k, v in engine.handle({"id": 0, "cmd": cmd, **fields}).items()
        if k not in ("id", "ok")
    }


def observation(
    engine: ProtocolAdapter, reply: Message, scored_before: bool, legal: bool
) -> Message:
    """What a case expects after one step, as the reference `engine` shows it: the refusal
    (typed), or the position, who acts, the legal actions if asked, and the result when the
    step scored a round."""
    if not reply["ok"]:
        error = reply["error"]
        if error["kind"] == "illegal":
            return {"ok": False, "rule": error["rule"]}
        return {"ok": False, "kind": error["kind"]}
    position = str(_ask(engine, "position")["position"])
    expect: Message = {"ok": True, "position": position, **who_acts(position)}
    if legal:
        expect["legal"] = [str(a) for a in _ask(engine, "legal")["actions"]]
    if position_fields(position)["phase"] in ("next", "over") and not scored_before:
        expect["result"] = _ask(engine, "result")
    return expect


def record_case(
    case_id: str, title: str, rules: list[str], setup: Message, items: list[Message]
) -> Case:
    """A ready game case: `items` ({"action": …} or {"new_round": deal}) played on the
    reference from `setup`, every observation recorded (used by fuzz --save)."""
    engine = ProtocolAdapter(dekal_ref)
    reply = engine.handle({"id": 0, "cmd": "new_game", **setup})
    needs_match = setup["rules"]["threshold"] is not None
    case: Case = {
        "id": case_id,
        "kind": "game",
        "title": title,
        "rules": rules,
        "level": "must",
        "needs": {
            "players": setup["rules"]["players"],
            "push": setup["rules"]["push"],
            "first": setup["rules"]["first"],
            "features": ["match"] if needs_match else [],
        },
        "setup": setup,
    }
    if not reply["ok"]:
        return {**case, "kind": "setup", "expect": observation(engine, reply, False, False)}
    start = str(_ask(engine, "position")["position"])
    steps = []
    for item in items:
        scored = position_fields(str(_ask(engine, "position")["position"]))["phase"] in (
            "next",
            "over",
        )
        if "action" in item:
            reply = engine.handle({"id": 0, "cmd": "action", "action": item["action"]})
        else:
            reply = engine.handle({"id": 0, "cmd": "new_round", "deal": item["new_round"]})
        steps.append({**item, "expect": observation(engine, reply, scored, True)})
    return {**case, "start": {"position": start, **who_acts(start)}, "steps": steps}


def who_acts(position: str) -> Message:
    """The first player (start) and the seats to act next, read from a position."""
    fields = position_fields(position)
    start = None if fields["start"] == "-" else int(fields["start"])
    phase = fields["phase"]
    if phase == "reveal":
        seats = [seat for seat, pick in enumerate(fields["picks"].split(",")) if pick == "-"]
    elif "@" in phase:
        seats = [int(phase.partition("@")[2].partition(":")[0])]
    else:
        seats = []
    return {"start": start, "to_act": seats}


def setup_message(game: sources.Game, threshold: int | None) -> Message:
    setup: Message = {
        "rules": {
            "players": game.players,
            "push": game.push,
            "first": game.first,
            "threshold": threshold,
            **dict(game.rules_extra),
        },
        "deal": build_deal(game.deal, game.players),
        "first_player": game.first_player,
    }
    if game.omit_first_player:
        del setup["first_player"]
    return setup


def _threshold(game: sources.Game) -> int | None:
    """Resolve "exact"/"exact+1" by playing round 1 once with an unreachable threshold."""
    if not isinstance(game.threshold, str):
        return game.threshold
    probe = replace(game, threshold=10**6, script=game.script[:1])
    recorder = play(probe, 10**6)
    totals = recorder.send("result")["totals"]
    return int(max(totals)) + (1 if game.threshold == "exact+1" else 0)


def play(game: sources.Game, threshold: int | None, setup: Message | None = None) -> Recorder:
    recorder = Recorder(game)
    setup = setup or setup_message(game, threshold)
    reply = recorder.send("new_game", **setup)
    if not reply["ok"]:
        rule = reply["error"].get("rule", reply["error"]["kind"])
        if rule != game.refuse_setup:
            raise SourceError(
                f"{game.id}: set-up refused with {rule}, source expects {game.refuse_setup}"
            )
        return recorder
    recorder.initial = recorder.position()
    if game.refuse_setup:
        raise SourceError(f"{game.id}: the reference accepted a set-up the source expects refused")
    for item in game.script:
        recorder.run(item)
    if game.expect_start is not None:
        start = position_fields(recorder.position())["start"]
        if start != str(game.expect_start):
            raise SourceError(
                f"{game.id}: the source expects seat {game.expect_start} to start, "
                f"the reference says {start}"
            )
    return recorder


def _needs(game: sources.Game, features: list[str]) -> Message:
    """What the set-up sends decides what the case needs: its player count, and its push
    variant and first-player rule when they are ones an engine can claim (a set-up with an
    unknown variant, refused by every engine, needs no variant)."""
    rules = dict(game.rules_extra)
    push, first = rules.get("push", game.push), rules.get("first", game.first)
    needs: Message = {"players": game.players}
    if push in ("slide", "eject"):
        needs["push"] = push
    if first in ("lowest", "chosen"):
        needs["first"] = first
    return {**needs, "features": features}


def game_case(game: sources.Game) -> Case:
    threshold = _threshold(game)
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


ERROR_KINDS = ("notation", "unsupported", "bad_request")


def typed_refusal(expected: str) -> Message:
    """ "notation" -> {"ok": false, "kind": "notation"}; "M3" -> {"ok": false, "rule": "M3"}."""
    if expected in ERROR_KINDS:
        return {"ok": False, "kind": expected}
    return {"ok": False, "rule": expected}


def perft_case(source: sources.Perft) -> Case:
    game = replace(source.game, id=source.id)
    recorder = play(game, _threshold(game))
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
        "setup": setup_message(game, _threshold(game)),
        "script": script,
        "position": recorder.position(),
        "depth": source.depth,
        "expect": {"nodes": result["nodes"], "divide": result["divide"]},
    }


# -- unit cases -------------------------------------------------------------------------------
def _reference() -> ProtocolAdapter:
    return ProtocolAdapter(dekal_ref)


def _answer(engine: ProtocolAdapter, cmd: str, **fields: Any) -> Message:
    reply = engine.handle({"id": 1, "cmd": cmd, **fields})
    if not reply["ok"]:
        error = reply["error"]
        return (
            {"ok": False, "rule": error["rule"]}
            if error["kind"] == "illegal"
            else {"ok": False, "kind": error["kind"]}
        )
    return {k: v for k, v in reply.items() if k != "id"}


def _random_grid(generator: SplitMix64, alphabet: str, hole: int | None = None) -> str:
    symbols = [alphabet[generator.next() % len(alphabet)] for _ in range(16)]
    if hole is not None:
        symbols[hole] = "."
    return "/".join("".join(symbols[r * 4 : r * 4 + 4]) for r in range(4))


def score_cases() -> Iterator[Case]:
    engine = _reference()
    for item in sources.SCORE:
        if isinstance(item, sources.ScoreCase):
            listed = [(item.id, item.grid, item.title, item.rules)]
        else:
            generator = SplitMix64(item.seed)
            listed = [
                (
                    f"score-{item.first + i:04d}",
                    _random_grid(generator, item.alphabet),
                    item.title,
                    ("S1", "S2"),
                )
                for i in range(item.count)
            ]
        for case_id, grid, title, rules in listed:
            expect = _answer(engine, "score", grid=grid)
            expect.pop("ok")
            yield {
                "id": case_id,
                "kind": "score",
                "title": title,
                "rules": list(rules),
                "level": "must",
                "needs": {},
                "input": {"grid": grid},
                "expect": expect,
            }


def pushes_cases() -> Iterator[Case]:
    engine = _reference()
    for first, variant in sources.PUSHES_VARIANTS:
        number = int(first.split("-")[1])
        for hole in range(16):
            grid = _random_grid(SplitMix64(hole), "123456789T", hole)
            expect = _answer(engine, "pushes", grid=grid, variant=variant)
            expect.pop("ok")
            yield {
                "id": f"pushes-{number + hole:04d}",
                "kind": "pushes",
                "title": f"every legal {variant} push into a hole at {CELL_NAMES[hole]}",
                "rules": ["P1" if variant == "slide" else "P2"],
                "level": "must",
                "needs": {"push": variant},
                "input": {"grid": grid, "variant": variant},
                "expect": expect,
            }


def _push_case(
    engine: ProtocolAdapter,
    case_id: str,
    grid: str,
    push: str,
    card: str,
    variant: str,
    title: str,
    rules: list[str],
) -> Case:
    fields = {"grid": grid, "push": push, "card": card, "variant": variant}
    return {
        "id": case_id,
        "kind": "push",
        "title": title,
        "rules": rules,
        "level": "must",
        "needs": {"push": variant},
        "input": fields,
        "expect": _answer(engine, "push", **fields),
    }


def push_cases() -> Iterator[Case]:
    engine = _reference()
    for item in sources.PUSH:
        rule = "P1" if item.variant == "slide" else "P2"
        if isinstance(item, sources.PushCase):
            case = _push_case(
                engine,
                item.id,
                item.grid,
                item.push,
                item.card,
                item.variant,
                item.title,
                [item.refused or rule],
            )
            got = case["expect"].get("rule") if not case["expect"]["ok"] else None
            if got != item.refused:
                raise SourceError(
                    f"{item.id}: the source expects {item.refused}, the reference says {got}"
                )
            yield case
            continue
        generator = SplitMix64(item.seed)
        number = item.first
        for hole in range(16):
            grid = _random_grid(generator, "123456789T", hole)
            card = "123456789T"[generator.next() % 10]
            legal = [str(p) for p in dekal_ref.legal_pushes(hole, item.variant)]
            if isinstance(item, sources.PushBlock):
                pushes, prefix = legal, "push"
            else:
                pushes = [p for p in ALL_PUSHES if _refused(engine, grid, p, item.variant)]
                prefix = item.prefix
            for push in pushes:
                title = f"{item.variant} push {push} into a hole at {CELL_NAMES[hole]}"
                if prefix != "push":
                    title += " is forbidden"
                case = _push_case(
                    engine, f"{prefix}-{number:04d}", grid, push, card, item.variant, title, [rule]
                )
                if (prefix == "push") != case["expect"]["ok"]:
                    raise SourceError(f"{case['id']}: the reference disagrees with legal_pushes")
                number += 1
                yield case


ALL_PUSHES = [*"LRTB", *(f"{side}{line}" for side in "LRTB" for line in "1234")]
"""Every push that parses: a side alone, or a side and a line."""


def _refused(engine: ProtocolAdapter, grid: str, push: str, variant: str) -> bool:
    return not _answer(engine, "push", grid=grid, push=push, card="5", variant=variant)["ok"]


# -- suite v2: unit refusals, seeded deals, games from a position --------------------------
def unit_refusal_case(item: sources_v2.UnitRefusal) -> Case:
    """A single-grid request the reference refuses (or reads leniently) as the source says."""
    fields = dict(item.fields)
    expect = _answer(_reference(), item.kind, **fields)
    got = "accepted" if expect["ok"] else expect.get("rule", expect.get("kind"))
    if got != item.refused:
        raise SourceError(f"{item.id}: the source expects {item.refused}, the reference says {got}")
    if item.kind == "score" and expect["ok"]:
        expect.pop("ok")
    rules = ["B1"] if item.refused in ERROR_KINDS else [item.refused]
    if item.refused == "accepted":
        rules = ["B1", "P1" if fields.get("variant") == "slide" else "P2"]
    needs: Message = {}
    if item.kind != "score" and fields.get("variant") in ("slide", "eject"):
        needs = {"push": fields["variant"]}
    return {
        "id": item.id,
        "kind": item.kind,
        "title": f"{item.kind}: {item.title}",
        "rules": rules,
        "level": item.level,
        "needs": needs,
        "input": fields,
        "expect": expect,
    }


def deal_cases() -> Iterator[Case]:
    """Feature seeded-deal: the deals of spec/rules.md, and the requests refused."""
    engine, number = _reference(), 1
    for seed in sources_v2.DEAL_SEEDS:
        for players in range(2, 7):
            for round_number in sources_v2.DEAL_ROUNDS:
                fields: dict[str, object] = {
                    "seed": seed,
                    "players": players,
                    "round": round_number,
                }
                expect = _answer(engine, "deal", **fields)
                deal = seeded_deal(seed, players, round_number)
                if expect["deal"] != _deal_message(deal.grids, deal.pile):
                    raise SourceError(f"deal {fields}: the adapter and dekal_ref.deal disagree")
                yield {
                    "id": f"deal-{number:04d}",
                    "kind": "deal",
                    "title": f"the seeded deal of seed {seed}, {players} players, "
                    f"round {round_number}",
                    "rules": ["M1", "M3", "M5"],
                    "level": "must",
                    "needs": {"features": ["seeded-deal"]},
                    "input": fields,
                    "expect": expect,
                }
                number += 1
    for number, (fields, title, refused) in enumerate(sources_v2.DEAL_REFUSALS, start=201):
        expect = _answer(engine, "deal", **fields)
        if expect != typed_refusal(refused):
            raise SourceError(f"deal-{number:04d}: the source expects {refused}, got {expect}")
        yield {
            "id": f"deal-{number:04d}",
            "kind": "deal",
            "title": f"deal refused: {title}",
            "rules": ["M2"] if refused == "M2" else ["B1"],
            "level": "must",
            "needs": {"features": ["seeded-deal"]},
            "input": fields,
            "expect": expect,
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
    for index, text in edit:
        fields[index] = text.format(grid0=grid0, faceup0=faceup)
    return " ".join(field for field in fields if field)


def position_needs(position: str) -> Message:
    """What a game started from `position` needs: its rules, and the feature position."""
    fields = position_fields(position)
    push, first, threshold = fields["rules"].split("/")
    features = ["position"] + ([] if threshold == "single" else ["match"])
    players = fields["grids"].count("|") + 1
    return {"players": players, "push": push, "first": first, "features": features}


def position_case(source: sources_v2.FromPosition) -> Case:
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


def _v2_case(case: Case) -> Case:
    if case["id"] in sources_v2.PROMOTED_TO_MUST:
        return {**case, "level": "must"}
    return case


# -- everything -------------------------------------------------------------------------------
def all_cases(version: str = SUITE_VERSION) -> dict[str, list[Case]]:
    """Every case of the suite `version`, by file, in source order."""
    v1 = {
        "score": list(score_cases()),
        "pushes": list(pushes_cases()),
        "push": list(push_cases()),
        "games": [game_case(game) for game in sources.GAMES],
        "negative": [game_case(game) for game in sources.NEGATIVE],
        "perft": [perft_case(item) for item in sources.PERFT],
    }
    if version == "v1":
        return v1
    units = [unit_refusal_case(item) for item in sources_v2.UNIT_REFUSALS]
    added = [game_case(game) for game in sources_v2.V2_GAMES]
    return {
        "score": v1["score"] + [c for c in units if c["kind"] == "score"],
        "pushes": v1["pushes"] + [c for c in units if c["kind"] == "pushes"],
        "push": v1["push"] + [c for c in units if c["kind"] == "push"],
        "games": v1["games"] + [c for c in added if c["kind"] == "game" and "-neg-" not in c["id"]],
        "negative": [_v2_case(c) for c in v1["negative"]]
        + [c for c in added if c["kind"] == "setup" or "-neg-" in c["id"]],
        "perft": v1["perft"] + [perft_case(item) for item in sources_v2.PERFT_TWINS],
        "deal": list(deal_cases()),
        "position": [position_case(item) for item in sources_v2.POSITIONS],
    }


def render(cases: dict[str, list[Case]], version: str = SUITE_VERSION) -> dict[str, str]:
    """File name -> exact text of every frozen file, the manifest included."""
    files = {
        f"{name}.jsonl": "".join(
            json.dumps(case, ensure_ascii=False, separators=(",", ":")) + "\n" for case in listed
        )
        for name, listed in cases.items()
    }
    retired = sources.RETIRED if version == "v1" else sources_v2.RETIRED
    manifest = {
        "suite": version,
        "protocol": PROTOCOL_VERSION,
        "files": {
            name: {"sha256": hashlib.sha256(text.encode()).hexdigest(), "cases": text.count("\n")}
            for name, text in files.items()
        },
        "cases": sum(len(c) for c in cases.values()),
        "retired": list(retired),
    }
    files["manifest.json"] = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    return files


def default_directory(version: str = SUITE_VERSION) -> Path:
    """spec/conformance/VERSION of the checkout this package was imported from."""
    return Path(__file__).resolve().parents[1] / "spec" / "conformance" / version


def stale_files(version: str, directory: Path) -> list[Path]:
    """The frozen files of suite `version` in `directory` that differ from a fresh derivation."""
    files = render(all_cases(version), version)
    return [
        directory / name
        for name, text in files.items()
        if not (directory / name).is_file() or (directory / name).read_text() != text
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Derive the conformance vectors from their source."
    )
    parser.add_argument(
        "--suite",
        choices=SUITE_VERSIONS,
        default=None,
        help=f"the suite to derive (default: write {SUITE_VERSION}, check every suite)",
    )
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--check", action="store_true", help="compare with the frozen files, write nothing"
    )
    args = parser.parse_args(argv)
    if args.check:
        versions = [args.suite] if args.suite else list(SUITE_VERSIONS)
        stale = [
            path
            for version in versions
            for path in stale_files(version, args.out or default_directory(version))
        ]
        for path in stale:
            print(f"stale: {path}", file=sys.stderr)
        return 1 if stale else 0
    version = args.suite or SUITE_VERSION
    out = args.out or default_directory(version)
    files = render(all_cases(version), version)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text)
    counts = ", ".join(
        f"{name} {len(text.splitlines())}"
        for name, text in files.items()
        if name.endswith(".jsonl")
    )
    print(f"wrote {out}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
