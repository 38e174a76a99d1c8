"""The engine under test and the reference, driven step by step with the same requests.

After every step both are observed and compared, in this order: the verdict (accepted, or
refused with which rule), the full position, the public view (feature `public`), the legal
actions, and the result when the step scores a round. A difference is a Deviation, blamed on
one rule by dekal.conformance.judge._attribution; each comparison yields at most one (its first
differing part: the later parts follow from it). `observe` yields them in that order and
stops after one that parts the states (the engine's full position is no longer the
reference's): what would follow could not be compared. The caller decides, deviation by
deviation, whether to go on (a known deviation, the states still together), to resync, or to
stop the game.

An engine that claims `perft` is asked for perft counts at the positions the caller picks;
one that claims `position` can be put back on the reference's position (`resync`); one that
deals for itself (hello `"deals": "own"`) gets `"deal": null`, and the deal is read from its
first position, checked (M1: ten of each value; M3: sixteen face-down cards per grid) and
given to the reference.

A hung engine costs the full timeout once: after that, requests get a few times the slowest
reply seen so far (an engine that hangs once tends to hang again while a game is shrunk).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import dekal_ref
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._engine_link import Engine, EngineError
from dekal.conformance.drive._protocol import Message, position_fields, public_view
from dekal.conformance.judge._attribution import (
    Blame,
    action_rule,
    blame_legal,
    blame_perft,
    blame_position,
    blame_public,
    blame_ranking,
    blame_refused_step_moved,
    blame_result,
    blame_step,
    blame_verdict,
    differing_fields,
    variant_of,
)
from dekal.conformance.judge._compare import describe_reply, same_refusal
from dekal_ref.actions import apply, parse_action
from dekal_ref.position import HIDDEN_LETTERS, format_position

HANG_FACTOR = 5.0  # after a hang, a request gets this many times the slowest reply seen…
HANG_FLOOR = 0.5  # …but never less than this many seconds

DeviationKey = tuple[str, str]


def deviation_key(blame: Blame) -> DeviationKey:
    """What makes two deviations the same one: the rule and the field, a grid not told
    apart by its seat (a push bug shows in every seat's grid)."""
    names = [
        "grids" if name.startswith("grid of seat") else name for name in blame.field.split(", ")
    ]
    return blame.rule, ", ".join(dict.fromkeys(names))


@dataclass(frozen=True)
class Deviation:
    """One observation where the engine and the reference differ, blamed on one rule.

    step: 0 for new_game, k for the k-th item sent. kind "position": expected and actual
    are positions (drawn side by side). parted: the engine's full position is no longer
    the reference's, so nothing after it could be compared.
    """

    blame: Blame
    step: int
    sent: str
    what: str
    expected: str = ""
    actual: str = ""
    kind: str = "text"
    parted: bool = False

    @property
    def key(self) -> DeviationKey:
        return deviation_key(self.blame)


def sent_name(item: Message) -> str:
    """An item in words: its action, or `new_round`, or `new_game`."""
    if "action" in item:
        return str(item["action"])
    return "new_round" if "new_round" in item else "new_game"


class LockStep:
    """The engine under test and a fresh reference, driven with the same requests."""

    def __init__(self, engine: Engine, timeout: float) -> None:
        self.engine = engine
        self.timeout = timeout
        self.reference = ProtocolAdapter(dekal_ref)
        self.claims = set(engine.info.get("features", []))
        self.own_deal = engine.info.get("deals") == "own"
        self.steps = 0
        self.slowest = 0.0
        self.hung = False
        self._position: tuple[object, str] = (None, "")
        self._legal: tuple[object, list[str]] = (None, [])

    # -- talking to both ---------------------------------------------------------------------
    def ref(self, cmd: str, **fields: Any) -> Message:
        return self.reference.handle({"id": 0, "cmd": cmd, **fields})

    def eng(self, cmd: str, **fields: Any) -> Message:
        timeout = self.timeout
        if self.hung:
            timeout = min(timeout, max(HANG_FLOOR, HANG_FACTOR * self.slowest))
        start = time.monotonic()
        try:
            reply = self.engine.request({"cmd": cmd, **fields}, timeout)
        except EngineError:
            self.hung = self.hung or time.monotonic() - start >= timeout * 0.95
            raise
        self.slowest = max(self.slowest, time.monotonic() - start)
        return reply

    def position(self) -> str:
        """The reference's full position (worked out once per state: states are immutable)."""
        state = self.reference.state
        if state is None:
            return ""  # no game yet
        if self._position[0] is not state:
            self._position = (state, format_position(state))
        return self._position[1]

    def legal(self) -> list[str]:
        """The reference's legal actions (once per state)."""
        state = self.reference.state
        if self._legal[0] is not state:
            self._legal = (state, [str(action) for action in self.ref("legal")["actions"]])
        return list(self._legal[1])

    # -- one step ----------------------------------------------------------------------------
    def observe(
        self, step: int, item: Message, fixed_deal: Message | None = None
    ) -> Iterator[Deviation]:
        """Send one item to both and yield the deviations that follow, in order.

        For an engine that deals for itself, a `new_game` or `new_round` item is sent with
        no deal, and the deal the engine made is written into the item. `fixed_deal` (only
        then, and only with feature `position`): after the engine's own deal is checked, the
        game goes on from this deal instead, loaded into the engine as a position, so that a
        game can be replayed the same way while it is shrunk. An engine that crashes, hangs
        or answers garbage deviates too, and is restarted (its game is lost: parted).
        """
        self.steps += 1
        sent = sent_name(item)
        before = self.position()
        try:
            if self.own_deal and sent in ("new_game", "new_round"):
                yield from self._dealt_by_engine(step, item, before, fixed_deal)
            else:
                yield from self._compare_step(step, item, before)
        except EngineError as error:
            self.engine.restart()
            blame = Blame(action_rule(sent, variant_of(before)), "engine failure")
            yield Deviation(blame, step, sent, f"the engine failed: {error}", parted=True)

    def _send_both(self, item: Message) -> tuple[Message, Message]:
        if "action" in item:
            action = item["action"]
            return self.ref("action", action=action), self.eng("action", action=action)
        if "new_round" in item:
            deal = item["new_round"]
            return self.ref("new_round", deal=deal), self.eng("new_round", deal=deal)
        setup = item["new_game"]
        return self.ref("new_game", **setup), self.eng("new_game", **setup)

    def _compare_step(self, step: int, item: Message, before: str) -> Iterator[Deviation]:
        sent = sent_name(item)
        expected, actual = self._send_both(item)
        yield from self._compare_after(step, sent, before, expected, actual)

    def _compare_after(
        self, step: int, sent: str, before: str, expected: Message, actual: Message
    ) -> Iterator[Deviation]:
        """Everything after a step: the verdict, then the state the step left."""
        want = self.position()
        reply = self.eng("position")
        got = str(reply.get("position"))
        wanted = {"ok": True} if expected["ok"] else _typed(expected)
        if not same_refusal(wanted, actual):
            what = f"the reference {describe_reply(expected)}, the engine {describe_reply(actual)}"
            if got != want:
                blame = blame_verdict(sent, before, wanted)
                yield Deviation(blame, step, sent, what, want, got, "position", parted=True)
                return
            yield Deviation(blame_verdict(sent, before, wanted), step, sent, what)
        if not expected["ok"]:
            if got != want:
                what = "the position changed after a refused action (B1)"
                blame = blame_refused_step_moved(want, got)
                yield Deviation(blame, step, sent, what, want, got, "position", parted=True)
                return
            if sent == "new_game":
                return
        scored = _scored(before, want)
        if got != want:
            if scored and differing_fields(want, got) == ["totals"]:
                # the totals are the result's: blame the part of the result that differs
                yield from self._compare_result(step, sent, want, parted=True)
                yield Deviation(
                    blame_position(sent, want, got),
                    step,
                    sent,
                    "the position differs",
                    want,
                    got,
                    "position",
                    parted=True,
                )
                return
            blame = blame_step(before, sent, want, got)
            yield Deviation(
                blame, step, sent, "the position differs", want, got, "position", parted=True
            )
            return
        yield from self._compare_state(step, sent, want, reply, scored)

    def _compare_state(
        self, step: int, sent: str, want: str, reply: Message, scored: bool
    ) -> Iterator[Deviation]:
        """With the full positions equal: the public view, the legal actions, the result."""
        if "public" in self.claims and reply.get("public", public_view(want)) != public_view(want):
            what = "the public view differs"
            yield Deviation(
                blame_public(), step, sent, what, public_view(want), str(reply["public"])
            )
        legal_want = sorted(self.legal())
        legal_got = self.eng("legal").get("actions")
        if not isinstance(legal_got, list) or sorted(map(str, legal_got)) != legal_want:
            yield Deviation(
                blame_legal(want),
                step,
                sent,
                "the legal actions differ",
                " ".join(legal_want),
                " ".join(map(str, legal_got or [])),
            )
        if scored:
            yield from self._compare_result(step, sent, want, parted=False)

    def _compare_result(self, step: int, sent: str, want: str, parted: bool) -> Iterator[Deviation]:
        """The result, part by part in the order of the rules (S1, S2, S4, then the ranking
        S3/S4): only the first part that differs (a wrong cancellation moves the points)."""
        expected, actual = self.ref("result"), self.eng("result")
        for part in RESULT_PARTS:
            a, b = _result_part(expected, part), _result_part(actual, part)
            if a != b:
                blame = blame_ranking(a, b, want) if part == "ranking" else blame_result(part, want)
                yield Deviation(
                    blame,
                    step,
                    sent,
                    f"the result differs: {part}",
                    _result_text(part, a),
                    _result_text(part, b),
                    parted=parted,
                )
                return

    # -- an engine that deals for itself -----------------------------------------------------
    def _dealt_by_engine(
        self, step: int, item: Message, before: str, fixed_deal: Message | None
    ) -> Iterator[Deviation]:
        sent = sent_name(item)
        saved = self.reference.state
        if sent == "new_game":
            setup = item["new_game"]
            actual = self.eng("new_game", **{**setup, "deal": None})
        else:
            actual = self.eng("new_round", deal=None)
        if not actual.get("ok"):
            what = f"the engine {describe_reply(actual)} (it deals for itself: any deal will do)"
            yield Deviation(
                blame_verdict(sent, before, {"ok": True}), step, sent, what, parted=True
            )
            return
        dealt = str(self.eng("position").get("position"))
        players = len(position_fields(before).get("grids", "").split("|")) if before else 0
        if sent == "new_game":
            players = int(item["new_game"]["rules"]["players"])
        deal, problem = deal_of_position(dealt, players)
        if deal is None:
            rule, what = problem
            yield Deviation(Blame(rule, "deal"), step, sent, what, "", dealt, parted=True)
            return
        if sent == "new_game":
            item["new_game"] = {**item["new_game"], "deal": deal}
            expected = self.ref("new_game", **item["new_game"])
        else:
            item["new_round"] = deal
            expected = self.ref("new_round", deal=deal)
        yield from self._compare_after(step, sent, before, expected, actual)
        if fixed_deal is None or "position" not in self.claims:
            return
        # the game goes on from the fixed deal: the reference deals it, the engine loads it
        self.reference.state = saved
        if sent == "new_game":
            item["new_game"] = {**item["new_game"], "deal": fixed_deal}
            self.ref("new_game", **item["new_game"])
        else:
            item["new_round"] = fixed_deal
            self.ref("new_round", deal=fixed_deal)
        if not self.load_position():
            blame = Blame(action_rule(sent, variant_of(before)), "position")
            yield Deviation(blame, step, sent, "the engine did not load the position", parted=True)

    # -- perft, resync -----------------------------------------------------------------------
    def check_perft(self, step: int, depth: int) -> Iterator[Deviation]:
        """perft `depth` at the current position, nodes and divide (spec/protocol.md)."""
        position, sent = self.position(), f"perft {depth}"
        want = self.ref("perft", depth=depth)
        try:
            got = self.eng("perft", depth=depth)
            after = str(self.eng("position").get("position"))
        except EngineError as error:
            self.engine.restart()
            what = f"the engine failed: {error}"
            yield Deviation(blame_perft(position), step, sent, what, parted=True)
            return
        if got.get("nodes") != want["nodes"] or got.get("divide") != want["divide"]:
            yield Deviation(
                blame_perft(self._where_counts_part(want, got)),
                step,
                sent,
                "the perft count differs",
                _perft_text(want),
                _perft_text(got),
            )
        if after != position:
            what = "the position changed after perft (it must not)"
            yield Deviation(
                blame_perft(position), step, sent, what, position, after, "position", True
            )

    def _where_counts_part(self, want: Message, got: Message) -> str:
        """The position whose moves the perft counts disagree on: this one if the first
        nodes differ, else the child below the first node whose count differs (a depth-2
        count from a take is wrong because of the pushes that follow it)."""
        here, divide = self.position(), got.get("divide")
        if not isinstance(divide, dict) or set(divide) != set(want["divide"]):
            return here
        node = next((k for k in sorted(divide) if divide[k] != want["divide"][k]), None)
        if node is None:
            return here
        state = self.reference.state
        if node.startswith("reveals "):
            cells = node.split(" ", 1)[1].split(",")
            moves = [f"reveal {seat} {cell}" for seat, cell in enumerate(cells) if cell != "-"]
        else:
            moves = [node]
        for move in moves:
            state = apply(state, parse_action(move))
        return format_position(state)

    def load_position(self) -> bool:
        """Put the engine on the reference's position (feature `position`): new_game with
        the full position line instead of rules and deal. True if it took it exactly."""
        if "position" not in self.claims:
            return False
        position = self.position()
        try:
            if not self.eng("new_game", position=position).get("ok"):
                return False
            return self.eng("position").get("position") == position
        except EngineError:
            self.engine.restart()
            return False


RESULT_PARTS = ("cancelled", "points", "remaining", "totals", "ranking")


def _result_part(reply: Message, part: str) -> Any:
    """One part of a result reply, in a form that compares (cancelled cells sorted)."""
    if part == "totals":
        return reply.get("totals")
    if part == "ranking":
        listed = reply.get("ranking")
        if not isinstance(listed, list):
            return listed
        return [[r.get("place"), r.get("seat")] if isinstance(r, dict) else r for r in listed]
    scores = reply.get("scores")
    if not isinstance(scores, list):
        return scores
    values = [s.get(part) if isinstance(s, dict) else s for s in scores]
    if part == "cancelled":
        return [sorted(map(str, v)) if isinstance(v, list) else v for v in values]
    return values


def _result_text(part: str, value: Any) -> str:
    """A part of a result as the report shows it: a ranking as places, the rest as JSON."""
    if part == "ranking" and isinstance(value, list):
        pairs = [pair for pair in value if isinstance(pair, list) and len(pair) == 2]
        return ", ".join(f"{place}. seat {seat}" for place, seat in pairs)
    return json.dumps(value)


def _scored(before: str, after: str) -> bool:
    """The step scored a round: the phase became next or over."""
    ended = ("next", "over")
    return position_fields(after).get("phase") in ended and (
        position_fields(before).get("phase") not in ended
    )


def _typed(reply: Message) -> Message:
    error = reply["error"]
    return (
        {"ok": False, "rule": error["rule"]}
        if error["kind"] == "illegal"
        else {"ok": False, "kind": error["kind"]}
    )


def _perft_text(reply: Message) -> str:
    divide = reply.get("divide")
    pairs = sorted(divide.items()) if isinstance(divide, dict) else []
    return f"nodes {reply.get('nodes')}: " + ", ".join(f"{k} {v}" for k, v in pairs[:40])


def deal_of_position(position: str, players: int) -> tuple[Message | None, tuple[str, str]]:
    """The deal an engine made, read from its position right after it dealt: every grid
    sixteen face-down cards (M3), grids and pile ten cards of each value (M1). Returns the
    deal, or None and (rule, what is wrong)."""
    fields = position_fields(position)
    grids = fields.get("grids", "").split("|")
    if len(grids) != players:
        return None, ("M3", f"the engine dealt {len(grids)} grids for {players} players")
    values: list[int] = []
    for seat, grid in enumerate(grids):
        cells = grid.replace("/", "")
        if len(grid) != 19 or len(cells) != 16 or any(s not in HIDDEN_LETTERS for s in cells):
            what = f"seat {seat}'s dealt grid {grid!r} is not sixteen face-down cards"
            return None, ("M3", what)
        values += [HIDDEN_LETTERS.index(s) + 1 for s in cells]
    pile = fields.get("pile", "-")
    symbols = "" if pile == "-" else pile
    if any(s not in "123456789T" for s in symbols):
        return None, ("M1", f"the dealt pile {pile!r} is not card values")
    values += [10 if s == "T" else int(s) for s in symbols]
    counts = Counter(values)
    if len(values) != 100 or any(counts[v] != 10 for v in range(1, 11)):
        shown = ", ".join(f"{counts[v]}×{v}" for v in range(1, 11))
        return None, ("M1", f"the dealt cards are not ten of each value: {shown}")
    return {"grids": [_face_up(grid) for grid in grids], "pile": pile}, ("", "")


def _face_up(grid: str) -> str:
    """A dealt grid in deal notation: the letter of each face-down card as its value."""
    return "".join(
        "T" if s == "j" else str(HIDDEN_LETTERS.index(s) + 1) if s in HIDDEN_LETTERS else s
        for s in grid
    )
