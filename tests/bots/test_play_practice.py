"""`dekal play` as a teacher: prompts that list the legal choices only, how a round is won,
and in a practice game `hint` (advise on the human's view) and `undo`; a rated game refuses
both; `--annotate` judges the human's decisions when the game ends.

The human is scripted through CliRunner, as in tests/bots/test_play.py."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from dekal.bots.advise import advise
from dekal.bots.observation import read_public_view
from dekal.cli._app import app
from dekal_ref.record import parse_record, replay

runner = CliRunner()
PLAY = ["play", "--bots", "greedy", "--seed", "1"]  # seat 0 starts, the hole at b3: docs/guide
PROMPT = re.compile(r"^seat \d, (take a card from the centre|push the \S+ you took .*?) \((.*)\)> ")


@pytest.fixture(autouse=True)
def in_a_fresh_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game saves its record in the current folder unless told where: never the checkout."""
    monkeypatch.chdir(tmp_path)


def dekal(args: list[str], script: str = "") -> Result:
    return runner.invoke(app, args, input=script)


def json_lines(result: Result) -> list[dict[str, Any]]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


# --- Prompts ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "seed"), [("slide", 5), ("eject", 9)])
def test_each_take_and_push_prompt_lists_exactly_the_legal_choices(variant: str, seed: int) -> None:
    """Every prompt of a game of random legal moves, checked against the `legal` answer the
    human asks for right after it."""
    choose = random.Random(seed)
    args = [*PLAY[:3], "--seed", str(seed), "--variant", variant]
    script, checked = "", 0
    for _ in range(15):  # five turns of reveal, take and push
        result = dekal(args, script + "legal\n")
        last_prompt = [line for line in result.output.splitlines() if "> " in line][-1]
        legal = result.output.rsplit("legal: ", 1)[1].splitlines()[0].split(", ")
        if (prompt := PROMPT.match(last_prompt)) is not None:
            assert prompt.group(2).split() == [action.split()[2] for action in legal]
            checked += 1
        script += choose.choice(legal) + "\n"
    assert checked >= 6


def test_a_corner_hole_offers_two_sides_not_four() -> None:
    # seat 0 reveals a1 (its hole), takes the lowest card in the centre
    shown = dekal(PLAY, "a1\nlegal\n")
    take = shown.output.rsplit("legal: ", 1)[1].splitlines()[0].split(", ")[0]
    pushing = dekal(PLAY, f"a1\n{take}\n")
    assert "you took into your grid (R B)> " in pushing.output  # P1: L and T would fill a1


def test_help_says_how_a_round_is_won() -> None:
    result = dekal(PLAY, "help\n")
    assert "The lowest\nscore wins the round, a tie goes to the fewest cards left (S3)" in (
        result.output
    )
    assert "(S1)" in result.output and "(S4)" in result.output


# --- Hint -------------------------------------------------------------------------------------


def test_a_hint_is_advise_on_the_humans_view_from_200_worlds() -> None:
    lines = json_lines(dekal([*PLAY, "--practice", "--json"], "b3\nhint\n"))
    prompt = next(line for line in lines if line.get("prompt") == "take")
    hint = next(line["hint"] for line in lines if "hint" in line)
    view = read_public_view(prompt["position"])
    assert hint == advise(view, 0, samples=200).to_json()
    assert hint["samples"] == 200 and hint["seed"] == 0


def test_the_text_hint_says_how_many_worlds_it_sampled() -> None:
    result = dekal([*PLAY, "--practice"], "b3\nhint\n")
    assert "seat 0 to take: 200 sampled worlds, seed 0, model greedy" in result.output
    assert re.search(r"^best: take 0 [24]$", result.output, re.MULTILINE)


@pytest.mark.parametrize("command", ["hint", "undo"])
def test_a_rated_game_refuses_hint_and_undo_naming_practice(command: str) -> None:
    lines = json_lines(dekal([*PLAY, "--json"], f"b3\n{command}\n"))
    error = next(line["error"] for line in lines if "error" in line)
    assert (error["kind"], error["field"]) == ("refused", command)
    assert "--practice" in error["message"]
    assert [line["prompt"] for line in lines if "prompt" in line] == ["reveal", "take", "take"]


# --- Undo -------------------------------------------------------------------------------------


def test_undo_takes_back_the_humans_last_decision_and_asks_again_where_it_was_asked(
    tmp_path: Path,
) -> None:
    record = tmp_path / "g.dkr"
    args = [*PLAY, "--practice", "--json", "--record", str(record)]
    lines = json_lines(dekal(args, "b3\n4\nB\nundo\n"))
    prompts = [line for line in lines if "prompt" in line]
    undone = next(line for line in lines if "undone" in line)
    # the push B and the bot's take and push after it are taken back: seat 0 pushes again
    assert undone["undone"][0] == "push 0 B" and len(undone["undone"]) == 3
    assert prompts[-1]["prompt"] == "push" and prompts[-1]["position"] == prompts[2]["position"]
    assert undone["position"] == prompts[2]["position"]


def test_a_practice_record_keeps_the_moves_played_and_says_how_often_undo_and_hint_were_used(
    tmp_path: Path,
) -> None:
    record = tmp_path / "g.dkr"
    script = "b3\nhint\n4\nB\nundo\nR\nquit\n"
    assert dekal([*PLAY, "--practice", "--record", str(record)], script).exit_code == 0
    text = record.read_text(encoding="utf-8")
    assert '[Event "dekal play, practice game (1 undo, 1 hint): you at seat 0;' in text
    moves = [str(move) for move in parse_record(text).rounds[0].moves]
    assert moves[:4] == ["reveal 0 b3", "reveal 1 a1", "take 0 4", "push 0 R"]
    assert "push 0 B" not in moves
    replay(parse_record(text))  # the kept moves are a legal game (B1)


def test_a_rated_record_says_so(tmp_path: Path) -> None:
    record = tmp_path / "g.dkr"
    assert dekal([*PLAY, "--record", str(record)], "b3\nquit\n").exit_code == 0
    assert '[Event "dekal play, rated game: you at seat 0;' in record.read_text("utf-8")


def test_undo_with_nothing_of_the_humans_in_the_round_is_refused() -> None:
    lines = json_lines(dekal([*PLAY, "--practice", "--json"], "undo\n"))
    error = next(line["error"] for line in lines if "error" in line)
    assert error["field"] == "undo" and "nothing of yours" in error["message"]


# --- Annotate ---------------------------------------------------------------------------------


def test_annotate_judges_the_humans_decisions_as_dekal_annotate_does(tmp_path: Path) -> None:
    record = tmp_path / "g.dkr"
    args = [*PLAY, "--annotate", "--json", "--record", str(record)]
    lines = json_lines(dekal(args, "b3\n4\nB\nc3\nquit\n"))
    annotation = lines[-1]
    assert annotation["event"] == "annotation" and annotation["record"] == str(record)
    assert {d["seat"] for d in annotation["decisions"]} == {0}
    assert [d["played"] for d in annotation["decisions"]] == [
        "reveal 0 b3", "take 0 4", "push 0 B", "reveal 0 c3",
    ]  # fmt: skip
    again = json_lines(
        dekal(["annotate", str(record), "--seat", "0", "--samples", "200", "--json"])
    )[0]
    assert annotation == {"event": "annotation"} | again


def test_annotate_in_text_ends_the_game_with_the_summary(tmp_path: Path) -> None:
    record = tmp_path / "g.dkr"
    result = dekal([*PLAY, "--annotate", "--record", str(record)], "b3\n4\nB\nquit\n")
    assert result.exit_code == 0, result.output
    tail = result.output.split(f"record saved to {record}", 1)[1]
    assert f"annotate {record}: 200 sampled worlds a decision" in tail
    assert "  seat 0: 3 decisions, mean loss " in tail
