"""Playing a source script on the reference over the protocol, and recording each
observation a case expects (the position, who acts, the legal actions, the result, a typed
refusal)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import dekal_ref
from dekal.conformance.cases import _source_types as sources
from dekal.conformance.cases._deals import SourceError, break_deal, build_deal, seeded_message
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._protocol import Message, position_fields
from dekal_ref.deal import SplitMix64
from dekal_ref.notation import CELL_NAMES, value_symbol
from dekal_ref.position import HIDDEN_LETTERS

Case = dict[str, Any]


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
        if item.startswith("!") and " =" in item:  # `!notation =TEXT`: the action sent as written
            kind, _, text = item[1:].partition(" =")
            self.step({"action": text}, kind)
            return
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
            deal = seeded_message(int(words[1]), self.game.players)
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


def ask_fields(engine: ProtocolAdapter, cmd: str, **fields: Any) -> Message:
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
    position = str(ask_fields(engine, "position")["position"])
    expect: Message = {"ok": True, "position": position, **who_acts(position)}
    if legal:
        expect["legal"] = [str(a) for a in ask_fields(engine, "legal")["actions"]]
    if position_fields(position)["phase"] in ("next", "over") and not scored_before:
        expect["result"] = ask_fields(engine, "result")
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
    start = str(ask_fields(engine, "position")["position"])
    steps = []
    for item in items:
        scored = position_fields(str(ask_fields(engine, "position")["position"]))["phase"] in (
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
    for name in game.setup_omit:
        part, _, key = name.partition(".")
        setup[part] = {k: v for k, v in setup[part].items() if k != key}
    for name, value in game.setup_extra:
        if name == "deal.pile":
            setup["deal"] = {**setup["deal"], "pile": value}
        else:
            setup[name] = value
    return setup


def resolved_threshold(game: sources.Game) -> int | None:
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


ERROR_KINDS = ("notation", "unsupported", "bad_request")


def typed_refusal(expected: str) -> Message:
    """ "notation" -> {"ok": false, "kind": "notation"}; "M3" -> {"ok": false, "rule": "M3"}."""
    if expected in ERROR_KINDS:
        return {"ok": False, "kind": expected}
    return {"ok": False, "rule": expected}
