"""The one work bound (dekal.bots.work, issue 19): the planned work of a request, counted
before it runs, against MAX_WORK; `dekal simulate` refuses a run past it at once."""

from __future__ import annotations

import json
import resource
import time

import pytest
from typer.testing import CliRunner

from dekal.bots.work import (
    MAX_WORK,
    TooMuchWork,
    advice_work,
    check_work,
    decision_work,
    rounds_planned,
    simulation_work,
)
from dekal.cli._app import app


def test_a_bot_that_does_not_search_costs_no_search() -> None:
    assert decision_work("random") == decision_work("greedy") == 0


def test_a_search_costs_sixteen_units_a_sample_or_iteration() -> None:
    assert decision_work("pimc:samples=10") == 160
    assert decision_work("ismcts:iterations=100") == 1600


def test_compiled_games_cost_one_unit_a_round() -> None:
    assert simulation_work(("random", "greedy"), 1000) == 1000
    assert simulation_work(("random", "greedy"), 1000, threshold=100) == 1000 * 6


def test_the_table_loop_costs_its_decisions_and_searches() -> None:
    table = simulation_work(("random", "random"), 10, table=True)
    pimc = simulation_work(("pimc", "random"), 10)
    assert 0 < table < pimc
    assert pimc - table == 10 * 48 * decision_work("pimc")  # 3 decisions a turn, 16 turns


def test_work_grows_with_every_factor() -> None:
    base = simulation_work(("pimc", "greedy"), 10)
    assert simulation_work(("pimc", "greedy"), 20) == 2 * base
    assert simulation_work(("pimc", "pimc"), 10) > base
    assert simulation_work(("pimc", "greedy"), 10, threshold=200) > base
    assert advice_work("pimc", 100, 4, 10) == 2 * advice_work("pimc", 50, 4, 10)


def test_a_match_is_planned_longer_than_it_lasts() -> None:
    """Measured: greedy matches to 100 last about 2 rounds; random to 1000, about 15."""
    assert rounds_planned(None) == 1
    assert rounds_planned(100) >= 2 and rounds_planned(1000) >= 15


def test_the_cap_refuses_past_it_naming_the_field() -> None:
    check_work(MAX_WORK, "--games", "just enough")
    with pytest.raises(TooMuchWork) as refused:
        check_work(MAX_WORK + 1, "--games", "one unit more")
    assert refused.value.field == "--games" and f"{MAX_WORK:,}" in refused.value.message
    assert isinstance(refused.value, ValueError)


def test_simulate_refuses_a_hundred_million_searching_games_at_once() -> None:
    """Issue 19: it used to be accepted, growing about 20 MB/s while planning chunks."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    result = CliRunner().invoke(
        app, ["simulate", "--games", "100000000", "--bots", "pimc", "--json"]
    )
    assert result.exit_code == 2, result.output
    error = json.loads(result.stdout)["error"]
    assert error["field"] == "--games" and f"{MAX_WORK:,}" in error["message"]
    assert time.monotonic() - started < 60  # generous: refused before any planning
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # KB


def test_simulate_plays_a_searching_run_the_cap_allows() -> None:
    """The cap refuses by planned work, not by bot: a small pimc run still plays."""
    games = 2
    assert simulation_work(("pimc:samples=1", "greedy"), games) < MAX_WORK
    result = CliRunner().invoke(
        app, ["simulate", f"--games={games}", "--bots=pimc:samples=1,greedy", "--json"]
    )
    assert result.exit_code == 0, result.output
