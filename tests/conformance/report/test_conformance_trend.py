"""`dekal conformance trend`: a rule × report table across saved reports, oldest first.

Two saved reports of a few cases each: a build whose scoring cancels diagonal neighbours
(S1 broken, the cases covering S2 failing because of it), then the reference. The table
says per rule what each report says (dekal.conformance.report._rule_rows), marks what changed, ends
with each report's verdict line, and is the same in text, JSON and HTML.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_conformance_runner import diagonal
from typer.testing import CliRunner

from dekal.cli._app import app
from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.drive._direct_engine import DirectEngine, bundled_engine
from dekal.conformance.judge._runner import run_suite
from dekal.conformance.report._formats import report_json
from dekal.conformance.report._rule_rows import rule_rows, verdict_line
from dekal.conformance.report._rule_titles import titled

runner = CliRunner()
IDS = {"score-0001", "score-0002", "score-0003", "score-0007", "push-0001"}


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """r1.json (the diagonal build), r2.json (the reference), as `run --json` saves them."""
    cases = [case for case in load_cases() if case["id"] in IDS]
    folder = tmp_path_factory.mktemp("trend")
    files = []
    for name, engine in (
        ("r1.json", DirectEngine(diagonal, "diagonal")),
        ("r2.json", bundled_engine("ref")),
    ):
        (folder / name).write_text(json.dumps(report_json([run_suite(engine, cases)])))
        files.append(folder / name)
    return files


def trend(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["conformance", "trend", *args])
    return result.exit_code, result.stdout


def test_each_report_is_a_column_and_each_rule_a_row_with_its_title(saved: list[Path]) -> None:
    code, text = trend(*map(str, saved))
    lines = text.splitlines()
    assert code == 0  # the last report passed
    assert lines[0].startswith("1. diagonal ") and lines[0].endswith(" (r1.json)")
    assert lines[1].startswith("2. dekal-ref ") and lines[1].endswith(" (r2.json)")
    (s1,) = [line for line in lines if line.startswith("S1 ")]
    assert s1.split() == [*titled("S1").split(), "✗", "2", "4", "pass*"]


def test_the_cells_say_what_each_report_says_of_the_rule(saved: list[Path]) -> None:
    code, text = trend(*map(str, saved), "--json")
    table = json.loads(text)
    reports = [json.loads(path.read_text())["engines"][0] for path in saved]
    for entry in table["rules"]:
        states = [cell["state"] for cell in entry["cells"]]
        assert states == [
            next(row.state for row in rule_rows(report) if row.rule == entry["rule"])
            for report in reports
        ]
    by_rule = {entry["rule"]: entry["cells"] for entry in table["rules"]}
    assert [c["state"] for c in by_rule["S1"]] == ["broken", "pass"]
    assert [c["state"] for c in by_rule["S2"]] == ["elsewhere", "pass"]
    assert [c["state"] for c in by_rule["T3"]] == ["not run", "not run"]
    assert [c["changed"] for c in by_rule["S1"]] == [False, True]
    assert [c["verdict"] for c in table["columns"]] == list(map(verdict_line, reports))


def test_the_table_ends_with_each_reports_verdict_line(saved: list[Path]) -> None:
    code, text = trend(str(saved[1]), str(saved[0]))
    assert code == 1  # the last report failed
    verdicts = [line for line in text.splitlines() if line[:3] in ("1. ", "2. ")][2:]
    assert verdicts == ["1. PASS: 5 cases", "2. FAIL: 1 rule broken, 2 cases (must) — S1"]


def test_the_html_page_draws_the_same_table_with_a_legend(
    saved: list[Path], tmp_path: Path
) -> None:
    page = tmp_path / "trend.html"
    code, _ = trend(*map(str, saved), "--html", str(page), "--quiet")
    html = page.read_text("utf-8")
    assert code == 0
    assert '<td class="cell broken" data-rule="S1" data-column="0" data-state="broken">' in html
    assert 'data-rule="S1" data-column="1" data-state="pass"' in html
    assert '<p class="legend">' in html and "blamed on other rules" in html


def test_a_file_that_is_not_a_report_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"report_version": 99}')
    code, text = trend(str(other), "--json")
    assert code == 2 and json.loads(text)["error"]["field"] == "RESULTS"
