"""One conformance case played against one engine, step by step, to its first divergence.

The kinds of case: single requests (`deal`, `score`, `pushes`, `push`), set-ups (`setup`) and
scripted games (`game`: actions, new rounds and other requests, each position, legal list and
result compared with the frozen one). Perft scripts are dekal.conformance.judge._perft_run's. Every
difference raises Diverged (dekal.conformance.judge._compare), blamed on one rule by
dekal.conformance.judge._attribution; an engine fault raises EngineError, and `blame_now` says which
rule the request in flight belongs to.
"""

from __future__ import annotations

import json
import time
from typing import Any

from dekal.conformance.cases._own_deal import (
    ROUND_REFUSALS,
    deals_own,
    reference_reply,
    setup_position,
    start_position,
    with_dealt_fields,
    without_deal,
)
from dekal.conformance.cases._vectors import Case
from dekal.conformance.drive._engine_link import Engine, EngineError
from dekal.conformance.drive._protocol import Message, position_fields, public_view
from dekal.conformance.judge._attribution import (
    RESULT_PARTS,
    Blame,
    action_rule,
    blame_grid_request,
    blame_legal,
    blame_public,
    blame_refused_position,
    blame_refused_step_moved,
    blame_result,
    blame_step,
    blame_verdict,
    blame_wrong_refusal,
    differing_fields,
    variant_of,
)
from dekal.conformance.judge._compare import (
    cell_list,
    compare_sets,
    describe_expect,
    describe_reply,
    diverge,
    first_result_difference,
    perft_lines,
    result_shape,
    same_refusal,
    typed,
)
from dekal.conformance.judge._own_deal_check import deal_fault
from dekal.conformance.judge._play_on import ON_OWN_DEAL, planned_actions, played_on
from dekal.conformance.judge._position_rules import blame_position_refusal
from dekal.conformance.judge._score_reading import blame_scored_totals, scored_single_round
from dekal.conformance.judge._taker_reading import (
    before_the_take,
    blame_refused_taker,
    one_take_earlier,
)
from dekal_ref.words import plural


def blame_request(request: Message, expect: Message, position: str) -> Blame:
    """A request step (`result`, `perft` in mid-game) whose verdict or answer differs: a
    refusal due is the rule it names, else its subject's (the end of the round for `result`,
    the phase for `perft`); an answer due is the result's or the phase's."""
    cmd = str(request["cmd"])
    if not expect.get("ok"):
        return blame_verdict(cmd, position, expect, request)
    if cmd == "result":
        return blame_result("points", position)
    return Blame(blame_legal(position).rule, cmd)


WHO_ACTS = frozenset({"T1", "T3", "T4", "T5"})
"""Rules an engine names when it reads who acts in a position otherwise (the reveal, the
taker, the pusher, the token): a valid position it refuses with one of them is blamed on the
rule that decides who acts there (attribution.blame_refused_position), not on the rule it
named, which only follows from how it moves the token."""


def set_up_words(request: Message) -> str:
    """A set-up's request in words for the report: `new_game`, with the position line it
    sent when it sent one (the line is what a reader needs to reproduce the refusal)."""
    position = request.get("position")
    return f"new_game position {position}" if isinstance(position, str) else "new_game"


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
        self.own_deal = deals_own(engine.info)  # it deals for itself: deals go as positions
        self.setup: Message = dict(case.get("setup", {}))
        if self.own_deal and "deal" in self.setup and case["kind"] in ("game", "perft"):
            self.setup = {"position": start_position(case)}
        self.notes: list[str] = []  # what was not asked of the engine, and why

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
        blame = blame_verdict(sent, "", expect, {"cmd": cmd, **fields})
        self.blame_now = blame  # an engine that fails on it fails on the refusal's rule
        reply = self.ask(cmd, **fields)
        if not same_refusal(expect, reply):
            what = f"expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
            raise diverge(None, sent, what, blame)
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
                f"{', '.join(differs)} differ: expected {plural(expect['points'], 'point')}, "
                f"{plural(expect['remaining'], 'card')}; "
                f"engine {plural(points, 'point')}, {plural(actual['remaining'], 'card')}",
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
        """A set-up's verdict. An engine that deals its own gets the deal as a position (or,
        when a position cannot state the set-up, no deal), and the reference's verdict on
        that request is due (dekal.conformance.cases._own_deal)."""
        request, expect = {"cmd": "new_game", **self.setup}, self.case["expect"]
        if self.own_deal and "deal" in self.setup:
            position = setup_position(self.setup)
            request = (
                {"cmd": "new_game", "position": position}
                if position is not None
                else {**request, "deal": None}
            )
            expect = reference_reply(request, own=position is None)
        self.blame_now = blame_verdict("new_game", "", expect, request)
        reply = self.ask(**request)
        if not same_refusal(expect, reply):
            what = (
                f"new_game: expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
            )
            blame = self.blame_now
            if "position" in request and not expect.get("ok"):
                position = str(request["position"])
                blame = blame_position_refusal(position, reply, blame)
                kind = reply.get("error", {}).get("kind") if not reply.get("ok") else None
                if kind == "notation" and expect.get("kind") != "notation":
                    # the line reads (the reference read it): the engine reads who acts in
                    # it otherwise (take@S naming another seat than its taker)
                    blame = blame_refused_position(position)
            raise diverge(0, set_up_words(request), what, blame)
        if reply.get("ok") and request.get("deal", {}) is None:  # the engine dealt: check it
            dealt = str(self.ask("position").get("position", ""))
            fault = deal_fault(dealt, new_round=False)
            if fault is not None:
                what = f"the engine's own deal breaks {fault.rule} ({fault.field})"
                raise diverge(0, "new_game", what, fault, actual=dealt, kind="position")

    def new_game(self) -> None:
        """The case's set-up, which the engine must accept (M3 and the rules it checks).

        A game started from a position line that the engine refuses is blamed by
        attribution.blame_refused_position: the position is reachable, so the engine reads
        otherwise the rule of who acts in it."""
        self.blame_now = blame_verdict("new_game", "", {"ok": True})
        if "position" in self.setup:
            self.blame_now = blame_refused_position(str(self.setup["position"]))
        reply = self.ask("new_game", **self.setup)
        if not reply.get("ok"):
            what = f"expected the set-up accepted, the engine {describe_reply(reply)}"
            blame = blame_wrong_refusal(reply, self.blame_now)
            if "position" in self.setup and blame.rule in WHO_ACTS:
                blame = self.blame_now  # who acts there follows the token: blamed as it says
            if "position" in self.setup and blame == self.blame_now:
                position = str(self.setup["position"])
                if position_fields(position).get("phase", "")[:5] in ("take@", "push@"):
                    blame = self.blame_taker(position)
            if "position" in self.setup and blame.rule == "S2":
                position = str(self.setup["position"])
                if scored_single_round(position):  # cancelled (S1) or counted (S2) otherwise
                    blame = blame_scored_totals(position, self.ask)
            raise diverge(0, set_up_words(self.setup), what, blame)

    def blame_taker(self, position: str) -> Blame:
        """A take- or push-phase position refused: which seat the engine reads as the taker
        there (a push phase read as the take before it) and one take earlier decides whether
        it reads the token (T5) or the order (T3) otherwise (_taker_reading.blame_refused_taker).
        Positions the reference does not load are not asked."""
        taking = before_the_take(position)
        if not reference_loads(taking):
            return blame_refused_taker(position, None, None)
        earlier = one_take_earlier(taking)
        read_as = self.taker_read(taking)
        loads = earlier is not None and reference_loads(earlier)
        read_before = self.taker_read(earlier) if earlier is not None and loads else None
        return blame_refused_taker(taking, read_as, read_before)

    def taker_read(self, position: str) -> int | None:
        """The seat an engine that refused a take-phase `position` reads as the taker: the
        one seat S whose `take@S` it loads instead (None for none, or more than one)."""
        fields = position.split(" ")
        seats = fields[4].count("|") + 1 if len(fields) > 4 else 0
        loaded = []
        for seat in range(seats):
            fields[2] = f"take@{seat}"
            try:
                if self.ask("new_game", position=" ".join(fields)).get("ok"):
                    loaded.append(seat)
            except EngineError:
                return None
        return loaded[0] if len(loaded) == 1 else None

    def check_own_new_game(self) -> None:
        """An own-deal engine given the case's deal as a position deals a new game first, on
        the case's rules: that deal must be one the rules allow (M1, M3), and its first round
        is played on from it (`play_on`) before the case's position is loaded."""
        original = self.case.get("setup", {})
        if not (self.own_deal and "deal" in original and "position" in self.setup):
            return
        request = {k: v for k, v in original.items() if k != "deal"}
        self.blame_now = Blame("M3", "own deal")
        if not self.ask("new_game", **request, deal=None).get("ok"):
            return  # a set-up this engine refuses without a deal: judged by the position
        dealt = str(self.ask("position").get("position", ""))
        fault = deal_fault(dealt, new_round=False)
        if fault is not None:
            what = f"the engine's own deal for a new game breaks {fault.rule} ({fault.field})"
            raise diverge(0, "new_game", what, fault, actual=dealt, kind="position")
        self.play_on(dealt, 1, str(self.case["start"]["position"]))

    def start(self) -> str:
        self.check_own_new_game()
        self.new_game()
        sent = "position" if "position" in self.setup else "new_game"
        return self.check_position(0, sent, self.case["start"]["position"])

    def check_position(
        self,
        step: int,
        sent: str,
        expected: str,
        result: Message | None = None,
        after_refusal: bool = False,
        before: str = "",
        deal: Message | None = None,
    ) -> str:
        """The engine's position (and public view, if claimed) after `sent`; the position.

        When the step ends a round (`result` is its expected result) and the position differs
        only in what scoring writes (totals, and the phase they decide), the result is
        compared first: a wrong cancellation (S1) shows in the totals, but it is S1's fault.
        A position that differs after an accepted step is blamed from the reference's trace
        of the step played from `before` (a new round's from its `deal`).
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
                blame = blame_step(before, sent, expected, str(actual), deal)
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
        each to be refused so and to leave the position as it was (dekal.conformance.cases._probe).
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
            if "new_round" in step and self.own_deal:
                position = self.own_round(number, step, position)
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
                request = {"cmd": "action", "action": sent} if "action" in step else None
                blame = blame_verdict(sent, position, expect, request)
                if expect["ok"]:
                    blame = blame_wrong_refusal(reply, blame)
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
            position = self.check_position(
                number,
                sent,
                expect["position"],
                expect.get("result"),
                before=position,
                deal=step.get("new_round"),
            )
            if "legal" in expect:
                self.blame_now = blame_legal(position)
                legal = self.must_succeed(
                    self.ask("legal"), number, "legal", "actions", self.blame_now
                )
                compare_sets(number, sent, "legal actions", expect["legal"], legal, self.blame_now)
            if "result" in expect:
                self.check_result(number, sent, expect["result"], position)
            self.send_probes(number, position, step.get("probes", []))

    def own_round(self, number: int, step: Message, position: str) -> str:
        """A new round for an engine that deals its own (dekal.conformance.cases._own_deal): sent
        with no deal; the verdict and every field the deal does not decide are compared, the
        deal is checked (M1, M3, M5) and the round played on from it (`play_on`), then the game
        goes on from the case's position, loaded as a position. The position."""
        expect = step["expect"]
        if not expect["ok"] and expect.get("rule") not in ROUND_REFUSALS:
            self.notes.append(
                f"step {number} not sent: its refusal is about the deal given, and this engine "
                "deals its own"
            )
            return position
        self.blame_now = blame_verdict("new_round", position, {"ok": True})
        reply = self.ask("new_round", deal=None)
        if not same_refusal(expect, reply):
            what = f"expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
            blame = blame_verdict("new_round", position, expect)
            raise diverge(number, "new_round", what, blame_wrong_refusal(reply, blame))
        if not expect["ok"]:
            return self.check_position(number, "new_round", position, after_refusal=True)
        wanted = str(expect["position"])
        dealt = str(
            self.must_succeed(self.ask("position"), number, "position", "position", self.blame_now)
        )
        if without_deal(dealt) != without_deal(wanted):
            actual = with_dealt_fields(dealt, wanted)
            blame = blame_step(position, "new_round", wanted, actual, step["new_round"])
            what = "the position after the engine's own deal differs (beyond the deal)"
            raise diverge(
                number, "new_round", what, blame, expected=wanted, actual=dealt, kind="position"
            )
        fault = deal_fault(dealt, new_round=True)
        if fault is not None:  # M1, M3, M5 hold for any deal, the engine's own too
            what = f"the engine's own deal breaks {fault.rule} ({fault.field})"
            raise diverge(
                number, "new_round", what, fault, expected=wanted, actual=dealt, kind="position"
            )
        self.play_on(dealt, number + 1, wanted)
        self.blame_now = blame_refused_position(wanted)
        reloaded = self.ask("new_game", position=wanted)
        if not reloaded.get("ok"):
            what = "the engine did not load the position of the case's deal"
            raise diverge(number, "new_round", what, blame_wrong_refusal(reloaded, self.blame_now))
        return self.check_position(number, "new_round", wanted, expect.get("result"))

    def play_on(self, dealt: str, first: int, before: str) -> None:
        """The round played on from the engine's own deal `dealt`, as far as the case's steps
        from number `first` plan it (dekal.conformance.judge._play_on): every action accepted,
        and the position, the legal actions (where the case checks them) and the result the
        reference gives on the same dealt cards. The case's own position is loaded after."""
        for move in played_on(dealt, planned_actions(self.case["steps"], first), before):
            sent, shown = move.action, f"{move.action} ({ON_OWN_DEAL})"
            self.blame_now = Blame(action_rule(sent, variant_of(move.before)), "action")
            reply = self.ask("action", action=sent)
            if not reply.get("ok"):
                request = {"cmd": "action", "action": sent}
                blame = blame_verdict(sent, move.before, {"ok": True}, request)
                what = f"expected accepted, the engine {describe_reply(reply)}"
                raise diverge(move.step, shown, what, blame_wrong_refusal(reply, blame))
            actual = str(
                self.must_succeed(
                    self.ask("position"), move.step, "position", "position", self.blame_now
                )
            )
            if actual != move.after:
                blame = blame_step(move.before, sent, move.after, actual)
                raise diverge(
                    move.step,
                    shown,
                    "the position differs",
                    blame,
                    expected=move.after,
                    actual=actual,
                    kind="position",
                )
            if move.legal is not None:
                self.blame_now = blame_legal(move.after)
                legal = self.must_succeed(
                    self.ask("legal"), move.step, "legal", "actions", self.blame_now
                )
                wanted = list(move.legal)
                compare_sets(move.step, shown, "legal actions", wanted, legal, self.blame_now)
            if move.result is not None:
                self.check_result(move.step, shown, move.result, move.after)

    def run_request_step(self, number: int, step: Message, position: str) -> None:
        """A step that sends another request (suite v2: `result` before the round is
        scored, bad perft depths): its typed refusal, or its answer; the game unchanged."""
        request, expect = step["request"], step["expect"]
        sent = " ".join([request["cmd"], *(f"{k}={v!r}" for k, v in request.items() if k != "cmd")])
        reply = self.ask(**request)
        if not same_refusal(expect, reply):
            what = f"expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
            raise diverge(number, sent, what, blame_request(request, expect, position))
        if expect["ok"] and request["cmd"] == "result":
            self.check_result(number, sent, expect["reply"], position)
        elif expect["ok"]:
            answer = {k: v for k, v in reply.items() if k not in ("id", "ok")}
            if answer != expect["reply"]:
                what, blame = "the answer differs", blame_request(request, expect, position)
                wanted, got = json.dumps(expect["reply"]), json.dumps(answer)
                if request["cmd"] == "perft" and isinstance(answer.get("divide"), dict):
                    # entry by entry, as a perft case's count is, not two long JSON lines
                    lines = perft_lines(expect["reply"], answer.get("nodes"), answer["divide"])
                    what, wanted, got = "the perft count differs", "", "\n".join(lines)
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


def reference_loads(position: str) -> bool:
    """Whether the reference starts a game from `position` (feature position)."""
    return bool(reference_reply({"cmd": "new_game", "position": position})["ok"])
