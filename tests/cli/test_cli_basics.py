"""The `dekal` command's basics: --help, score, push, replay; JSON output; one-line errors with
meaningful exit codes and never a traceback (cli/_common.py: 0 ok, 2 bad input or illegal)."""

from __future__ import annotations

import doctest
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal_ref.record import parse_record

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "spec" / "examples"
runner = CliRunner()

LEA = "9991/446T/T27T/T113"  # source 001's worked example: 19 points, 5 cards


def dekal(*args: str, stdin: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


def assert_one_line_error(result: Result, *fragments: str) -> None:
    """Exit code 2, exactly one line on standard error naming the problem, no traceback."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1, result.stderr
    for fragment in fragments:
        assert fragment in errors[0]
    assert "Traceback" not in result.output


# --- help ---------------------------------------------------------------------------------


def test_help_lists_the_commands_and_the_exit_codes() -> None:
    result = dekal("--help")
    assert result.exit_code == 0
    for command in ("score", "push", "replay"):
        assert command in result.stdout
    assert "Exit codes" in result.stdout


@pytest.mark.parametrize("command", ["score", "push", "replay"])
def test_every_command_help_shows_an_example_and_json(command: str) -> None:
    result = dekal(command, "--help")
    assert result.exit_code == 0
    assert f"dekal {command} " in result.stdout
    assert "--json" in result.stdout


def test_no_arguments_shows_the_help() -> None:
    result = dekal()
    assert "score" in result.output and "Traceback" not in result.output


# --- score --------------------------------------------------------------------------------


def test_score_draws_the_grid_and_gives_the_total() -> None:
    result = dekal("score", LEA)
    assert result.exit_code == 0
    assert "score 19 with 5 cards left" in result.stdout
    assert "cancelled [x]: a1 b1 c1 a2 b2 d2 a3 d3 a4 b4 c4" in result.stdout
    assert "[9]" in result.stdout and " 6 " in result.stdout  # a cancelled 9, the 6 left


def test_score_json_gives_one_object_per_grid() -> None:
    result = dekal("score", LEA, "1111/2222/3333/4444", "--json")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0] == {
        "grid": LEA,
        "score": 19,
        "remaining": 5,
        "cancelled": ["a1", "b1", "c1", "a2", "b2", "d2", "a3", "d3", "a4", "b4", "c4"],
    }
    assert (lines[1]["score"], lines[1]["remaining"], len(lines[1]["cancelled"])) == (0, 0, 16)


def test_score_reads_grids_from_stdin_one_per_line() -> None:
    result = dekal("score", "-", "--json", stdin=f"{LEA}\n\n1212/2121/1212/2121\n")
    assert result.exit_code == 0
    scores = [json.loads(line)["score"] for line in result.stdout.splitlines()]
    assert scores == [19, 24]


def test_a_malformed_grid_among_good_ones_exits_2_but_the_others_are_scored() -> None:
    result = dekal("score", "-", "--json", stdin=f"{LEA}\n99/1\n8885/TT41/TT41/5374\n")
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line.get("score") for line in lines] == [19, None, 24]
    assert "malformed grid" in lines[1]["error"]["message"]
    assert "Traceback" not in result.output


def test_a_malformed_grid_under_json_is_the_one_error_object_inside_its_result() -> None:
    """Issue 19: score's per-grid error is {"kind", "field", "message"}, as every command's."""
    result = dekal("score", "--json", "99/1")
    (line,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert line["grid"] == "99/1"
    assert set(line["error"]) == {"kind", "field", "message"}
    assert (line["error"]["kind"], line["error"]["field"]) == ("notation", "grid")


@pytest.mark.parametrize(
    ("grid", "fragment"),
    [
        ("9991/446T/T27T", "3 rows"),
        ("9991/446T/T27T/T11", "row 4"),
        ("9991/446T/T27T/T1X3", "cell c4"),
        ("9991/4.6T/T.7T/T113", "2 holes"),
        ("[/bold]", "2 rows"),  # text that looks like terminal markup is shown, not parsed
    ],
)
def test_score_refuses_malformed_grids_in_one_line(grid: str, fragment: str) -> None:
    result = dekal("score", grid)
    assert result.exit_code == 2
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and "malformed grid" in errors[0] and fragment in errors[0]
    assert "Traceback" not in result.output


# --- push ---------------------------------------------------------------------------------


def test_push_json_gives_the_grid_after() -> None:
    result = dekal("push", "5T32/1.44/9999/TT11", "L", "7", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"grid": "5T32/7144/9999/TT11"}


def test_push_text_draws_the_grid_and_prints_its_notation() -> None:
    result = dekal("push", "5T32/1.44/9999/TT11", "B", "T")
    assert result.exit_code == 0
    assert result.stdout.strip().splitlines()[-1] == "5T32/1944/9T99/TT11"
    assert "5T32/1.44/9999/TT11 + T from B (slide)" in result.stdout


def test_push_eject_pushes_the_far_card_into_the_hole() -> None:
    result = dekal("push", "5T32/1.44/9999/TT11", "L3", "7", "--variant", "eject", "--json")
    assert json.loads(result.stdout) == {"grid": "5T32/1944/7999/TT11"}


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["5T32/.144/9999/TT11", "L", "7"], ("rule P1", "straight into the hole")),
        (["5T32/1.44/9999/TT11", "L3", "7"], ("rule P1",)),
        (["5T32/1.44/9999/TT11", "L", "7", "--variant", "eject"], ("rule P2",)),
        (["5T32/1444/9999/TT11", "L", "7"], ("rule T4", "no hole")),
        (["5T32/1.44/9999/TT1", "L", "7"], ("malformed grid",)),
        (["5T32/1.44/9999/TT11", "X", "7"], ("malformed push",)),
        (["5T32/1.44/9999/TT11", "L", "0"], ("malformed card",)),
        (["5T32/1.44/9999/TT11", "L", "7", "--variant", "wrap"], ("malformed variant",)),
    ],
)
def test_push_refuses_in_one_line_naming_the_rule_or_field(
    args: list[str], fragments: tuple[str, ...]
) -> None:
    assert_one_line_error(dekal("push", *args), *fragments)


# --- replay -------------------------------------------------------------------------------


def test_replay_tells_every_turn_and_the_result() -> None:
    result = dekal("replay", str(EXAMPLES / "two-players-first-tie.dkr"))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "seats 0, 1 tie on 3; set-aside draws 1 9: seat 0 starts (F2)" in out
    assert sum(line.startswith("turn ") for line in out.splitlines()) == 16
    assert "seat 0: 19 points, 6 cards left" in out
    assert out.strip().splitlines()[-3] == "seat 0 wins"


def test_replay_finds_a_bundled_record_by_name_and_quiet_prints_only_the_result() -> None:
    result = dekal("replay", "three-players-eject-match", "--quiet")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "seat 1 wins",
        "  1  seat 1: total 80",
        "  2  seat 2: total 85",
        "  3  seat 0: total 113",
    ]


@pytest.mark.parametrize("name", ["two-players-first-tie", "three-players-eject-match"])
def test_replay_tells_the_same_story_on_both_engines(name: str) -> None:
    fast = dekal("replay", name, "--engine", "fast")
    ref = dekal("replay", name, "--engine", "ref")
    assert fast.exit_code == ref.exit_code == 0
    assert fast.stdout == ref.stdout


def test_replay_refuses_an_unknown_engine_in_one_line() -> None:
    result = dekal("replay", "two-players-first-tie", "--engine", "slow")
    assert result.exit_code == 2
    assert "choose one of fast, ref" in result.output


def test_replay_json_reads_a_json_record_from_stdin() -> None:
    text = (EXAMPLES / "two-players-first-tie.json").read_text(encoding="utf-8")
    result = dekal("replay", "-", "--json", stdin=text)
    assert result.exit_code == 0
    summary = json.loads(result.stdout)
    assert summary["ok"] and summary["over"] and summary["winners"] == [0]
    assert summary["rounds"][0]["draws"] == ["1", "9"]
    assert [s["points"] for s in summary["rounds"][0]["scores"]] == [19, 28]


@pytest.mark.parametrize("name", ["four-players-slide", "three-players-eject-match"])
def test_replay_json_ranking_is_the_records_places(name: str) -> None:
    rec = parse_record((EXAMPLES / f"{name}.dkr").read_text(encoding="utf-8"))
    summary = json.loads(dekal("replay", name, "--json").stdout)
    assert rec.places is not None
    assert {r["seat"]: r["place"] for r in summary["ranking"]} == dict(enumerate(rec.places))
    assert len(summary["rounds"]) == len(rec.rounds)


def tie_record(old: str, new: str) -> str:
    text = (EXAMPLES / "two-players-first-tie.dkr").read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


def test_replay_refuses_an_illegal_move_naming_turn_action_and_rule() -> None:
    record = tie_record("take 1 3, push 1 L, take 0 6", "take 1 4, push 1 L, take 0 6")
    result = dekal("replay", "-", "--quiet", stdin=record)
    assert_one_line_error(result, "rule T3", "round 1, turn 2", "take 1 4")


def test_replay_json_refusal_is_one_json_object() -> None:
    record = tie_record("take 1 3, push 1 L, take 0 6", "take 1 4, push 1 L, take 0 6")
    result = dekal("replay", "-", "--json", stdin=record)
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert (error["rule"], error["round"], error["turn"], error["action"]) == (
        "T3",
        1,
        2,
        "take 1 4",
    )


def test_replay_refuses_a_result_the_game_contradicts() -> None:
    result = dekal("replay", "-", "-q", stdin=tie_record("places 1 2", "places 2 1"))
    assert_one_line_error(result, "rule S3", "places 2 1")


@pytest.mark.parametrize(
    ("record", "fragments"),
    [
        ("hello", ("malformed",)),
        ("{not json", ("malformed record", "JSON")),
        ('[Format "dekal-record/1"]\n[Players "2"]\n', ("malformed record", "round 1")),
    ],
)
def test_replay_refuses_malformed_records_in_one_line(
    record: str, fragments: tuple[str, ...]
) -> None:
    assert_one_line_error(dekal("replay", "-", stdin=record), *fragments)


def test_replay_of_a_missing_file_lists_the_bundled_records() -> None:
    assert_one_line_error(dekal("replay", "no/such/game.dkr"), "two-players-first-tie")


def test_an_unfinished_record_replays_and_says_so() -> None:
    text = (EXAMPLES / "two-players-first-tie.dkr").read_text(encoding="utf-8")
    cut = text[: text.index("\n3. ")] + "\n"
    result = dekal("replay", "-", stdin=cut)
    assert result.exit_code == 0
    assert "the record stops in round 1, turn 3 (reveal): no result yet" in result.stdout


# --- the installed command ----------------------------------------------------------------


def test_the_installed_dekal_command_runs_in_a_real_process() -> None:
    script = Path(sys.executable).with_name("dekal")
    if not script.exists():
        pytest.skip("no dekal console script beside this Python")
    ok = subprocess.run(
        [str(script), "score", "-", "--json"],
        input=f"{LEA}\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["score"] == 19
    bad = subprocess.run(
        [str(script), "push", "5T32/1.44/9999/TT11", "T4", "7"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "rule P1" in bad.stderr
    assert "Traceback" not in bad.stderr + bad.stdout


# --- docs/guide.md: its Python examples run (its console examples, with every page's, are
# run by tests/docs/test_docs_examples.py) ------------------------------------------------------

GUIDE = ROOT / "docs" / "guide.md"
PYCON = re.compile(r"^```pycon\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def test_guide_python_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    text = GUIDE.read_text(encoding="utf-8")
    blocks = PYCON.findall(text)
    assert blocks
    parser = doctest.DocTestParser()
    runner_ = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"guide-{number}", str(GUIDE), 0)
        runner_.run(test)
    assert runner_.summarize(verbose=False).failed == 0


def test_version_prints_the_installed_distribution_version() -> None:
    from importlib.metadata import version

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"dekal {version('dekal')}"
