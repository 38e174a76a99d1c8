"""A fuzz campaign (dekal.conformance.campaign): the games cut into chunks, each chunk played on
an engine of its own, merged in game order, report what one fuzz run reports; every chunk's
engine is closed, however the chunk ends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dekal.cli.app import app
from dekal.conformance import campaign as campaign_module
from dekal.conformance.campaign import EngineSpec, campaign
from dekal.conformance.client import Engine, EngineUnusable, SubprocessEngine
from dekal.conformance.fuzz import fuzz

ROOT = Path(__file__).resolve().parent.parent
JS_ENGINE = f"node {ROOT / 'examples' / 'engines' / 'js' / 'engine.js'}"
NO_ROTATION = f"{JS_ENGINE} --bug no-rotation"  # F4; seed 1 first shows it in game 6


def untimed(report: dict[str, Any]) -> dict[str, Any]:
    """A fuzz report without the shrinks' wall-clock seconds, the one figure that varies."""
    for deviation in report["deviations"]:
        if deviation["shrink"] is not None:
            deviation["shrink"].pop("seconds")
    return report


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(campaign_module, "CHUNK_GAMES", 2)  # game 6 is in the third chunk


def one_run(command: str, games: int, expect: frozenset[str] = frozenset()) -> dict[str, Any]:
    engine = SubprocessEngine(command, 10.0)
    try:
        return untimed(fuzz(engine, games, 1, 10.0, shrink_seconds=0, expect=expect).as_json())
    finally:
        engine.close()


def test_a_campaign_reports_what_one_run_reports() -> None:
    chunked = campaign(EngineSpec(NO_ROTATION, None, 10.0), 12, 1, shrink_seconds=0)
    assert untimed(chunked.as_json()) == one_run(NO_ROTATION, 12)
    assert chunked.games == 6  # it ends with the game that showed the deviation


def test_a_campaign_of_a_correct_engine_plays_every_game() -> None:
    chunked = campaign(EngineSpec(JS_ENGINE, None, 10.0), 7, 1, shrink_seconds=0)
    assert untimed(chunked.as_json()) == one_run(JS_ENGINE, 7)
    assert (chunked.games, chunked.findings) == (7, [])


def test_a_deviation_found_in_two_chunks_is_reported_once_from_its_first_game() -> None:
    # seed 1 shows F4 in games 6 and 12: the third and the sixth chunk of 2 games each
    chunked = campaign(
        EngineSpec(NO_ROTATION, None, 10.0), 12, 1, shrink_seconds=0, expect=frozenset({"F4"})
    )
    alone = one_run(NO_ROTATION, 12, expect=frozenset({"F4"}))
    assert [f.number for f in chunked.findings] == [d["game"] for d in alone["deviations"]] == [6]
    assert chunked.games == 12


class CountedSpec(EngineSpec):
    """An engine spec that remembers every engine it started and whether it was closed."""

    started: list[Engine] = []

    def start(self) -> Engine:
        engine = super().start()
        CountedSpec.started.append(engine)
        return engine


def test_every_chunk_closes_its_engine() -> None:
    CountedSpec.started = []
    campaign(CountedSpec(JS_ENGINE, None, 10.0), 5, 1, shrink_seconds=0)
    assert len(CountedSpec.started) == 3  # chunks of 2, 2 and 1 games
    for engine in CountedSpec.started:
        assert isinstance(engine, SubprocessEngine) and engine.process is None


def test_an_engine_that_cannot_start_is_engine_unusable() -> None:
    with pytest.raises(EngineUnusable):
        campaign(EngineSpec("/nonexistent/engine", None, 10.0), 4, 1)


def test_fuzz_on_two_local_workers_prints_the_single_process_report() -> None:
    # 12 games are 6 chunks of 2 on the workers; the one process stops at game 6 (F4)
    args = ["conformance", "fuzz", "--engine", NO_ROTATION, "--games", "12", "--seed", "1"]
    args += ["--shrink-seconds", "0", "--no-db", "--json"]
    alone = CliRunner().invoke(app, args)
    on_workers = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert alone.exit_code == on_workers.exit_code == 1
    assert untimed(json.loads(on_workers.stdout)) == untimed(json.loads(alone.stdout))
