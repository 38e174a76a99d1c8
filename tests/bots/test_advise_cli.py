"""`dekal advise` on the command line: the JSON shape, the table, and every refusal naming
its field with exit code 2."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner, Result

from dekal.cli._app import app

runner = CliRunner()
LAST_PUSH = (
    "slide/lowest/single 1.16 push@0:3 0 T491/8437/8837/555.|1112/TT82/T72T/T62T -,- - #68 - 0,0"
)
FULL = (  # the same position, the pile's cards written out (rules.md, T5)
    "slide/lowest/single 1.16 push@0:3 0 T491/8437/8837/555.|1112/TT82/T72T/T62T -,- -"
    " 25566376374645612481935447358T196T78935165878718672994349226493T1992 - 0,0"
)
MID_GAME = (  # turn 2 of seed 42's game (rules.md, T2): seat 1 holds the token and takes
    "slide/lowest/single 1.2 take@1 0 ????/????/?.??/??1?|?.?3/????/????/???? -,- 1T #68 - 0,0"
)


def dekal(*args: str) -> Result:
    return runner.invoke(app, ["advise", *args])


def error_of(result: Result) -> dict[str, str]:
    assert result.exit_code == 2, result.output
    error: dict[str, str] = json.loads(result.stdout)["error"]
    return error


def test_json_gives_every_action_with_its_figures_best_first() -> None:
    shown = dekal(LAST_PUSH, "--seat", "0", "--json")
    assert shown.exit_code == 0, shown.output
    payload = json.loads(shown.stdout)
    assert set(payload) == {"seat", "phase", "samples", "model", "exact", "seed", "actions", "best"}
    assert (payload["seat"], payload["phase"], payload["model"]) == (0, "push", "greedy")
    assert [a["action"] for a in payload["actions"]] == ["push 0 L", "push 0 T"]
    assert payload["actions"][0] == {
        "action": "push 0 L",
        "expected_score": 23,
        "ci95": [23, 23],
        "p_win": 0,
        "versus_best": [0, 0],
    }
    assert payload["best"] == payload["actions"][0]["action"]


def test_a_full_position_is_hidden_first_and_answers_as_its_public_view() -> None:
    assert (
        dekal(FULL, "--seat", "0", "--json").stdout
        == dekal(LAST_PUSH, "--seat", "0", "--json").stdout
    )


def test_the_table_lists_each_action_and_names_the_best() -> None:
    shown = dekal(MID_GAME, "--seat", "1", "--samples", "30")
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0] == "seat 1 to take: 30 sampled worlds, seed 0, model greedy"
    assert any(line.startswith("take 1 1 ") for line in lines)
    assert any(line.startswith("take 1 T ") for line in lines)
    assert lines[-1] in ("best: take 1 1", "best: take 1 T")


def test_a_malformed_position_is_refused_naming_its_field() -> None:
    error = error_of(dekal(LAST_PUSH.replace("push@0:3", "push@0"), "--seat", "0", "--json"))
    assert (error["kind"], error["field"]) == ("notation", "phase")


def test_a_seat_not_at_the_table_is_refused_naming_seat() -> None:
    error = error_of(dekal(LAST_PUSH, "--seat", "2", "--json"))
    assert error["field"] == "--seat"
    assert "2 seats" in error["message"]


def test_a_seat_with_nothing_to_decide_is_told_so() -> None:
    shown = dekal(LAST_PUSH, "--seat", "1")
    assert shown.exit_code == 2
    assert "seat 1 has nothing to decide" in shown.output
    assert error_of(dekal(LAST_PUSH, "--seat", "1", "--json"))["field"] == "--seat"


@pytest.mark.parametrize("samples", ["29", "100001", "-5", "many"])
def test_samples_out_of_bounds_are_refused(samples: str) -> None:
    error = error_of(dekal(LAST_PUSH, "--seat", "0", "--samples", samples, "--json"))
    assert error["field"] == "--samples"


def test_an_unknown_bot_is_refused_naming_bot() -> None:
    error = error_of(dekal(LAST_PUSH, "--seat", "0", "--bot", "oracle", "--json"))
    assert error["field"] == "--bot"


# The answer does not depend on the workers: tests/simulation/test_simulate_cluster.py asks this
# question alone and on a Dask cluster of two workers.


def test_the_seat_comes_from_the_position_when_it_names_one() -> None:
    named = dekal(MID_GAME, "--samples", "30", "--json")  # take@1: seat 1 takes
    assert named.exit_code == 0, named.output
    assert named.stdout == dekal(MID_GAME, "--seat", "1", "--samples", "30", "--json").stdout
    assert json.loads(named.stdout)["seat"] == 1


def test_in_a_reveal_the_only_seat_still_to_pick_is_the_seat() -> None:
    seat_0_picked = (
        "slide/lowest/single 1.1 reveal - ????/????/????/????|????/????/????/???? ?,- - #68 - 0,0"
    )
    shown = dekal(seat_0_picked, "--samples", "30", "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["seat"] == 1


def test_in_a_reveal_with_several_seats_to_pick_the_seat_must_be_given() -> None:
    nobody_picked = (
        "slide/lowest/single 1.1 reveal - ????/????/????/????|????/????/????/???? -,- - #68 - 0,0"
    )
    error = error_of(dekal(nobody_picked, "--json"))
    assert error["field"] == "--seat" and "seats 0, 1 are still to pick" in error["message"]


def test_a_searching_model_says_what_it_will_cost_before_it_starts() -> None:
    shown = dekal(LAST_PUSH, "--bot", "pimc:samples=2", "--samples", "30", "--json")
    assert shown.exit_code == 0, shown.output
    # the last push: nobody decides after it, so the search costs nothing
    assert "units of work" not in shown.stderr
    turn_15 = (
        "slide/lowest/single 1.15 take@1 1 TTT2/T338/T917/5.?4|3518/2688/7427/.?21 -,- 5T #68 - 0,0"
    )
    searching = dekal(turn_15, "--bot", "pimc:samples=1", "--samples", "30", "--json")
    assert searching.exit_code == 0, searching.output
    estimate = searching.stderr.strip()
    # 9 later decisions: seat 1 pushes, seat 0 takes and pushes, then turn 16's six
    assert re.fullmatch(
        r"pimc:samples=1: 30 worlds x 2 actions x 9 later decisions, each a search:"
        r" 8,640 units of work, under a second on one core \(a rough guess\)",
        estimate,
    ), estimate


def test_a_compiled_model_says_nothing_before_it_starts() -> None:
    shown = dekal(MID_GAME, "--samples", "30", "--json")
    assert shown.exit_code == 0 and shown.stderr == ""
