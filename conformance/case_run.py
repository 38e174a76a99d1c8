"""One conformance case played against one engine, step by step, to its first divergence.

The kinds of case: single requests (`deal`, `score`, `pushes`, `push`), set-ups (`setup`) and
scripted games (`game`: actions, new rounds and other requests, each position, legal list and
result compared with the frozen one). Perft scripts are dekal.conformance.perft_run's. Every
difference raises Diverged (dekal.conformance.compare), blamed on one rule by
dekal.conformance.attribution; an engine fault raises EngineError, and `blame_now` says which
rule the request in flight belongs to.
"""

from __future__ import annotations

import json
import time
from typing import Any

from dekal.conformance.attribution import (
    RESULT_PARTS,
    Blame,
    action_rule,
    blame_grid_request,
    blame_legal,
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
from dekal.conformance.compare import (
    cell_list,
    compare_sets,
    describe_expect,
    describe_reply,
    diverge,
    first_result_difference,
    result_shape,
    same_refusal,
    typed,
)
from dekal.conformance.protocol import Message, public_view
from dekal.conformance.vectors import Case


def blame_request(cmd: str, expect: Message, position: str) -> Blame:
    """A request step (`result`, `perft` in mid-game) whose verdict or answer differs: a
    refusal due is B1's (or the rule it names); an answer due is the result's or the phase's."""
    if not expect.get("ok"):
        return blame_verdict(cmd, position, expect)
    if cmd == "result":
        return blame_result("points", position)
    return Blame(blame_legal(position).rule, cmd)


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
