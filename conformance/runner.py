"""Run conformance cases against a driven engine and say where it first diverges.

Each case is played step by step; after every step the engine's observation (accepted or
refused with which rule, the position, the legal actions, the result) is compared with the
frozen one. The first difference stops the case and is kept as a Divergence: the step, the
action, what differs, and the expected and actual values (positions are drawn side by side
by dekal.conformance.report).

A case is `pass`, `fail` (a divergence), `error` (the engine crashed, hung or broke the
framing; it is restarted), `skip` (it needs a variant, player count or feature the engine
does not claim), `xfail` (failed, listed in --expect) or `xpass` (passed, but listed).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dekal.conformance.client import Engine, EngineError
from dekal.conformance.protocol import Message, position_fields, public_view
from dekal.conformance.vectors import Case

STATUSES = ("pass", "fail", "error", "skip", "xfail", "xpass")


@dataclass(frozen=True)
class Divergence:
    """Where an engine first parts from the expectation."""

    step: int | None  # 0: the set-up; 1…: the script's steps; None: a single-request case
    sent: str  # the request, in words ("take 1 5", "score 1111/…")
    what: str  # what differs, in one line
    expected: str = ""  # the expected value (a position, a grid, a list)
    actual: str = ""  # what the engine gave
    kind: str = "text"  # how to draw expected/actual: "position", "grid" or "text"
    marks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # cancelled cells, for grids


@dataclass
class Outcome:
    case: Case
    status: str
    divergence: Divergence | None = None
    message: str = ""  # errors and skips: why
    reason: str = ""  # xfail/xpass: the reason from --expect
    seconds: float = 0.0

    @property
    def id(self) -> str:
        return str(self.case["id"])


class Diverged(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.what)
        self.divergence = divergence


def missing_support(case: Case, info: Message) -> str | None:
    """Why the engine cannot run `case`, from its hello; None if it can."""
    needs = case.get("needs", {})
    variants = info.get("variants", {}) if isinstance(info.get("variants"), dict) else {}
    players = needs.get("players")
    if players is not None and 2 <= players <= 6 and players not in info.get("players", []):
        # (a count outside 2–6 is rule M2's business: every engine must refuse it)
        return f"{players} players not claimed"
    if "push" in needs and needs["push"] not in variants.get("push", []):
        return f"push variant {needs['push']} not claimed"
    if "first" in needs and needs["first"] not in variants.get("first", []):
        return f"first-player rule {needs['first']} not claimed"
    missing = [f for f in needs.get("features", []) if f not in info.get("features", [])]
    if missing:
        return f"feature {', '.join(missing)} not claimed"
    return needs_given_deal(case, info)


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
    """One case against one engine, with one deadline for the whole case."""

    def __init__(self, engine: Engine, case: Case, timeout: float) -> None:
        self.engine, self.case = engine, case
        self.deadline = time.monotonic() + timeout
        self.timeout = timeout

    def ask(self, cmd: str, **fields: Any) -> Message:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise EngineError(f"the case took longer than {self.timeout:.1f} s")
        return self.engine.request({"cmd": cmd, **fields}, remaining)

    def must_succeed(self, reply: Message, step: int | None, sent: str, field_name: str) -> Any:
        if not reply.get("ok"):
            raise Diverged(
                Divergence(step, sent, f"expected an answer, the engine {describe_reply(reply)}")
            )
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
            raise Diverged(Divergence(None, sent, what))
        return True

    def run_deal(self) -> None:
        """Feature seeded-deal: the deal of spec/rules.md for a seed, player count and round."""
        if self.check_unit_refusal("deal"):
            return
        fields = self.case["input"]
        sent = f"deal seed {fields['seed']}, {fields['players']} players, round {fields['round']}"
        deal = self.must_succeed(self.ask("deal", **fields), None, sent, "deal")
        if deal != self.case["expect"]["deal"]:
            expected, actual = json.dumps(self.case["expect"]["deal"]), json.dumps(deal)
            raise Diverged(Divergence(None, sent, "the deal differs", expected, actual))

    def run_score(self) -> None:
        if self.check_unit_refusal("score"):
            return
        grid, expect = self.case["input"]["grid"], self.case["expect"]
        sent = f"score {grid}"
        reply = self.ask("score", grid=grid)
        points = self.must_succeed(reply, None, sent, "points")
        actual = {
            "points": points,
            "remaining": reply.get("remaining"),
            "cancelled": cell_list(reply.get("cancelled")),
        }
        wanted = {**expect, "cancelled": sorted(expect["cancelled"])}
        if actual != wanted:
            differs = ", ".join(k for k in wanted if wanted[k] != actual[k])
            raise Diverged(
                Divergence(
                    None,
                    sent,
                    f"{differs} differ: expected {expect['points']} points, "
                    f"{expect['remaining']} cards; "
                    f"engine {points} points, {actual['remaining']} cards",
                    grid,
                    grid,
                    "grid",
                    (tuple(wanted["cancelled"]), tuple(map(str, actual["cancelled"]))),
                )
            )

    def run_pushes(self) -> None:
        if self.check_unit_refusal("pushes"):
            return
        fields = self.case["input"]
        sent = f"pushes {fields['grid']} ({fields['variant']})"
        pushes = self.must_succeed(self.ask("pushes", **fields), None, sent, "pushes")
        compare_sets(None, sent, "legal pushes", self.case["expect"]["pushes"], pushes)

    def run_push(self) -> None:
        fields, expect = self.case["input"], self.case["expect"]
        card, push, grid = fields["card"], fields["push"], fields["grid"]
        sent = f"push {card} from {push} into {grid} ({fields['variant']})"
        reply = self.ask("push", **fields)
        if not same_refusal(expect, reply):
            what = f"expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
            raise Diverged(
                Divergence(
                    None, sent, what, expect.get("grid", ""), str(reply.get("grid", "")), "grid"
                )
            )
        if expect["ok"] and reply.get("grid") != expect["grid"]:
            raise Diverged(
                Divergence(
                    None,
                    sent,
                    "the grid after the push differs",
                    expect["grid"],
                    str(reply.get("grid")),
                    "grid",
                )
            )

    def run_setup(self) -> None:
        reply = self.ask("new_game", **self.case["setup"])
        if not same_refusal(self.case["expect"], reply):
            expected = describe_expect(self.case["expect"])
            what = f"new_game: expected {expected}, the engine {describe_reply(reply)}"
            raise Diverged(Divergence(0, "new_game", what))

    def start(self) -> str:
        reply = self.ask("new_game", **self.case["setup"])
        if not reply.get("ok"):
            raise Diverged(
                Divergence(
                    0,
                    "new_game",
                    f"expected the set-up accepted, the engine {describe_reply(reply)}",
                )
            )
        return self.check_position(0, "new_game", self.case["start"]["position"])

    def check_position(
        self, step: int, sent: str, expected: str, after_refusal: bool = False
    ) -> str:
        reply = self.ask("position")
        actual = self.must_succeed(reply, step, "position", "position")
        if actual != expected:
            what = (
                "the position changed after a refused action (B1)"
                if after_refusal
                else "the position differs"
            )
            raise Diverged(Divergence(step, sent, what, expected, str(actual), "position"))
        claims_public = "public" in self.engine.info.get("features", [])
        if claims_public and "public" in reply and reply["public"] != public_view(expected):
            what, public = "the public view differs", public_view(expected)
            raise Diverged(Divergence(step, sent, what, public, str(reply["public"])))
        return expected

    def run_game(self) -> None:
        position = self.start()
        for number, step in enumerate(self.case["steps"], start=1):
            expect = step["expect"]
            if "request" in step:
                self.run_request_step(number, step, position)
                continue
            if "action" in step:
                sent = step["action"]
                reply = self.ask("action", action=sent)
            else:
                sent = "new_round"
                reply = self.ask("new_round", deal=step["new_round"])
            if not same_refusal(expect, reply):
                what = f"expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
                wanted, actual = (
                    expect.get("position", position),
                    self.ask("position").get("position"),
                )
                if wanted == actual:  # same position, different verdict: no picture needed
                    raise Diverged(Divergence(number, sent, what, "", ""))
                raise Diverged(Divergence(number, sent, what, wanted, str(actual), "position"))
            if not expect["ok"]:
                self.check_position(number, sent, position, after_refusal=True)
                continue
            position = self.check_position(number, sent, expect["position"])
            if "legal" in expect:
                legal = self.must_succeed(self.ask("legal"), number, "legal", "actions")
                compare_sets(number, sent, "legal actions", expect["legal"], legal)
            if "result" in expect:
                self.check_result(number, sent, expect["result"], position)

    def run_request_step(self, number: int, step: Message, position: str) -> None:
        """A step that sends another request (suite v2: `result` before the round is
        scored, bad perft depths): its typed refusal, or its answer; the game unchanged."""
        request, expect = step["request"], step["expect"]
        sent = " ".join([request["cmd"], *(f"{k}={v!r}" for k, v in request.items() if k != "cmd")])
        reply = self.ask(**request)
        if not same_refusal(expect, reply):
            what = f"expected {describe_expect(expect)}, the engine {describe_reply(reply)}"
            raise Diverged(Divergence(number, sent, what))
        if expect["ok"] and request["cmd"] == "result":
            self.check_result(number, sent, expect["reply"], position)
        elif expect["ok"]:
            answer = {k: v for k, v in reply.items() if k not in ("id", "ok")}
            if answer != expect["reply"]:
                what = "the answer differs"
                raise Diverged(
                    Divergence(number, sent, what, json.dumps(expect["reply"]), json.dumps(answer))
                )
        self.check_position(number, sent, position, after_refusal=not expect["ok"])

    def check_result(self, step: int, sent: str, expect: Message, position: str) -> None:
        reply = self.ask("result")
        self.must_succeed(reply, step, "result", "scores")
        raw_scores = reply.get("scores")
        scores: list[Any] = raw_scores if isinstance(raw_scores, list) else []
        grids = position_fields(position).get("grids", "").split("|")
        for seat, wanted in enumerate(expect["scores"]):
            got = scores[seat] if seat < len(scores) and isinstance(scores[seat], dict) else {}
            same = [got.get(name) == wanted[name] for name in ("points", "remaining")]
            if all(same) and cell_list(got.get("cancelled")) == sorted(wanted["cancelled"]):
                continue
            what = (
                f"seat {seat}'s score differs (S1, S2): expected {wanted['points']} points with "
                f"{wanted['remaining']} cards left, the engine says {got.get('points')} with "
                f"{got.get('remaining')}; cancelled cells are bracketed"
            )
            grid = grids[seat] if seat < len(grids) else ""
            marks = (tuple(wanted["cancelled"]), tuple(cell_list(got.get("cancelled"))))
            raise Diverged(Divergence(step, sent, what, grid, grid, "grid", marks))
        if reply.get("totals") != expect["totals"]:
            what, expected = "the totals differ (S4)", str(expect["totals"])
            raise Diverged(Divergence(step, sent, what, expected, str(reply.get("totals"))))
        raw_ranking = reply.get("ranking")
        listed: list[Any] = raw_ranking if isinstance(raw_ranking, list) else []
        ranking = [(r.get("place"), r.get("seat")) for r in listed if isinstance(r, dict)]
        wanted_ranking = [(r["place"], r["seat"]) for r in expect["ranking"]]
        if ranking != wanted_ranking:
            expected, actual = places_text(wanted_ranking), places_text(ranking)
            raise Diverged(Divergence(step, sent, "the ranking differs (S3/S4)", expected, actual))

    def run_perft(self) -> None:
        reply = self.ask("new_game", **self.case["setup"])
        if not reply.get("ok"):
            raise Diverged(
                Divergence(
                    0,
                    "new_game",
                    f"expected the set-up accepted, the engine {describe_reply(reply)}",
                )
            )
        for number, action in enumerate(self.case["script"], start=1):
            reply = self.ask("action", action=action)
            if not reply.get("ok"):
                raise Diverged(
                    Divergence(
                        number, action, f"expected accepted, the engine {describe_reply(reply)}"
                    )
                )
        steps = len(self.case["script"])
        self.check_position(steps, "(before perft)", self.case["position"])
        sent = f"perft {self.case['depth']}"
        reply = self.ask("perft", depth=self.case["depth"])
        nodes = self.must_succeed(reply, steps, sent, "nodes")
        expect = self.case["expect"]
        raw = reply.get("divide")
        divide: dict[str, object] = raw if isinstance(raw, dict) else {}
        if nodes != expect["nodes"] or divide != expect["divide"]:
            lines = [f"nodes: expected {expect['nodes']}, engine {nodes}"]
            for key in sorted(set(expect["divide"]) | set(divide)):
                want, got = expect["divide"].get(key, "absent"), divide.get(key, "absent")
                if want != got:
                    lines.append(f"  {key}: expected {want}, engine {got}")
                if len(lines) > 8:
                    lines.append("  …")
                    break
            what = "the perft count differs"
            raise Diverged(Divergence(steps, sent, what, "", "\n".join(lines)))


def places_text(pairs: list[tuple[object, object]]) -> str:
    return ", ".join(f"{place}. seat {seat}" for place, seat in pairs)


def cell_list(value: object) -> list[str]:
    """An engine's list of cells, sorted for comparing as a set (anything else kept visible)."""
    if isinstance(value, list):
        return sorted(str(item) for item in value)
    return [repr(value)]


def compare_sets(
    step: int | None, sent: str, what: str, expected: list[str], actual: object
) -> None:
    if not isinstance(actual, list) or not all(isinstance(a, str) for a in actual):
        raise Diverged(
            Divergence(
                step, sent, f"{what}: not a list of strings", " ".join(expected), str(actual)
            )
        )
    if len(set(actual)) != len(actual):
        raise Diverged(
            Divergence(
                step,
                sent,
                f"{what}: listed twice: {sorted(a for a in set(actual) if actual.count(a) > 1)}",
            )
        )
    missing, extra = sorted(set(expected) - set(actual)), sorted(set(actual) - set(expected))
    if missing or extra:
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"extra {', '.join(extra)}"] if extra else []
        )
        raise Diverged(
            Divergence(
                step,
                sent,
                f"{what} differ: {'; '.join(parts)}",
                " ".join(expected),
                " ".join(actual),
            )
        )


def run_case(engine: Engine, case: Case, timeout: float) -> Outcome:
    """Run one case; never raises for an engine fault (the outcome is `error`)."""
    reason = missing_support(case, engine.info)
    if reason:
        return Outcome(case, "skip", message=reason)
    started = time.monotonic()
    try:
        CaseRun(engine, case, timeout).run()
    except Diverged as diverged:
        return Outcome(case, "fail", diverged.divergence, seconds=time.monotonic() - started)
    except EngineError as error:
        return Outcome(case, "error", message=str(error), seconds=time.monotonic() - started)
    except (TypeError, AttributeError, KeyError, ValueError, IndexError) as error:
        # A reply with the right framing but the wrong shape (a number where a list goes…).
        message = f"the engine's reply is malformed ({type(error).__name__}: {error})"
        return Outcome(case, "error", message=message, seconds=time.monotonic() - started)
    return Outcome(case, "pass", seconds=time.monotonic() - started)


@dataclass
class Run:
    """Every outcome of one engine, with what it said in hello."""

    engine: str
    info: Message
    outcomes: list[Outcome] = field(default_factory=list)
    aborted: str = ""  # why the run stopped early (the engine could not be restarted)
    strict: bool = False  # count `should`-level failures too

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
        return [o for o in self.not_passing if self.strict or o.case.get("level") == "must"]


def run_suite(
    engine: Engine,
    cases: list[Case],
    expected_failures: dict[str, str] | None = None,
    timeout: float = 10.0,
    advance: Callable[[Outcome], None] | None = None,
    strict: bool = False,
) -> Run:
    """Run every case, restarting the engine after an error; stop only if it cannot restart."""
    from dekal.conformance.client import EngineUnusable

    expected_failures = expected_failures or {}
    run = Run(engine.label, dict(engine.info), strict=strict)
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
    return run
