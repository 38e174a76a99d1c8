"""`dekal solve` and `dekal prove` from the command line: JSON contract, exit codes, refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal.proofs._replay import replay
from dekal.proofs.puzzle import Move, make_puzzle
from dekal_ref.notation import parse_cell, parse_grid, parse_push

runner = CliRunner()
GRID = "1112/3131/1435/2435"


def dekal(*args: str) -> Result:
    return runner.invoke(app, list(args))


def replayed(payload: dict[str, object], incoming: tuple[int, ...], variant: str = "slide") -> int:
    """The score the JSON moves reach on the reference engine."""
    moves = [
        Move(parse_cell(m["reveal"]), parse_push(m["push"]))  # type: ignore[index]
        for m in payload["moves"]  # type: ignore[attr-defined]
    ]
    puzzle = make_puzzle(parse_grid(GRID), incoming=incoming, variant=variant)
    return replay(puzzle, moves).points


@pytest.mark.parametrize("method", ["z3", "search"])
def test_solve_json_contract(method: str) -> None:
    result = dekal("solve", GRID, "--incoming", "5,3", "--method", method, "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert {"score", "remaining", "moves", "proved_optimal", "seconds"} <= payload.keys()
    assert isinstance(payload["score"], int) and isinstance(payload["seconds"], float)
    assert payload["proved_optimal"] is True
    assert [set(m) for m in payload["moves"]] == [{"reveal", "push"}] * 2
    assert replayed(payload, (5, 3)) == payload["score"]


def test_eject_pushes_name_their_line() -> None:
    result = dekal("solve", GRID, "--incoming", "5", "--variant", "eject", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert len(payload["moves"][0]["push"]) == 2  # side and line, like L2
    assert replayed(payload, (5,), "eject") == payload["score"]


def test_check_runs_both_methods_and_they_agree() -> None:
    result = dekal("solve", GRID, "--incoming", "5,3", "--check", "--json")
    assert result.exit_code == 0, result.output
    check = json.loads(result.stdout)["check"]
    assert check["agree"] and set(check["answers"]) == {"z3", "search"}


def test_text_output_shows_every_step_and_the_scored_final_grid() -> None:
    result = dekal("solve", GRID, "--incoming", "5,3", "--method", "search")
    assert result.exit_code == 0, result.output
    for fragment in ("start", "step 1: reveal", "step 2: reveal", "final, scored", "optimal"):
        assert fragment in result.stdout


def test_at_most_is_yes_from_the_minimum_and_no_below_it() -> None:
    best = json.loads(dekal("solve", GRID, "--incoming", "5,3", "--json").stdout)["score"]
    yes = dekal("solve", GRID, "--incoming", "5,3", "--at-most", str(best), "--json", "--check")
    assert yes.exit_code == 0 and json.loads(yes.stdout)["reachable"] is True
    no = dekal("solve", GRID, "--incoming", "5,3", "--at-most", str(best - 1), "--json")
    assert no.exit_code == 1 and json.loads(no.stdout)["reachable"] is False


def test_reach_a_target_grid() -> None:
    target = "1112/1315/1435/2435"  # a2 revealed, 5 pushed in from the right
    yes = dekal("solve", GRID, "--incoming", "5", "--reach", target, "--json", "--check")
    assert yes.exit_code == 0, yes.output
    assert json.loads(yes.stdout)["final"] == target
    no = dekal("solve", GRID, "--incoming", "5", "--reach", "5555/5555/5555/5555", "--json")
    assert no.exit_code == 1


def test_rank_lists_every_first_move_best_first() -> None:
    result = dekal("solve", GRID, "--incoming", "5,3", "--rank", "--json", "--method", "search")
    assert result.exit_code == 0, result.output
    ranking = json.loads(result.stdout)["ranking"]
    assert len(ranking) == 48  # every slide push into every face-down cell
    scores = [(r["score"], r["remaining"]) for r in ranking]
    assert scores == sorted(scores)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--incoming", "5", "--face-down", "none"], "no face-down cell left"),
        (["--incoming", "5,3,3", "--face-down", "a1,b1"], "only 2 face-down cells"),
        (["--incoming", "5,X"], "not a card value"),
        (["--incoming", "5,11"], "not a card value"),
        ([], "--incoming"),
        (["--incoming", "5", "--solo"], "not both"),
        (["--solo", "--turns", "17"], "face-down cells"),
        (["--incoming", "5", "--variant", "diagonal"], "variant"),
        (["--incoming", "5", "--method", "guess"], "--method"),
        (["--incoming", "5", "--face-down", "z9"], "not a cell"),
    ],
)
def test_unplayable_puzzles_are_refused_on_one_line(args: list[str], fragment: str) -> None:
    result = dekal("solve", GRID, *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_a_grid_with_a_hole_is_refused() -> None:
    result = dekal("solve", "1112/3.31/1435/2435", "--incoming", "5")
    assert result.exit_code == 2 and "hole" in result.stderr


def test_prove_json_exits_zero_when_everything_is_proved(every_verdict: dict[str, Any]) -> None:
    assert every_verdict["code"] == 0, every_verdict["stdout"]
    payload = json.loads(every_verdict["stdout"])
    assert payload["proved"] is True
    assert all(o["proved"] and o["counterexample"] is None for o in payload["obligations"])


def test_prove_only_a_family_and_refuse_an_unknown_one() -> None:
    result = dekal("prove", "--only", "push.table", "--json")
    assert result.exit_code == 0
    names = [o["name"] for o in json.loads(result.stdout)["obligations"]]
    assert names == ["push.table-slide", "push.table-eject"]
    assert dekal("prove", "--only", "nothing").exit_code == 2


def test_prove_only_takes_several_prefixes_like_run_filter() -> None:
    listed = dekal("prove", "--only", "push.table,bounds", "--list").stdout.split()
    names = [word for word in listed if "." in word and word.split(".")[0] in ("push", "bounds")]
    assert {"push.table-slide", "push.table-eject", "bounds.highest", "bounds.lowest"} <= set(names)
    assert not any(word.startswith(("score.", "symmetry.")) for word in listed)
