"""The runner judges engines: ours pass everything; deliberately broken ones are caught,
case by case, with the rule and the step named; crashes, hangs and garbage are errors, the
engine is restarted and the run goes on.

The broken engines below are small wrappers around dekal_ref, each with one planted bug.
They are also the factories used by the CLI tests (`--python test_conformance_runner:…`).
"""

from __future__ import annotations

import time
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

import dekal_ref
from dekal.conformance.cases._vectors import load_cases, matches
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._direct_engine import bundled_engine
from dekal.conformance.drive._engine_link import EngineUnusable
from dekal.conformance.drive._inprocess_engine import InProcessEngine
from dekal.conformance.drive._protocol import Message
from dekal.conformance.judge._attribution import Blame
from dekal.conformance.judge._expect import ExpectedFailures, parse_expect
from dekal.conformance.judge._runner import Run, run_suite
from dekal_ref.errors import IllegalAction
from dekal_ref.notation import HOLE, SIZE
from dekal_ref.scoring import Score

CASES = load_cases()


def subset(*tokens: str) -> list[dict[str, Any]]:
    return [case for case in CASES if matches(case, list(tokens))]


def scripted(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cases without their probes (suite v3): a fault shows at the scripted step."""
    return [
        {
            **case,
            "start": {k: v for k, v in case["start"].items() if k != "probes"},
            "steps": [{k: v for k, v in s.items() if k != "probes"} for s in case["steps"]],
        }
        if case["kind"] == "game"
        else case
        for case in cases
    ]


def judge(factory: Any, cases: list[dict[str, Any]], timeout: float = 5.0, **kwargs: Any) -> Run:
    engine = InProcessEngine(factory, getattr(factory, "__name__", "engine"), timeout)
    try:
        return run_suite(engine, cases, timeout=timeout, **kwargs)
    finally:
        engine.close()


def statuses(run: Run) -> dict[str, str]:
    return {outcome.id: outcome.status for outcome in run.outcomes}


# -- broken engines: each one planted bug ---------------------------------------------------
def api(**overrides: Any) -> SimpleNamespace:
    """dekal_ref's game API with some functions replaced."""
    names = {name: getattr(dekal_ref, name) for name in dir(dekal_ref) if not name.startswith("_")}
    return SimpleNamespace(**{**names, **overrides})


def _diagonal_score(grid: tuple[int, ...]) -> Score:
    """Bug: cards touching only by a corner cancel too."""
    cancelled = set()
    for cell, value in enumerate(grid):
        row, column = divmod(cell, SIZE)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = row + dr, column + dc
                if (
                    (dr or dc)
                    and 0 <= r < SIZE
                    and 0 <= c < SIZE
                    and value != HOLE
                    and grid[r * SIZE + c] == value
                ):
                    cancelled.add(cell)
    left = [v for cell, v in enumerate(grid) if v != HOLE and cell not in cancelled]
    return Score(sum(left), len(left), frozenset(cancelled))


def diagonal() -> SimpleNamespace:
    return api(
        score_grid=_diagonal_score,
        round_scores=lambda state: [_diagonal_score(state.values(s)) for s in range(state.players)],
    )


def wrong_rule() -> SimpleNamespace:
    """Bug: revealing a face-up card is refused, but with the wrong rule ID (T3, not T1)."""

    def reveal(state: Any, seat: int, cell: int) -> Any:
        try:
            return dekal_ref.reveal(state, seat, cell)
        except IllegalAction as error:
            raise IllegalAction("T3" if error.rule == "T1" else error.rule, error.message) from None

    return api(reveal=reveal)


def direct_placement() -> SimpleNamespace:
    """Bug: a slide push from the edge the hole touches is accepted (the card drops in)."""

    def push(state: Any, seat: int, move: Any) -> Any:
        try:
            return dekal_ref.push(state, seat, move)
        except IllegalAction as error:
            if error.rule != "P1":
                raise
            fallback = dekal_ref.legal_actions(state)[0]
            return dekal_ref.apply(state, fallback)

    return api(push=push)


def highest_wins() -> SimpleNamespace:
    """Bug: the highest score wins (S3 read backwards)."""

    def ranking(state: Any) -> list[Any]:
        standings = dekal_ref.ranking(state)
        worst = max(s.place for s in standings)
        flipped = [replace(s, place=worst + 1 - s.place) for s in standings]
        return sorted(flipped, key=lambda s: (s.place, s.seat))

    return api(ranking=ranking)


class ChangesOnRefusal(ProtocolAdapter):
    """Bug: a refused take still removes a card from the centre (B1 broken)."""

    def action(self, request: Message) -> Message:
        before = self.state
        try:
            return super().action(request)
        except IllegalAction:
            if before is not None and before.centre and request["action"].startswith("take"):
                self.state = replace(before, centre=before.centre[1:])
            raise


def changes_on_refusal() -> ChangesOnRefusal:
    return ChangesOnRefusal(dekal_ref)


class SeatByPerft(ProtocolAdapter):
    """Bug: perft counts each seat's reveal as a node instead of one joint reveal."""

    def perft(self, request: Message) -> Message:
        depth = request.get("depth")
        if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= 3:
            return super().perft(request)  # bad depths are refused as the reference does

        def count(state: Any, depth: int) -> int:
            if depth == 0:
                return 1
            return sum(
                count(dekal_ref.apply(state, a), depth - 1) for a in dekal_ref.legal_actions(state)
            )

        divide = (
            {
                str(a): count(dekal_ref.apply(self.state, a), depth - 1)
                for a in dekal_ref.legal_actions(self.state)
            }
            if depth
            else {}
        )
        return {"nodes": sum(divide.values()) if depth else 1, "divide": divide}


def seat_by_perft() -> SeatByPerft:
    return SeatByPerft(dekal_ref)


def chosen_only() -> ProtocolAdapter:
    """Correct, but claims only the chosen first player, one round, no perft (skips, not bugs)."""
    return ProtocolAdapter(dekal_ref, first_rules=("chosen",), features=())


class Faulty(ProtocolAdapter):
    """Crashes, hangs or answers garbage on one command (and is fine otherwise)."""

    def __init__(self, fault: str, command: str) -> None:
        super().__init__(dekal_ref)
        self.fault, self.command = fault, command

    def handle(self, request: Message) -> Any:
        if request.get("cmd") == self.command:
            if self.fault == "crash":
                raise RuntimeError("planted crash")
            if self.fault == "hang":
                time.sleep(3)
            if self.fault == "garbage":
                return ["not", "an", "object"]
            if self.fault == "wrong-id":
                return {**super().handle(request), "id": -1}
            if self.fault == "shape":
                return {
                    "id": request["id"],
                    "ok": True,
                    "points": "many",
                    "remaining": None,
                    "cancelled": 7,
                }
        return super().handle(request)


# -- tests --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        # Deep only: the reference behind the same adapter passes every case in the default
        # run three other ways: over a pipe (test_conformance_cli's whole-suite subprocess
        # run), called directly (test_conformance_refusal_sites, which fails if the reference
        # fails a case) and with one rule broken (test_conformance_blame: every failure is
        # on the planted rule); the in-process driver runs on its own in the tests below.
        pytest.param("ref", marks=pytest.mark.deep),
        "fast",
    ],
)
def test_bundled_engines_pass_every_case(name: str) -> None:
    engine = bundled_engine(name)
    run = run_suite(engine, CASES)
    engine.close()
    assert (run.count("pass"), run.unexpected) == (len(CASES), [])


def test_diagonal_cancellation_is_caught_with_a_picture() -> None:
    run = judge(diagonal, subset("score-0001", "score-0003", "score-0007", "game-0001"))
    assert statuses(run) == {
        "score-0001": "pass",
        "score-0003": "fail",
        "score-0007": "fail",
        "game-0001": "fail",
    }
    from dekal.conformance.report._formats import run_text

    text = run_text(run)
    assert "FAIL score-0003" in text and "[" in text  # cancelled cells are bracketed in the picture
    game = next(o for o in run.outcomes if o.id == "game-0001")
    assert game.blame is not None and game.blame.rule == "S1"


def test_a_refusal_with_the_wrong_rule_is_a_failure_not_a_pass() -> None:
    run = judge(wrong_rule, scripted(subset("T1-neg")))
    failed = [o for o in run.outcomes if o.status == "fail"]
    assert {o.id for o in failed} >= {"T1-neg-0001", "T1-neg-0003"}
    assert all(
        o.divergence.what == "expected refused with rule T1, the engine refused with rule T3"
        for o in failed
        if o.divergence
    )


def test_a_forbidden_push_accepted_is_caught_at_its_step() -> None:
    run = judge(direct_placement, scripted(subset("P1-neg-0001", "game-0201")))
    outcome = next(o for o in run.outcomes if o.id == "P1-neg-0001")
    assert outcome.status == "fail" and outcome.divergence is not None
    assert outcome.divergence.step == 4 and outcome.divergence.sent == "push 0 T"
    assert outcome.divergence.what == "expected refused with rule P1, the engine accepted"


def test_a_reversed_ranking_is_caught() -> None:
    run = judge(highest_wins, subset("game-0002", "game-0301"))
    # A shared victory reads the same both ways: only the game with a winner fails.
    assert statuses(run) == {"game-0002": "fail", "game-0301": "pass"}


def test_a_refusal_that_changes_the_state_breaks_b1() -> None:
    run = judge(changes_on_refusal, scripted(subset("T3-neg-0003")))
    outcome = run.outcomes[0]
    assert outcome.status == "fail" and outcome.divergence is not None
    assert outcome.divergence.what == "the position changed after a refused action (B1)"


def test_perft_under_another_convention_is_caught() -> None:
    run = judge(seat_by_perft, subset("perft"))
    assert run.count("fail") >= 10 and statuses(run)["perft-0013"] == "pass"  # depth 0 agrees


class MiscountedPerft(ProtocolAdapter):
    """Right divide, wrong total: its perft nodes are not the sum of its own divide."""

    def perft(self, request: Message) -> Message:
        reply = super().perft(request)
        return {**reply, "nodes": reply["nodes"] + 1}


def test_a_perft_total_that_is_not_its_divides_sum_fails_without_crashing_the_runner() -> None:
    run = judge(lambda: MiscountedPerft(dekal_ref), subset("perft"))
    assert run.count("fail") >= 10 and run.count("error") == 0


@pytest.mark.parametrize(
    ("fault", "command", "kind", "status"),
    [
        ("crash", "legal", "game", "error"),
        ("hang", "perft", "perft", "error"),
        ("garbage", "score", "score", "error"),
        ("wrong-id", "push", "push", "error"),
        ("shape", "score", "score", "fail"),  # well framed, wrong values: a failure
    ],
)
def test_faults_are_errors_and_the_run_goes_on(
    fault: str, command: str, kind: str, status: str
) -> None:
    cases = [c for c in CASES if c["kind"] == kind][:3] + subset("pushes-0001", "M2-neg-0001")
    run = judge(lambda: Faulty(fault, command), cases, timeout=0.5)
    affected = [o for o in run.outcomes if o.case["kind"] == kind]
    assert len(affected) == 3 and all(o.status == status for o in affected)
    others = [o for o in run.outcomes if o not in affected]
    assert others and all(o.status == "pass" for o in others)  # restarted, the run went on


def known(text: str) -> ExpectedFailures:
    return parse_expect(text, "known.txt")


def test_expected_failures_and_unexpected_passes() -> None:
    listed = known("score-0003 S1 we cancel diagonals on purpose\nscore-0001 S1 by mistake")
    run = judge(diagonal, subset("score-0001", "score-0003"), expected_failures=listed)
    assert statuses(run) == {"score-0001": "xpass", "score-0003": "xfail"}
    assert [o.id for o in run.unexpected] == ["score-0001"]


def test_a_listed_case_failing_on_another_rule_is_an_unexpected_failure() -> None:
    run = judge(diagonal, subset("score-0003"), expected_failures=known("score-0003 S3 ties"))
    (outcome,) = run.outcomes
    assert outcome.status == "fail" and run.unexpected == [outcome]
    assert outcome.reason == "as failing on S3 (ties); it fails on S1"


def test_a_rule_line_expects_any_case_failing_on_that_rule() -> None:
    cases = subset("score-0001", "score-0003", "score-0007")
    run = judge(diagonal, cases, expected_failures=known("S1 we cancel diagonals"))
    assert statuses(run) == {"score-0001": "pass", "score-0003": "xfail", "score-0007": "xfail"}
    assert run.unexpected == []


def test_a_case_the_engine_does_not_claim_is_skipped() -> None:
    class SlideOnly(ProtocolAdapter):
        def __init__(self) -> None:
            super().__init__(dekal_ref, push_variants=("slide",), features=("match",))

    run = judge(SlideOnly, subset("pushes-", "perft-0001"))
    assert run.count("skip") == 17 and run.count("pass") == 16  # 16 eject pushes + 1 perft skipped


def test_an_engine_that_cannot_say_hello_is_unusable() -> None:
    with pytest.raises(EngineUnusable):
        InProcessEngine(lambda: Faulty("crash", "hello"), "mute", 1.0)

    class OtherProtocol(ProtocolAdapter):
        def hello(self, request: Message) -> Message:
            return {**super().hello(request), "protocol": 2}

    with pytest.raises(EngineUnusable, match="protocol 2"):
        InProcessEngine(lambda: OtherProtocol(dekal_ref), "v2", 1.0)


class OffGridIsARule(ProtocolAdapter):
    """Reads `reveal 0 e1` as a rule (T1) instead of a notation error: a `should` case."""

    def action(self, request: Message) -> Message:
        if request["action"] in ("reveal 0 e1", "reveal 1 a5"):
            raise IllegalAction("T1", "off the grid")
        return super().action(request)


def test_should_level_failures_count_only_when_strict() -> None:
    # B1-neg-0001 is a should-level case of suite v1 (v2 promotes it to must).
    v1 = [case for case in load_cases("v1") if case["id"] in ("B1-neg-0001", "T1-neg-0001")]
    lenient = judge(lambda: OffGridIsARule(dekal_ref), v1)
    strict = judge(lambda: OffGridIsARule(dekal_ref), v1[1:], strict=True)
    assert statuses(lenient) == {"B1-neg-0001": "fail", "T1-neg-0001": "pass"}
    assert lenient.unexpected == [] and [o.id for o in lenient.not_passing] == ["B1-neg-0001"]
    assert [o.id for o in strict.unexpected] == ["B1-neg-0001"]


def test_an_engine_fault_is_blamed_on_the_request_in_flight() -> None:
    run = judge(lambda: Faulty("crash", "legal"), subset("game-0001"), timeout=0.5)
    (outcome,) = run.outcomes
    assert outcome.status == "error" and outcome.blame is not None
    assert outcome.blame.field == "legal actions"


def test_fail_fast_stops_at_the_first_unexpected_failure() -> None:
    cases = subset("score-0001", "score-0003", "score-0007")
    run = judge(diagonal, cases, fail_fast=True)
    assert statuses(run) == {"score-0001": "pass", "score-0003": "fail"}
    assert [case["id"] for case in run.not_run] == ["score-0007"]
    assert "--fail-fast" in run.stopped


def test_fail_fast_goes_on_past_expected_failures() -> None:
    cases = subset("score-0003", "score-0007")
    run = judge(diagonal, cases, fail_fast=True, expected_failures=known("score-0003 S1"))
    assert statuses(run) == {"score-0003": "xfail", "score-0007": "fail"} and run.not_run == []


def one_push_only() -> SimpleNamespace:
    """Bug: only the first legal push is listed (P1 broken for every hole but a corner's)."""

    def legal_actions(state: Any) -> list[Any]:
        actions = dekal_ref.legal_actions(state)
        pushing = actions and isinstance(actions[0], dekal_ref.PushMove)
        return actions[:1] if pushing else actions

    return api(legal_actions=legal_actions)


def test_a_wrong_perft_count_is_followed_down_to_the_position_whose_moves_differ() -> None:
    run = judge(one_push_only, subset("perft-0005"))  # the root takes; the pushes are below
    (outcome,) = run.outcomes
    assert outcome.status == "fail" and outcome.divergence is not None
    assert outcome.blame == Blame("P1", "perft moves")
    located = outcome.divergence.actual.splitlines()[-1]
    assert located.startswith("first position whose moves differ, after take ")
    assert "missing push " in located


def test_a_perft_script_that_diverges_is_blamed_at_its_step() -> None:
    class TurnsNeverEnd(ProtocolAdapter):
        """Bug: the turn counter of the position line never moves past 1 (T5)."""

        def position(self, request: Message) -> Message:
            reply = super().position(request)
            return {
                k: " ".join(v.split(" ")[:1] + ["1.1"] + v.split(" ")[2:]) for k, v in reply.items()
            }

    run = judge(lambda: TurnsNeverEnd(dekal_ref), subset("perft-0006"))
    (outcome,) = run.outcomes
    assert outcome.divergence is not None and outcome.blame == Blame("T5", "round.turn")
    assert 1 <= (outcome.divergence.step or 0) < len(outcome.case["script"])
