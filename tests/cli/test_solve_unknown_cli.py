"""`dekal solve GRID --unknown` from the command line (spec/solo-unknown.md): the JSON
contract, the strategy table, bounds and exit code 4 under --timeout, refusals naming the
field."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal.proofs._unknown.position import make_unknown
from dekal.proofs._unknown.search import solve

runner = CliRunner()
EXAMPLE = ("T133/1?11/?231/2231", "1,1,T")


def dekal(*args: str) -> Result:
    return runner.invoke(app, list(args))


def test_the_json_answer_has_the_three_values_and_the_first_step_U5_U6_U7_U9() -> None:
    grid, unseen = EXAMPLE
    result = dekal("solve", grid, "--unknown", "--unseen", unseen, "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    exact = solve(make_unknown(grid, unseen=unseen))
    assert payload["guaranteed"]["score"] == exact.guaranteed
    assert Fraction(payload["expected"]["score"]) == exact.expected
    assert isinstance(payload["expected"]["score"], str)
    assert Fraction(payload["perfect_information"]["score"]) <= exact.expected
    first = payload["first"]
    assert first["reveal"] == "b2"
    assert first["push_by_value"] == {
        str(v): str(p) for v, p, _ in exact.expected_first.push_by_value
    }
    assert payload["proved"] is True and payload["method"] == "search"
    assert isinstance(payload["seconds"], float)


def test_the_text_answer_draws_the_grid_and_the_strategy_table_U7() -> None:
    result = dekal("solve", "3311/3371/5225/T55?", "--unknown", "--unseen", "1,1,7")
    assert result.exit_code == 0, result.output
    assert "  4  T   5   5   ?" in result.stdout
    assert "expected             73/3 = 24.3333  (proved)" in result.stdout
    assert "first step, optimal, by expected score: reveal d4" in result.stdout
    table = [line.split() for line in result.stdout.splitlines() if line.startswith("      ")]
    assert table == [["1", "2/3", "T", "22"], ["7", "1/3", "L", "29"]]


def test_out_of_time_the_answer_is_bounds_that_contain_the_values_and_exit_4_U10() -> None:
    grid = "9T9?/5T5?/3737/1T1?"
    result = dekal("solve", grid, "--unknown", "--timeout", "0.001", "--json")
    assert result.exit_code == 4, result.output
    payload = json.loads(result.stdout)
    exact = solve(make_unknown(grid))
    assert payload["proved"] is False
    assert payload["first"]["strategy"] == "greedy"
    assert payload["guaranteed"]["lower"] <= exact.guaranteed <= payload["guaranteed"]["upper"]
    expected = payload["expected"]
    assert Fraction(expected["lower"]) <= exact.expected <= Fraction(expected["upper"])
    assert expected["upper"] != "160"  # the greedy strategy's bound, not the trivial one


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["5T3?/1?44/9999/TT11", "--unknown", "--unseen", "1,Z"], "unseen"),
        (["5T3?/1?44/9999/TT11", "--unknown", "--unseen", "9,9,9,9,9,9,9"], "unseen"),
        (["5T3?/1?44/9999/TT11", "--unknown", "--unseen", "1"], "unseen"),
        (["5T3?/1?44/9999/TT1", "--unknown"], "grid"),
        (["5T3?/1?44/9999/TT11", "--unseen", "1,2"], "--unseen"),
        (["5T3?/1?44/9999/TT11", "--unknown", "--incoming", "5"], "--incoming"),
        (["5T3?/1?44/9999/TT11", "--unknown", "--method", "z3"], "--method"),
    ],
)
def test_a_bad_question_is_refused_naming_the_field_exit_2_U1_U2(
    args: list[str], field: str
) -> None:
    result = dekal("solve", *args, "--json")
    assert result.exit_code == 2, result.output
    assert json.loads(result.stdout)["error"]["field"] == field
