"""Small things users notice (issue 21): every file a command writes is said on standard
error (`wrote FILE`) unless --quiet, standard output staying the command's own; `conformance
report` prints a text summary; rates and times keep three significant figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal.cli._rates import duration, rate, significant
from dekal.cli._written import wrote_line

runner = CliRunner()
GRID = "5T32/1444/9999/TT11"


def dekal(*args: str) -> Result:
    return runner.invoke(app, list(args))


# --- wrote FILE ---------------------------------------------------------------------------


def writers(folder: Path) -> dict[str, tuple[list[str], str]]:
    """Each command that writes, the file it writes and what the line names."""
    return {
        "show": (["show", GRID, "--svg", str(folder / "g.svg")], str(folder / "g.svg")),
        "puzzle": (["puzzle", "7", "--svg", str(folder / "p.svg")], str(folder / "p.svg")),
        "replay": (
            ["replay", "two-players-first-tie", "--svg", str(folder / "steps")],
            str(folder / "steps" / "step-0001.svg"),
        ),
    }


@pytest.mark.parametrize("command", ["show", "puzzle", "replay"])
def test_a_written_file_is_said_on_standard_error(command: str, tmp_path: Path) -> None:
    args, named = writers(tmp_path)[command]
    result = dekal(*args)
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("wrote ") and named in result.stderr
    assert "wrote" not in result.stdout


@pytest.mark.parametrize("command", ["show", "puzzle", "replay"])
def test_quiet_says_nothing_about_the_files(command: str, tmp_path: Path) -> None:
    args, named = writers(tmp_path)[command]
    result = dekal(*args, "--quiet")
    assert result.exit_code == 0 and result.stderr == ""
    assert Path(named).exists()


@pytest.mark.parametrize("command", ["show", "puzzle", "replay"])
def test_under_json_standard_output_stays_one_object(command: str, tmp_path: Path) -> None:
    args, named = writers(tmp_path)[command]
    result = dekal(*args, "--json")
    assert result.exit_code == 0
    assert isinstance(json.loads(result.stdout), dict)
    assert named in result.stderr


def test_many_files_of_a_folder_are_said_in_one_line() -> None:
    line = wrote_line(["d/step-0001.svg", "d/step-0002.svg", "d/step-0003.svg"])
    assert line == "wrote 3 files: d/step-0001.svg … d/step-0003.svg"


def test_a_picture_written_to_standard_output_is_not_said() -> None:
    result = dekal("show", GRID, "--svg", "-")
    assert result.stderr == "" and result.stdout.startswith("<svg")


# --- conformance report -------------------------------------------------------------------


@pytest.fixture(scope="module")
def saved_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    saved = tmp_path_factory.mktemp("report") / "ref.json"
    result = dekal("conformance", "run", "--engine", "ref", "--filter", "score-0001", "--json")
    assert result.exit_code == 0, result.output
    saved.write_text(result.stdout, "utf-8")
    return saved


def test_conformance_report_prints_each_engine_s_summary_and_the_verdict(
    saved_report: Path,
) -> None:
    result = dekal("conformance", "report", str(saved_report))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "PASS: 1 case"  # the engine's verdict line, then its summary
    assert lines[1].startswith("engine dekal-ref") and "1 case: 1 pass" in lines[1]
    assert "must-level coverage of what it claims" in result.stdout
    assert lines[-1] == "all 1 report passed"


def test_conformance_report_names_a_case_that_failed(saved_report: Path, tmp_path: Path) -> None:
    report = json.loads(saved_report.read_text("utf-8"))
    report["ok"] = False
    case = report["engines"][0]["cases"][0]
    case["status"], case["rule"] = "fail", "S1"
    report["engines"][0]["summary"] |= {"pass": 0, "fail": 1}
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(report), "utf-8")
    result = dekal("conformance", "report", str(broken))
    assert result.exit_code == 1
    assert f"fail S1: {case['id']} (must)" in result.stdout
    assert "1 of 1 report FAILED" in result.stdout


def test_conformance_report_says_the_page_and_badge_it_wrote(
    saved_report: Path, tmp_path: Path
) -> None:
    page, badge = tmp_path / "r.html", tmp_path / "b.svg"
    result = dekal("conformance", "report", str(saved_report), "--html", str(page),
                   "--badge", str(badge))  # fmt: skip
    assert result.stderr.splitlines() == [f"wrote {page}", f"wrote {badge}"]


# --- rates --------------------------------------------------------------------------------


def test_a_slow_rate_keeps_its_significant_figures() -> None:
    assert rate(3, 7.2, "games") == "0.417 games/s"  # was "0 games/s"


def test_a_fast_rate_is_grouped_in_thousands() -> None:
    assert rate(250_000, 1.0, "games") == "250,000 games/s"


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.0123456, "0.0123"), (7, "7.00"), (9.996, "10.0"), (99.96, "100"), (1530.2, "1,530"),
     (0, "0")],
)  # fmt: skip
def test_three_significant_figures(value: float, text: str) -> None:
    assert significant(value) == text


def test_a_duration_is_in_seconds() -> None:
    assert duration(0.04123) == "0.0412 s"


def test_simulate_says_its_plot_and_quiet_silences_it(tmp_path: Path) -> None:
    plot = tmp_path / "run.svg"
    run = ("simulate", "--games", "20", "--seed", "1", "--plot", str(plot))
    said = dekal(*run)
    assert said.exit_code == 0 and said.stderr == f"wrote {plot}\n"
    assert "wrote" not in said.stdout
    assert dekal(*run, "--quiet").stderr == ""
