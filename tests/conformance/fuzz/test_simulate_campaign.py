"""A fuzz campaign (dekal.conformance.fuzz._campaign): the games cut into chunks, each chunk played
on an engine of its own, merged in game order, report what one fuzz run reports; every chunk's
engine is closed, however the chunk ends.

The chunks are played here, one after another: the merge is the campaign's own work.
tests/simulation/test_simulate_cluster.py runs `conformance fuzz` on a Dask cluster's workers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dekal.conformance.drive._engine_link import Engine, EngineUnusable
from dekal.conformance.drive._subprocess_engine import SubprocessEngine
from dekal.conformance.fuzz import _campaign as campaign_module
from dekal.conformance.fuzz._campaign import EngineSpec, campaign
from dekal.conformance.fuzz._fuzz import FuzzReport, fuzz

ROOT = Path(__file__).resolve().parents[3]
JS_ENGINE = f"node {ROOT / 'examples' / 'engines' / 'js' / 'engine.js'}"
NO_ROTATION = f"{JS_ENGINE} --bug no-rotation"  # F4: in game 4 of seed 5, games 4 and 5 of 23


def untimed(report: dict[str, Any]) -> dict[str, Any]:
    """A fuzz report without the shrinks' wall-clock seconds, the one figure that varies."""
    for deviation in report["deviations"]:
        if deviation["shrink"] is not None:
            deviation["shrink"].pop("seconds")
    return report


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(campaign_module, "CHUNK_GAMES", 2)


def one_run(
    command: str, games: int, seed: int, expect: frozenset[str] = frozenset()
) -> dict[str, Any]:
    engine = SubprocessEngine(command, 10.0)
    try:
        report = fuzz(engine, games, seed, 10.0, shrink_seconds=0, expect=expect)
        return untimed(report.as_json())
    finally:
        engine.close()


def test_a_campaign_reports_what_one_run_reports() -> None:
    # 6 games are 3 chunks of 2; the one run stops at game 4 (F4), in the second chunk
    chunked = campaign(EngineSpec(NO_ROTATION, None, 10.0), 6, 5, shrink_seconds=0)
    assert untimed(chunked.as_json()) == one_run(NO_ROTATION, 6, 5)
    assert chunked.games == 4  # it ends with the game that showed the deviation


def test_a_deviation_found_in_two_chunks_is_reported_once_from_its_first_game() -> None:
    # seed 23 shows F4 in games 4 and 5: the second and the third chunk (of 2, 2 and 1 games)
    chunked = campaign(
        EngineSpec(NO_ROTATION, None, 10.0), 5, 23, shrink_seconds=0, expect=frozenset({"F4"})
    )
    alone = one_run(NO_ROTATION, 5, 23, expect=frozenset({"F4"}))
    assert [f.number for f in chunked.findings] == [d["game"] for d in alone["deviations"]] == [4]
    assert chunked.games == 5


class CountedSpec(EngineSpec):
    """An engine spec that remembers every engine it started and whether it was closed."""

    started: list[Engine] = []

    def start(self) -> Engine:
        engine = super().start()
        CountedSpec.started.append(engine)
        return engine


@pytest.fixture(scope="module")
def correct_campaign() -> Iterator[tuple[FuzzReport, list[Engine]]]:
    """3 games of a correct engine in chunks of 2 and 1, and the engines they started."""
    CountedSpec.started = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(campaign_module, "CHUNK_GAMES", 2)
        report = campaign(CountedSpec(JS_ENGINE, None, 10.0), 3, 1, shrink_seconds=0)
    yield report, list(CountedSpec.started)


def test_a_campaign_of_a_correct_engine_plays_every_game(
    correct_campaign: tuple[FuzzReport, list[Engine]],
) -> None:
    chunked, _ = correct_campaign
    assert untimed(chunked.as_json()) == one_run(JS_ENGINE, 3, 1)
    assert (chunked.games, chunked.findings) == (3, [])


def test_every_chunk_closes_its_engine(
    correct_campaign: tuple[FuzzReport, list[Engine]],
) -> None:
    _, started = correct_campaign
    assert len(started) == 2  # chunks of 2 and 1 games
    for engine in started:
        assert isinstance(engine, SubprocessEngine) and engine.process is None


def test_an_engine_that_cannot_start_is_engine_unusable() -> None:
    with pytest.raises(EngineUnusable):
        campaign(EngineSpec("/nonexistent/engine", None, 10.0), 4, 1)
