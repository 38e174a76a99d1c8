"""Run conformance cases against a driven engine and say where it first diverges.

Each case is played step by step; after every step the engine's observation (accepted or
refused with which rule, the position, the legal actions, the result) is compared with the
frozen one. The first difference stops the case and is kept as a Divergence: the step, the
action, what differs, the expected and actual values (drawn side by side by
dekal.conformance.report), and the one rule it breaks with the field that shows it
(dekal.conformance.attribution). A perft script, whose frozen case keeps only its last
position, is checked step by step against the reference engine played alongside, and a
wrong count is followed down the divide to the first position whose moves differ.

A case is `pass`, `fail` (a divergence), `error` (the engine crashed, hung or broke the
framing; it is restarted), `skip` (it needs a variant, player count or feature the engine
does not claim), `xfail` (failed, listed in --expect) or `xpass` (passed, but listed).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from dekal.conformance import SUITE_VERSION
from dekal.conformance.attribution import (
    RESULT_PARTS,
    Blame,
    action_rule,
    blame_grid_request,
    blame_legal,
    blame_perft_moves,
    blame_position,
    blame_public,
    blame_refused_position,
    blame_refused_step_moved,
    blame_result,
    blame_verdict,
    differing_fields,
    variant_of,
)
from dekal.conformance.client import Engine, EngineError
from dekal.conformance.needs import skip_reason, unmet_needs
from dekal.conformance.protocol import Message, public_view
from dekal.conformance.vectors import Case

STATUSES = ("pass", "fail", "error", "skip", "xfail", "xpass")


@dataclass(frozen=True)
class Divergence:
    """Where an engine first parts from the expectation, and the rule that step breaks."""

    step: int | None  # 0: the set-up; 1…: the script's steps; None: a single-request case
    sent: str  # the request, in words ("take 1 5", "score 1111/…")
    what: str  # what differs, in one line
    expected: str = ""  # the expected value (a position, a grid, a list, a result as JSON)
    actual: str = ""  # what the engine gave
    kind: str = "text"  # how to draw expected/actual: "position", "grid", "result" or "text"
    marks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # cancelled cells, for grids
    rule: str = ""  # the rule the divergence breaks (dekal.conformance.attribution)
    field: str = ""  # the field where it shows: "grid of seat 1", "ranking", "verdict"…
    context: str = ""  # "result": the position the result belongs to (its grids are drawn)

    @property
    def blame(self) -> Blame | None:
        return Blame(self.rule, self.field) if self.rule else None


@dataclass
class Outcome:
    case: Case
    status: str
    divergence: Divergence | None = None
    message: str = ""  # errors and skips: why
    reason: str = ""  # xfail/xpass: the reason from --expect
    seconds: float = 0.0
    blame: Blame | None = None  # failures: the divergence's rule; errors: the request's rule

    @property
    def id(self) -> str:
        return str(self.case["id"])


class Diverged(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.what)
        self.divergence = divergence


def diverge(step: int | None, sent: str, what: str, blame: Blame, **picture: Any) -> Diverged:
    """The exception that ends a case at its first divergence, blamed on one rule."""
    return Diverged(Divergence(step, sent, what, rule=blame.rule, field=blame.field, **picture))


def missing_support(case: Case, info: Message) -> str | None:
    """Why the engine cannot run `case`, from its hello; None if it can."""
    unmet = unmet_needs(case, info)
    return skip_reason(unmet) if unmet else needs_given_deal(case, info)


def needs_given_deal(case: Case, info: Message) -> str | None:
    """An engine that deals for itself (hello `"deals": "own"`) cannot play a case whose
    expectations follow from a deal the runner gives (spec/protocol.md, own-deal mode)."""
    if info.get("deals") != "own":
        return None
    setup = case.get("setup", {})
    steps = case.get("steps", [])
    if "deal" in setup or any("new_round" in step for step in steps):
        return "needs a given deal (the engine deals its own)"
    return None


def blame_request(cmd: str, expect: Message, position: str) -> Blame:
    """A request step (`result`, `perft` in mid-game) whose verdict or answer differs: a
    refusal due is B1's (or the rule it names); an answer due is the result's or the phase's."""
    if not expect.get("ok"):
        return blame_verdict(cmd, position, expect)
    if cmd == "result":
        return blame_result("points", position)
    return Blame(blame_legal(position).rule, cmd)


def describe_reply(reply: Message) -> str:
    if reply.get("ok"):
        return "accepted"
    error = reply.get("error", {})
    if error.get("kind") == "illegal":
        return f"refused with rule {error.get('rule')}"
    return f"refused as {error.get('kind')}"


def describe_expect(expect: Message) -> str:
    if expect.get("ok"):
        return "accepted"
    if "rule" in expect:
        return f"refused with rule {expect['rule']}"
    return f"refused as {expect['kind']}"


def typed(refusal: str) -> Message:
    """A frozen probe's refusal ("T1", "notation") as an expectation."""
    kinds = ("notation", "unsupported", "bad_request")
    return {"ok": False, "kind": refusal} if refusal in kinds else {"ok": False, "rule": refusal}


def same_refusal(expect: Message, reply: Message) -> bool:
    """Typed refusals: the kind must match, and for illegal actions the exact rule ID."""
    if bool(reply.get("ok")) != bool(expect.get("ok")):
        return False
    if expect.get("ok"):
        return True
    error = reply.get("error", {})
    if "rule" in expect:
        return bool(error.get("kind") == "illegal" and error.get("rule") == expect["rule"])
    return bool(error.get("kind") == expect["kind"])


class CaseRun:
    """One case against one engine, with one deadline for the whole case.

    `blame_now` is what an engine fault at this moment is attributed to: the rule of the
    request in flight (an action's rule, the phase rule while asking for legal actions), or
    None when no rule is meaningful (hello, a bare position request at set-up).
    """

    def __init__(self, engine: Engine, case: Case, timeout: float) -> None:
        self.engine, self.case = engine, case
        self.deadline = time.monotonic() + timeout
        self.timeout = timeout
        self.blame_now: Blame | None = None

    def ask(self, cmd: str, **fields: Any) -> Message:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise EngineError(f"the case took longer than {self.timeout:.1f} s")
        return self.engine.request({"cmd": cmd, **fields}, remaining)

    def must_succeed(
        self, reply: Message, step: int | None, sent: str, field_name: str, blame: Blame
    ) -> Any:
        if not reply.get("ok"):
            what = f"expected an answer, the engine {describe_reply(reply)}"
            raise diverge(step, sent, what, blame)
        if field_name not in reply:
            raise EngineError(f"the reply to {sent!r} has no {field_name!r}")
        return reply[field_name]

    # -- kinds ----------------------------------------------------------------------------
    def run(self) -> None:
        getattr(self, "run_" + self.case["kind"])()

    def check_unit_refusal(self, cmd: str) -> bool:
        """A single-request case that expects a refusal (suite v2): compare the typed refusal.
        True when the case expected one (and got it)."""
        expect = self.case["expect"]
        if expect.get("ok", True):
            return False
        fields = self.case["input"]
        sent = f"{cmd} " + " ".join(f"{name}={value!r}" for name, value in fields.items())
        reply = self.ask(cmd, **fields)
        if not same_refusal(expect, reply):
            what = f"expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
            raise diverge(None, sent, what, blame_verdict(sent, "", expect))
        return True

    def run_deal(self) -> None:
        """Feature seeded-deal: the deal of spec/rules.md for a seed, player count and round."""
        if self.check_unit_refusal("deal"):
            return
        fields = self.case["input"]
        sent = f"deal seed {fields['seed']}, {fields['players']} players, round {fields['round']}"
        blame = Blame("M3", "deal")  # the seeded deal: who gets which 16 cards, the pile
        deal = self.must_succeed(self.ask("deal", **fields), None, sent, "deal", blame)
        if deal != self.case["expect"]["deal"]:
            expected, actual = json.dumps(self.case["expect"]["deal"]), json.dumps(deal)
            raise diverge(None, sent, "the deal differs", blame, expected=expected, actual=actual)

    def run_score(self) -> None:
        if self.check_unit_refusal("score"):
            return
        grid, expect = self.case["input"]["grid"], self.case["expect"]
        sent = f"score {grid}"
        self.blame_now = Blame("S1", "score")
        reply = self.ask("score", grid=grid)
        points = self.must_succeed(reply, None, sent, "points", Blame("S1", "verdict"))
        actual = {
            "points": points,
            "remaining": reply.get("remaining"),
            "cancelled": cell_list(reply.get("cancelled")),
        }
        wanted = dict(expect)  # cancelled cells in reading order, as spec/protocol.md says
        differs = [part for part in RESULT_PARTS if part in wanted and wanted[part] != actual[part]]
        if differs:
            raise diverge(
                None,
                sent,
                f"{', '.join(differs)} differ: expected {expect['points']} points, "
                f"{expect['remaining']} cards; "
                f"engine {points} points, {actual['remaining']} cards",
                blame_result(differs[0], ""),
                expected=grid,
                actual=grid,
                kind="grid",
                marks=(tuple(wanted["cancelled"]), tuple(map(str, actual["cancelled"]))),
            )

    def run_pushes(self) -> None:
        if self.check_unit_refusal("pushes"):
            return
        fields = self.case["input"]
        sent = f"pushes {fields['grid']} ({fields['variant']})"
        self.blame_now = blame_grid_request(fields["variant"], "legal pushes")
        pushes = self.must_succeed(
            self.ask("pushes", **fields), None, sent, "pushes", self.blame_now
        )
        blame = blame_grid_request(fields["variant"], "legal pushes")
        compare_sets(None, sent, "legal pushes", self.case["expect"]["pushes"], pushes, blame)

    def run_push(self) -> None:
        fields, expect = self.case["input"], self.case["expect"]
        card, push, grid = fields["card"], fields["push"], fields["grid"]
        sent = f"push {card} from {push} into {grid} ({fields['variant']})"
        self.blame_now = blame_grid_request(fields["variant"], "push", expect)
        reply = self.ask("push", **fields)
        if not same_refusal(expect, reply):
            what = f"expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
            blame = blame_grid_request(fields["variant"], "verdict", expect)
            expected, actual = expect.get("grid", ""), str(reply.get("grid", ""))
            raise diverge(None, sent, what, blame, expected=expected, actual=actual, kind="grid")
        if expect["ok"] and reply.get("grid") != expect["grid"]:
            raise diverge(
                None,
                sent,
                "the grid after the push differs",
                blame_grid_request(fields["variant"], "grid"),
                expected=expect["grid"],
                actual=str(reply.get("grid")),
                kind="grid",
            )

    def run_setup(self) -> None:
        self.blame_now = blame_verdict("new_game", "", self.case["expect"])
        reply = self.ask("new_game", **self.case["setup"])
        if not same_refusal(self.case["expect"], reply):
            expected = describe_expect(self.case["expect"])
            what = f"new_game: expected {expected}, the engine {describe_reply(reply)}"
            raise diverge(0, "new_game", what, self.blame_now)

    def new_game(self) -> None:
        """The case's set-up, which the engine must accept (M3 and the rules it checks).

        A game started from a position line that the engine refuses is blamed by
        attribution.blame_refused_position: the position is reachable, so the engine reads
        otherwise the rule of who acts in it."""
        self.blame_now = blame_verdict("new_game", "", {"ok": True})
        if "position" in self.case["setup"]:
            self.blame_now = blame_refused_position(str(self.case["setup"]["position"]))
        reply = self.ask("new_game", **self.case["setup"])
        if not reply.get("ok"):
            what = f"expected the set-up accepted, the engine {describe_reply(reply)}"
            raise diverge(0, "new_game", what, self.blame_now)

    def start(self) -> str:
        self.new_game()
        sent = "position" if "position" in self.case["setup"] else "new_game"
        return self.check_position(0, sent, self.case["start"]["position"])

    def check_position(
        self,
        step: int,
        sent: str,
        expected: str,
        result: Message | None = None,
        after_refusal: bool = False,
    ) -> str:
        """The engine's position (and public view, if claimed) after `sent`; the position.

        When the step ends a round (`result` is its expected result) and the position differs
        only in what scoring writes (totals, and the phase they decide), the result is
        compared first: a wrong cancellation (S1) shows in the totals, but it is S1's fault.
        """
        reply = self.ask("position")
        blame = Blame(action_rule(sent, variant_of(expected)), "position")
        actual = self.must_succeed(reply, step, "position", "position", blame)
        if actual != expected:
            if after_refusal:
                what = "the position changed after a refused action (B1)"
                blame = blame_refused_step_moved(expected, str(actual))
            else:
                scored = set(differing_fields(expected, str(actual))) <= {"totals", "phase"}
                if result is not None and scored:
                    self.check_result(step, sent, result, expected)
                what = "the position differs"
                blame = blame_position(sent, expected, str(actual))
            raise diverge(
                step, sent, what, blame, expected=expected, actual=str(actual), kind="position"
            )
        claims_public = "public" in self.engine.info.get("features", [])
        if claims_public and "public" in reply and reply["public"] != public_view(expected):
            what = "the public view differs (M3: nobody sees a face-down card or a pick)"
            public = public_view(expected)
            raise diverge(
                step, sent, what, blame_public(), expected=public, actual=str(reply["public"])
            )
        return expected

    def send_probes(self, step: int, position: str, probes: list[list[str]]) -> None:
        """Suite v3: actions the reference refuses at `position` ([action, rule or kind]),
        each to be refused so and to leave the position as it was (dekal.conformance.probe).
        The position is checked after each, so a refusal that moves the game is blamed on B1,
        not on the next probe it makes the engine answer otherwise."""
        for action, refusal in probes:
            expect = typed(refusal)
            self.blame_now = Blame(action_rule(action, variant_of(position)), "action")
            reply = self.ask("action", action=action)
            if not same_refusal(expect, reply):
                what = f"probe: expected {describe_expect(expect)}, the engine "
                blame = blame_verdict(action, position, expect)
                raise diverge(step, action, what + describe_reply(reply), blame)
            self.check_position(step, action, position, after_refusal=True)

    def run_game(self) -> None:
        position = self.start()
        self.send_probes(0, position, self.case["start"].get("probes", []))
        for number, step in enumerate(self.case["steps"], start=1):
            expect = step["expect"]
            if "request" in step:
                self.run_request_step(number, step, position)
                continue
            if "action" in step:
                sent = step["action"]
                self.blame_now = Blame(action_rule(sent, variant_of(position)), "action")
                reply = self.ask("action", action=sent)
            else:
                sent = "new_round"
                self.blame_now = Blame(action_rule(sent, variant_of(position)), "new_round")
                reply = self.ask("new_round", deal=step["new_round"])
            if not same_refusal(expect, reply):
                what = f"expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
                blame = blame_verdict(sent, position, expect)
                wanted, actual = (
                    expect.get("position", position),
                    self.ask("position").get("position"),
                )
                if wanted == actual:  # same position, different verdict: no picture needed
                    raise diverge(number, sent, what, blame)
                raise diverge(
                    number,
                    sent,
                    what,
                    blame,
                    expected=wanted,
                    actual=str(actual),
                    kind="position",
                )
            if not expect["ok"]:
                self.check_position(number, sent, position, after_refusal=True)
                continue
            position = self.check_position(number, sent, expect["position"], expect.get("result"))
            if "legal" in expect:
                self.blame_now = blame_legal(position)
                legal = self.must_succeed(
                    self.ask("legal"), number, "legal", "actions", self.blame_now
                )
                compare_sets(number, sent, "legal actions", expect["legal"], legal, self.blame_now)
            if "result" in expect:
                self.check_result(number, sent, expect["result"], position)
            self.send_probes(number, position, step.get("probes", []))

    def run_request_step(self, number: int, step: Message, position: str) -> None:
        """A step that sends another request (suite v2: `result` before the round is
        scored, bad perft depths): its typed refusal, or its answer; the game unchanged."""
        request, expect = step["request"], step["expect"]
        sent = " ".join([request["cmd"], *(f"{k}={v!r}" for k, v in request.items() if k != "cmd")])
        reply = self.ask(**request)
        if not same_refusal(expect, reply):
            what = f"expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
            raise diverge(number, sent, what, blame_request(request["cmd"], expect, position))
        if expect["ok"] and request["cmd"] == "result":
            self.check_result(number, sent, expect["reply"], position)
        elif expect["ok"]:
            answer = {k: v for k, v in reply.items() if k not in ("id", "ok")}
            if answer != expect["reply"]:
                what, blame = "the answer differs", blame_request(request["cmd"], expect, position)
                wanted, got = json.dumps(expect["reply"]), json.dumps(answer)
                raise diverge(number, sent, what, blame, expected=wanted, actual=got)
        self.check_position(number, sent, position, after_refusal=not expect["ok"])

    def check_result(self, step: int, sent: str, expect: Message, position: str) -> None:
        """Every seat's cancelled cells, points and cards left, the totals, the ranking; the
        first part that differs (in the order one causes the next) names the rule."""
        variant = variant_of(position)
        self.blame_now = Blame(variant.end_rule, "result")
        reply = self.ask("result")
        self.must_succeed(reply, step, "result", "scores", self.blame_now)
        actual = result_shape(reply)
        wanted = result_shape(expect)
        blame = first_result_difference(wanted, actual, position)
        if blame is None:
            return
        raise diverge(
            step,
            sent,
            f"the result differs, first in the {blame.field}",
            blame,
            expected=json.dumps(wanted, separators=(",", ":")),
            actual=json.dumps(actual, separators=(",", ":")),
            kind="result",
            context=position,
        )

    def run_perft(self) -> None:
        """Replay the script (each position checked against the reference's), then compare
        the perft count; a count that differs is followed down the divide to the first
        position whose moves differ, and blamed on that position's phase rule."""
        reference = ReferenceGame(self.case["setup"])
        self.new_game()
        position = reference.position()
        self.check_position(0, "new_game", position)
        self.play(reference, self.case["script"], first_step=1)
        steps = len(self.case["script"])
        last = self.case["script"][-1] if steps else "new_game"
        self.check_position(steps, last, self.case["position"])
        depth = self.case["depth"]
        sent = f"perft {depth}"
        self.blame_now = Blame(blame_legal(self.case["position"]).rule, "perft")
        nodes, divide = self.perft(depth, steps, sent)
        expect = self.case["expect"]
        if nodes == expect["nodes"] and divide == expect["divide"]:
            return
        lines = [f"nodes: expected {expect['nodes']}, engine {nodes}"]
        for key in sorted(set(expect["divide"]) | set(divide)):
            want, got = expect["divide"].get(key, "absent"), divide.get(key, "absent")
            if want != got:
                lines.append(f"  {key}: expected {want}, engine {got}")
            if len(lines) > 8:
                lines.append("  …")
                break
        try:
            path, found, blame = self.descend(reference, depth, expect["divide"], divide)
        except Diverged as diverged:  # a position on the way down already differs
            first = diverged.divergence
            what = f"the perft count differs; following it down: {first.what}"
            raise Diverged(replace(first, what=what)) from None
        where = f"after {', '.join(path)}" if path else "at the root"
        lines.append(f"first position whose moves differ, {where}: {found}")
        raise diverge(steps, sent, "the perft count differs", blame, actual="\n".join(lines))

    # -- perft helpers --------------------------------------------------------------------
    def play(self, reference: ReferenceGame, actions: list[str], first_step: int) -> None:
        """Send `actions`, each to be accepted, each position equal to the reference's."""
        for number, action in enumerate(actions, start=first_step):
            before = reference.position()
            self.blame_now = Blame(action_rule(action, variant_of(before)), "action")
            reply = self.ask("action", action=action)
            if not reply.get("ok"):
                what = f"expected accepted, the engine {describe_reply(reply)}"
                raise diverge(number, action, what, blame_verdict(action, before, {"ok": True}))
            reference.act(action)
            self.check_position(number, action, reference.position(), reference.result())

    def perft(self, depth: int, step: int, sent: str) -> tuple[object, dict[str, object]]:
        reply = self.ask("perft", depth=depth)
        assert self.blame_now is not None
        nodes = self.must_succeed(reply, step, sent, "nodes", self.blame_now)
        raw = reply.get("divide")
        return nodes, raw if isinstance(raw, dict) else {}

    def descend(
        self,
        reference: ReferenceGame,
        depth: int,
        wanted: dict[str, object],
        divide: dict[str, object],
    ) -> tuple[list[str], str, Blame]:
        """Follow the first differing divide entry down to the position whose moves differ:
        (the path of nodes, what differs there, the blame). Positions on the way are checked
        too: a position that differs is blamed as in a game (raised as the divergence)."""
        path: list[str] = []
        steps = len(self.case["script"])
        while True:
            here = reference.position()
            missing = [key for key in wanted if key not in divide]
            extra = sorted(key for key in divide if key not in wanted)
            if missing or extra or depth <= 1:
                found = (
                    "; ".join(
                        part
                        for part in (
                            f"missing {', '.join(missing[:4])}" if missing else "",
                            f"extra {', '.join(extra[:4])}" if extra else "",
                        )
                        if part
                    )
                    or "the same moves, other counts"
                )
                return path, found, blame_perft_moves(here)
            key = next((key for key in wanted if wanted[key] != divide[key]), None)
            if key is None:  # every entry agrees: the engine's total is not its divide's sum
                return path, "the divide agrees, the node count does not", blame_perft_moves(here)
            path.append(key)
            depth -= 1
            self.new_game()
            reference = ReferenceGame(self.case["setup"])
            actions = self.case["script"] + [a for node in path for a in node_actions(node)]
            self.play(reference, actions, first_step=1)
            sent = f"perft {depth} after {', '.join(path)}"
            _, divide = self.perft(depth, steps, sent)
            wanted = reference.divide(depth)


class ReferenceGame:
    """The reference engine (dekal_ref) played alongside, for what a frozen case does not
    store: the position after each step of a perft script, and the divide below a node."""

    def __init__(self, setup: Message) -> None:
        import dekal_ref
        from dekal.conformance.adapter import ProtocolAdapter

        self.adapter = ProtocolAdapter(dekal_ref)
        self.adapter.new_game(setup)

    def act(self, action: str) -> None:
        self.adapter.action({"action": action})

    def position(self) -> str:
        return str(self.adapter.position({})["position"])

    def result(self) -> Message | None:
        """The result once a round is scored (None before)."""
        reply = self.adapter.handle({"cmd": "result"})
        return reply if reply.get("ok") else None

    def divide(self, depth: int) -> dict[str, object]:
        return dict(self.adapter.perft({"depth": depth})["divide"])


def node_actions(node: str) -> list[str]:
    """The actions of a perft node: `reveals a1,-,c3` is one reveal per seat that picks."""
    if not node.startswith("reveals "):
        return [node]
    picks = node.removeprefix("reveals ").split(",")
    return [f"reveal {seat} {cell}" for seat, cell in enumerate(picks) if cell != "-"]


def result_shape(reply: Message) -> Message:
    """A result reduced to what is compared: each seat's points, cards left and cancelled
    cells (in their order), the totals, the ranking as [place, seat] pairs; odd values kept
    visible."""
    raw_scores = reply.get("scores")
    scores = raw_scores if isinstance(raw_scores, list) else []
    raw_ranking = reply.get("ranking")
    ranking = raw_ranking if isinstance(raw_ranking, list) else []
    return {
        "scores": [
            {
                "points": score.get("points"),
                "remaining": score.get("remaining"),
                "cancelled": cell_list(score.get("cancelled")),
            }
            if isinstance(score, dict)
            else {"points": None, "remaining": None, "cancelled": [repr(score)]}
            for score in scores
        ],
        "totals": reply.get("totals"),
        "ranking": [
            [r.get("place"), r.get("seat")] if isinstance(r, dict) else [None, None]
            for r in ranking
        ],
    }


def first_result_difference(wanted: Message, actual: Message, position: str) -> Blame | None:
    """The first part of the result that differs, in the order of RESULT_PARTS."""
    seats = max(len(wanted["scores"]), len(actual["scores"]))
    for part in RESULT_PARTS[:3]:
        for seat in range(seats):
            want = wanted["scores"][seat] if seat < len(wanted["scores"]) else {}
            got = actual["scores"][seat] if seat < len(actual["scores"]) else {}
            if want.get(part) != got.get(part):
                return blame_result(part, position, seat)
    for part in RESULT_PARTS[3:]:
        if wanted[part] != actual[part]:
            return blame_result(part, position)
    return None


def cell_list(value: object) -> list[str]:
    """An engine's list of cells as it gave them: the protocol fixes their order (reading
    order), so it is compared too (anything else kept visible)."""
    if isinstance(value, list):
        return [str(item) for item in value]
    return [repr(value)]


def compare_sets(
    step: int | None,
    sent: str,
    what: str,
    expected: list[str],
    actual: object,
    blame: Blame,
) -> None:
    """Two lists compared as sets (legal actions, legal pushes); `blame` is the rule that
    decides them."""
    if not isinstance(actual, list) or not all(isinstance(a, str) for a in actual):
        raise diverge(
            step,
            sent,
            f"{what}: not a list of strings",
            blame,
            expected=" ".join(expected),
            actual=str(actual),
        )
    if len(set(actual)) != len(actual):
        twice = sorted(a for a in set(actual) if actual.count(a) > 1)
        raise diverge(step, sent, f"{what}: listed twice: {twice}", blame)
    missing, extra = sorted(set(expected) - set(actual)), sorted(set(actual) - set(expected))
    if missing or extra:
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"extra {', '.join(extra)}"] if extra else []
        )
        raise diverge(
            step,
            sent,
            f"{what} differ: {'; '.join(parts)}",
            blame,
            expected=" ".join(expected),
            actual=" ".join(actual),
        )


def run_case(engine: Engine, case: Case, timeout: float) -> Outcome:
    """Run one case; never raises for an engine fault (the outcome is `error`, blamed on the
    rule of the request in flight when there is one)."""
    reason = missing_support(case, engine.info)
    if reason:
        return Outcome(case, "skip", message=reason)
    started = time.monotonic()
    case_run = CaseRun(engine, case, timeout)
    try:
        case_run.run()
    except Diverged as diverged:
        divergence = diverged.divergence
        seconds = time.monotonic() - started
        return Outcome(case, "fail", divergence, seconds=seconds, blame=divergence.blame)
    except EngineError as error:
        seconds = time.monotonic() - started
        return Outcome(case, "error", message=str(error), seconds=seconds, blame=case_run.blame_now)
    except (TypeError, AttributeError, KeyError, ValueError, IndexError) as error:
        # A reply with the right framing but the wrong shape (a number where a list goes…).
        message = f"the engine's reply is malformed ({type(error).__name__}: {error})"
        seconds = time.monotonic() - started
        return Outcome(case, "error", message=message, seconds=seconds, blame=case_run.blame_now)
    return Outcome(case, "pass", seconds=time.monotonic() - started)


@dataclass
class Run:
    """Every outcome of one engine, with what it said in hello."""

    engine: str
    info: Message
    outcomes: list[Outcome] = field(default_factory=list)
    aborted: str = ""  # why the run stopped early (the engine could not be restarted)
    strict: bool = False  # count `should`-level failures too
    cases: list[Case] = field(default_factory=list)  # every case asked for, run or not
    stopped: str = ""  # why the run stopped before the last case by request (--fail-fast)
    suite: str = SUITE_VERSION  # the suite the cases come from (reports name it)

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def not_passing(self) -> list[Outcome]:
        """Failures, errors and unexpected passes, `must` cases first."""
        bad = [o for o in self.outcomes if o.status in ("fail", "error", "xpass")]
        return sorted(bad, key=lambda o: o.case.get("level") != "must")

    @property
    def unexpected(self) -> list[Outcome]:
        """What makes the run fail: every bad `must` outcome (and `should` ones if strict)."""
        return [o for o in self.not_passing if self.is_unexpected(o)]

    def is_unexpected(self, outcome: Outcome) -> bool:
        bad = outcome.status in ("fail", "error", "xpass")
        return bad and (self.strict or outcome.case.get("level") == "must")

    @property
    def not_run(self) -> list[Case]:
        """Cases asked for that have no outcome (the run stopped at --fail-fast)."""
        done = {id(o.case) for o in self.outcomes}
        return [case for case in self.cases if id(case) not in done]


def run_suite(
    engine: Engine,
    cases: list[Case],
    expected_failures: dict[str, str] | None = None,
    timeout: float = 10.0,
    advance: Callable[[Outcome], None] | None = None,
    strict: bool = False,
    fail_fast: bool = False,
    suite: str = SUITE_VERSION,
) -> Run:
    """Run every case, restarting the engine after an error; stop only if it cannot restart,
    or, with `fail_fast`, after the first unexpected failure, error or pass. `suite` is the
    version the cases were loaded from (load_cases(suite)): the run's reports name it."""
    from dekal.conformance.client import EngineUnusable

    expected_failures = expected_failures or {}
    run = Run(engine.label, dict(engine.info), strict=strict, cases=list(cases), suite=suite)
    for index, case in enumerate(cases):
        outcome = run_case(engine, case, timeout)
        if outcome.status == "error":
            diagnostics = getattr(engine, "diagnostics", lambda: "")()
            if diagnostics:
                outcome.message += "\n  engine stderr (last lines):\n    " + diagnostics.replace(
                    "\n", "\n    "
                )
            try:
                engine.restart()
            except EngineUnusable as error:
                run.outcomes.append(outcome)
                run.aborted = f"after case {case['id']} the engine could not be restarted: {error}"
                for rest in cases[index + 1 :]:
                    run.outcomes.append(
                        Outcome(rest, "error", message="not run: the engine could not be restarted")
                    )
                break
        reason = expected_failures.get(case["id"])
        if reason is not None:
            outcome.reason = reason
            if outcome.status in ("fail", "error"):
                outcome.status = "xfail"
            elif outcome.status == "pass":
                outcome.status = "xpass"
        run.outcomes.append(outcome)
        if advance is not None:
            advance(outcome)
        if fail_fast and run.is_unexpected(outcome) and index + 1 < len(cases):
            run.stopped = (
                f"stopped after {case['id']}, the first unexpected {outcome.status} "
                f"(--fail-fast): {len(cases) - index - 1} cases not run"
            )
            break
    return run
