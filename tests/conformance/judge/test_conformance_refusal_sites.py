"""Complete by construction: the suite reaches every refusal branch of the reference
(dekal.conformance.judge._refusal_sites): every `raise` of a rule, a notation error, a bad request
or an unsupported feature in the reference as the protocol serves it, but those no request
can reach (listed with what pre-empts them)."""

from __future__ import annotations

from typing import Any

import pytest

from dekal.conformance.cases._situation_map import (
    describe,
    missing,
    reached_combinations,
    situation_map,
)
from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.judge._refusal_sites import UNREACHABLE, recording, refusal_sites, unreached
from dekal.conformance.judge._situations import SituationTracer, traced_situations
from dekal_ref.errors import IllegalAction


@pytest.fixture(scope="module")
def whole_suite() -> tuple[list[Any], set[Any]]:
    """One run of the whole suite on the reference that records both what this file checks:
    the refusal sites it reaches, and the situations of the map (spec/situations.json) its
    steps reach, read off the reference as it plays (as an own-deal engine too, for the
    cases that deal a new round)."""
    cases = load_cases()
    tracer = SituationTracer()
    sites = unreached(cases, tracer)
    situations = tracer.situations | traced_situations(
        [c for c in cases if any("new_round" in step for step in c.get("steps", []))], "own"
    )
    return sites, situations


def test_the_suite_reaches_every_refusal_site_of_the_reference(
    whole_suite: tuple[list[Any], set[Any]],
) -> None:
    assert whole_suite[0] == []


def test_the_suite_reaches_every_feasible_pair_and_triple_of_the_situation_map(
    whole_suite: tuple[list[Any], set[Any]],
) -> None:
    """Issue 27: every pair of values of two dimensions of a rule (and every triple, for the
    rules the map lists under `triples`) that a game can reach, some case reaches."""
    left = [describe(combination) for combination in missing(whole_suite[1])]
    assert left == [], "unreached:\n" + "\n".join(left)


def test_no_situation_the_suite_reaches_is_one_the_map_calls_infeasible(
    whole_suite: tuple[list[Any], set[Any]],
) -> None:
    """The map's constraints are true: a combination the reference plays is feasible."""
    chart = situation_map()
    wrong = [
        f"{describe(c)}: {chart.why_not(c[1], c[0])}"
        for c in sorted(reached_combinations(whole_suite[1]))
        if not chart.feasible(c[1], c[0])
    ]
    assert wrong == []


def test_suite_v2s_positions_left_refusal_sites_unreached() -> None:
    """The measurement can fail: v2's games from a position leave rules that make a position
    unreachable without a case (v3 added one position per rule)."""
    v2_positions = [c for c in load_cases("v2") if c["id"].startswith("position-")]
    missing = unreached(v2_positions)
    assert ("_reachable.py", "_check_clock", 1) in missing
    assert ("_reachable.py", "_check_rounds", 1) in missing


def test_every_site_listed_unreachable_is_a_refusal_site() -> None:
    """The exemptions name real sites (a renamed function would leave a stale entry)."""
    assert set(UNREACHABLE) <= refusal_sites()


def test_recording_notes_the_site_a_refusal_is_raised_at() -> None:
    import dekal_ref

    with recording() as reached, pytest.raises(IllegalAction):
        dekal_ref.reveal(_over_state(), 0, 0)
    assert reached == {("game.py", "_check_not_finished", 1)}


def _over_state() -> Any:
    """A finished single-round game (the first whole game of the suite, at its end)."""
    import dekal_ref

    case = next(c for c in load_cases() if c["id"] == "game-0001")
    return dekal_ref.parse_position(case["steps"][-1]["expect"]["position"])
