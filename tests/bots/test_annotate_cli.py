"""`dekal annotate` on the command line: the JSON shape, the seats, the text, the HTML page
read back by a real browser, and every refusal naming its field or rule with exit code 2.

Most tests annotate the first two turns of a bundled record (12 decisions, 30 worlds each):
cheap, and the same figures as the whole record's first two turns."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal.cli._replay import bundled_examples

runner = CliRunner()
BUNDLED = "two-players-first-tie"
TWO_TURNS = "\n".join(bundled_examples()[BUNDLED].splitlines()[:14]) + "\n"
BROWSER_SECONDS = 120
DECISION_KEYS = {
    "step", "seat", "phase", "played", "best", "expected_played", "expected_best", "loss",
    "ci95", "exact", "mark",
}  # fmt: skip


def dekal(*args: str, stdin: str | None = None) -> Result:
    return runner.invoke(app, ["annotate", *args], input=stdin)


def annotated(*args: str) -> dict[str, object]:
    shown = dekal("-", "--samples", "30", "--json", *args, stdin=TWO_TURNS)
    assert shown.exit_code == 0, shown.output
    payload: dict[str, object] = json.loads(shown.stdout)
    return payload


@pytest.fixture(scope="module")
def both_seats() -> dict[str, object]:
    return annotated()


def test_json_gives_the_record_the_settings_every_decision_and_each_seats_summary(
    both_seats: dict,
) -> None:
    assert set(both_seats) == {"record", "seed", "samples", "model", "decisions", "seats"}
    assert (both_seats["record"], both_seats["seed"], both_seats["samples"]) == ("-", 0, 30)
    assert both_seats["model"] == "greedy"
    assert len(both_seats["decisions"]) == 12  # two turns: each seat reveals, takes, pushes
    for decision in both_seats["decisions"]:
        assert set(decision) == DECISION_KEYS
        assert set(decision["ci95"]) == {"played", "best", "loss"}
        assert decision["loss"] == pytest.approx(
            decision["expected_played"] - decision["expected_best"], abs=2e-4
        )
    assert [set(s) for s in both_seats["seats"]] == [
        {"seat", "decisions", "mean_loss", "mistakes", "blunders"}
    ] * 2


def test_the_summary_counts_the_marks_of_the_json_decisions(both_seats: dict) -> None:
    for summary in both_seats["seats"]:
        marks = [d["mark"] for d in both_seats["decisions"] if d["seat"] == summary["seat"]]
        assert summary["decisions"] == len(marks) == 6
        assert (summary["mistakes"], summary["blunders"]) == (marks.count("?"), marks.count("??"))


def test_seats_are_repeatable_or_a_comma_list(both_seats: dict) -> None:
    seat_1 = [d for d in both_seats["decisions"] if d["seat"] == 1]
    assert annotated("--seat", "1")["decisions"] == seat_1
    assert annotated("--seat", "1,0")["decisions"] == both_seats["decisions"]
    assert annotated("--seat", "0", "--seat", "1")["seats"] == both_seats["seats"]


def test_a_bundled_record_is_read_by_its_name() -> None:
    shown = dekal(BUNDLED, "--seat", "0", "--samples", "30", "--json")
    assert shown.exit_code == 0, shown.output
    payload = json.loads(shown.stdout)
    assert payload["record"] == BUNDLED and len(payload["decisions"]) == 48
    last = payload["decisions"][-1]  # the last push of the round hides nothing
    assert last["exact"] and last["ci95"]["played"][0] == last["ci95"]["played"][1]


def test_the_text_shows_each_view_the_moves_and_a_summary_per_seat() -> None:
    shown = dekal("-", "--samples", "30", "--seat", "0", stdin=TWO_TURNS)
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert (
        lines[0]
        == "annotate -: 30 sampled worlds a decision (fewer when exact), seed 0, model greedy"
    )
    assert lines[1].startswith("1. round 1, turn 1, seat 0 to reveal: slide/lowest/single 1.1 ")
    assert lines[2].startswith("   played reveal 0 c2  ")
    assert re.match(r"  seat 0: 6 decisions, mean loss \d+\.\d\d points; ", lines[-2])
    assert lines[-1].startswith("marks: expected points lost at least ?? 3, ? 1, ?! 0.5")


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--seat", "2"], "--seat"),
        (["--seat", "x"], "--seat"),
        (["--samples", "5"], "--samples"),
        (["--bot", "nobody"], "--bot"),
    ],
)
def test_a_bad_option_is_refused_naming_it(args: list[str], field: str) -> None:
    shown = dekal("-", "--json", *args, stdin=TWO_TURNS)
    assert shown.exit_code == 2, shown.output
    assert json.loads(shown.stdout)["error"]["field"] == field


def test_a_missing_record_is_refused_naming_the_argument() -> None:
    shown = dekal("no-such-record", "--json")
    assert shown.exit_code == 2
    assert json.loads(shown.stdout)["error"]["field"] == "RECORD"


def test_an_illegal_record_is_refused_naming_the_rule() -> None:
    illegal = TWO_TURNS.replace("take 0 3, push 0 L", "push 0 L, take 0 3", 1)
    shown = dekal("-", "--json", stdin=illegal)
    assert shown.exit_code == 2, shown.output
    error = json.loads(shown.stdout)["error"]
    assert (error["kind"], error["rule"], error["round"], error["turn"]) == ("illegal", "T4", 1, 1)


# --- The page in a browser --------------------------------------------------------------------


def chromium() -> str:
    """Chromium; without it this test skips, except in CI where it fails."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (CI must install it: see .ci/run)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return found


def dump_dom(page: Path, folder: Path) -> str:
    """The DOM headless Chromium builds from `page`, within BROWSER_SECONDS, process reaped."""
    command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
               f"--user-data-dir={folder / 'profile'}", "--dump-dom", page.as_uri()]  # fmt: skip
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True
    ) as browser:
        try:
            out, _ = browser.communicate(timeout=BROWSER_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(browser.pid, 9)  # the browser's helpers too: its own process group
            browser.communicate()
            pytest.fail(f"chromium did not dump the page within {BROWSER_SECONDS} s")
    return out.decode("utf-8")


def test_a_browser_shows_every_decision_of_the_json_drawn(tmp_path: Path) -> None:
    page = tmp_path / "game.html"
    shown = dekal("-", "--samples", "30", "--json", "--html", str(page), stdin=TWO_TURNS)
    assert shown.exit_code == 0, shown.output
    decisions = json.loads(shown.stdout)["decisions"]
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"<script|<link|<img| src=", text)  # self-contained: loads nothing
    dom = dump_dom(page, tmp_path)
    sections = re.findall(r'<section class="decision" ([^>]*)>(.*?)</section>', dom, re.DOTALL)
    assert len(sections) == len(decisions)
    for (attributes, body), decision in zip(sections, decisions, strict=True):
        data = dict(re.findall(r'data-([a-z]+)="([^"]*)"', attributes))
        assert (int(data["step"]), int(data["seat"]), data["played"], data["best"]) == (
            decision["step"], decision["seat"], decision["played"], decision["best"],
        )  # fmt: skip
        assert data["mark"].replace("&amp;", "&") == decision["mark"]
        assert body.count("<svg") == (1 if decision["played"] == decision["best"] else 2)
        face_down = re.findall(r'<g class="card"[^>]*data-state="face-down"[^>]*>', body)
        assert face_down and not any("data-value" in card for card in face_down)  # M3


# The annotation does not depend on the workers: tests/simulation/test_simulate_cluster.py annotates
# these two turns alone and on a Dask cluster of two workers.
