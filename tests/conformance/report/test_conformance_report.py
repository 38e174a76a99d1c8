"""The reports (conformance/report/_formats.py, pictures.py): every failure says the rule it breaks
and the field that shows it, in text, JSON and JUnit; a result divergence is a table of every
seat with the ranking both ways; the JSON is versioned and complete enough to draw again."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from test_conformance_blame import more_cards_breaks_ties
from test_conformance_runner import diagonal, judge, subset

from dekal.conformance.judge._runner import Run
from dekal.conformance.report._formats import (
    REPORT_VERSION,
    divergence_from_json,
    divergence_json,
    divergence_text,
    junit_xml,
    report_json,
    rule_matrix,
    run_text,
)

RANKED = ("game-0006", "game-0301")  # a tie on points broken by cards; a shared victory


def ranking_run() -> Run:
    return judge(more_cards_breaks_ties, subset(*RANKED))


def test_a_ranking_failure_is_counted_under_s3_alone_and_passes_under_every_rule() -> None:
    run = ranking_run()
    matrix = rule_matrix(run)
    assert matrix["S3"]["fail"] == 1 and sum(row["fail"] for row in matrix.values()) == 1
    shared = next(o for o in run.outcomes if o.id == "game-0301")
    assert shared.status == "pass"
    assert all(matrix[rule]["pass"] == 1 for rule in shared.case["rules"])


def test_the_text_report_names_rule_and_field_and_says_how_the_matrix_counts() -> None:
    text = run_text(ranking_run())
    assert "FAIL game-0006" in text and "  rule S3 (ranking); the case covers T1," in text
    assert "a failure or error counts under the rule it breaks" in text


def test_a_result_divergence_shows_every_seat_and_the_ranking_both_ways() -> None:
    run = ranking_run()
    (failed,) = run.not_passing
    divergence = failed.divergence
    assert divergence is not None and divergence.kind == "result"
    text = divergence_text(divergence)
    seats = len(json.loads(divergence.expected)["scores"])
    rows = [
        line.split() for line in text.splitlines() if line.split()[:1] and line.split()[0].isdigit()
    ]
    assert [row[0] for row in rows] == [str(seat) for seat in range(seats)]
    assert all(len(row) >= 7 for row in rows)  # points, cards, total: expected then engine
    expected_ranking = next(line for line in text.splitlines() if "ranking, expected:" in line)
    engine_ranking = next(line for line in text.splitlines() if "ranking, engine:" in line)
    assert expected_ranking.split(":")[1] != engine_ranking.split(":")[1]


def test_a_result_table_stars_the_seats_that_differ() -> None:
    run = judge(diagonal, subset("game-0002"))
    (failed,) = run.not_passing
    assert failed.divergence is not None
    text = divergence_text(failed.divergence)
    expected = json.loads(failed.divergence.expected)["scores"]
    actual = json.loads(failed.divergence.actual)["scores"]
    starred = {
        int(line.split()[0])
        for line in text.splitlines()
        if line.split()[:1] and line.split()[0].isdigit() and line.rstrip().endswith("*")
    }
    differing = {seat for seat, (a, b) in enumerate(zip(expected, actual, strict=True)) if a != b}
    assert starred == differing and differing


def test_the_json_report_is_versioned_and_every_outcome_is_complete() -> None:
    report = report_json([ranking_run()])
    assert report["report_version"] == REPORT_VERSION
    (engine,) = report["engines"]
    assert set(engine["coverage"]) == {"claimed", "core", "skipped", "cannot_run", "rules"}
    failed = next(case for case in engine["cases"] if case["status"] == "fail")
    assert (failed["rule"], failed["field"], failed["counted_under"]) == ("S3", "ranking", ["S3"])
    assert failed["blame"] == "S3 (ranking)"
    divergence = failed["divergence"]
    assert set(divergence) >= {"step", "sent", "what", "expected", "actual", "kind", "context"}
    passed = next(case for case in engine["cases"] if case["status"] == "pass")
    assert passed["rule"] is None and passed["counted_under"] == passed["rules"]
    json.dumps(report)  # everything in it is JSON


def test_a_divergence_read_back_from_json_draws_the_same_picture() -> None:
    for run in (ranking_run(), judge(diagonal, subset("score-0003"))):
        for outcome in run.not_passing:
            assert outcome.divergence is not None
            again = divergence_from_json(
                json.loads(json.dumps(divergence_json(outcome.divergence)))
            )
            assert again == outcome.divergence
            assert divergence_text(again) == divergence_text(outcome.divergence)


def test_junit_names_the_rule_in_the_failure_and_carries_the_coverage() -> None:
    root = ET.fromstring(junit_xml([ranking_run()]))
    suite = root.find("testsuite")
    assert suite is not None
    properties = {p.get("name"): p.get("value") for p in suite.findall("properties/property")}
    assert properties["report_version"] == str(REPORT_VERSION)
    assert properties["coverage.claimed"] == "1/2" and properties["coverage.core"] == "2/2"
    assert properties["coverage.S3"].startswith("claimed 2, run 2, passed 1, skipped 0")
    failure = suite.find("testcase/failure")
    assert failure is not None and str(failure.get("message")).startswith("S3 (ranking): ")


def refuses_positions() -> object:
    """dekal_ref, except that it refuses every game started from a position line (M3)."""
    from test_conformance_runner import api

    from dekal_ref.errors import IllegalAction

    def parse_position(text: str) -> object:
        raise IllegalAction("M3", "positions are not read here")

    return api(parse_position=parse_position)


def test_a_failed_set_up_from_a_position_shows_the_position_sent() -> None:
    """A refused set-up is reproduced from the line the engine was sent: the report says it."""
    cases = [c for c in subset("position-") if c["kind"] == "game"][:1]
    run = judge(refuses_positions, cases)
    (outcome,) = run.outcomes
    assert outcome.status == "fail" and outcome.divergence is not None
    position = str(cases[0]["setup"]["position"])
    assert outcome.divergence.sent == f"new_game position {position}"
    assert f"at set-up: new_game position {position}" in divergence_text(outcome.divergence)
