"""How an engine's reply is compared with what the suite expects, and the Divergence a
difference becomes.

Verdicts are compared typed (accepted, or refused with the same kind and, for illegal actions,
the same rule ID); results part by part in the order one causes the next (RESULT_PARTS); lists
of legal actions or pushes as sets. A difference raises Diverged, which carries the first
Divergence of a case: the step, the request, what differs, the two values to draw side by side
(dekal.conformance.report._formats) and the one rule it breaks
(dekal.conformance.judge._attribution).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dekal.conformance.drive._protocol import Message
from dekal.conformance.judge._attribution import (
    RESULT_PARTS,
    Blame,
    blame_ranking,
    blame_result,
)


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
    rule: str = ""  # the rule the divergence breaks (dekal.conformance.judge._attribution)
    field: str = ""  # the field where it shows: "grid of seat 1", "ranking", "verdict"…
    context: str = ""  # "result": the position the result belongs to (its grids are drawn)

    @property
    def blame(self) -> Blame | None:
        return Blame(self.rule, self.field) if self.rule else None


class Diverged(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.what)
        self.divergence = divergence


def diverge(step: int | None, sent: str, what: str, blame: Blame, **picture: Any) -> Diverged:
    """The exception that ends a case at its first divergence, blamed on one rule."""
    return Diverged(Divergence(step, sent, what, rule=blame.rule, field=blame.field, **picture))


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
    if wanted["totals"] != actual["totals"]:
        return blame_result("totals", position)
    if wanted["ranking"] != actual["ranking"]:
        return blame_ranking(wanted["ranking"], actual["ranking"], position)
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


def perft_lines(
    wanted: Message, nodes: object, divide: dict[str, object], limit: int = 8
) -> list[str]:
    """A perft answer compared entry by entry, as reports draw it: the node count, then each
    divide entry that differs (`reveals a1,b2: expected 4, engine 3`), at most `limit`."""
    lines = [f"nodes: expected {wanted['nodes']}, engine {nodes}"]
    for key in sorted(set(wanted["divide"]) | set(divide)):
        want, got = wanted["divide"].get(key, "absent"), divide.get(key, "absent")
        if want != got:
            lines.append(f"  {key}: expected {want}, engine {got}")
        if len(lines) > limit:
            lines.append("  …")
            break
    return lines
