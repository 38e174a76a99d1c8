"""The fuzzer's steering into rare rule situations (dekal.conformance.fuzz): F1–F2 ties on
turn 1 and S4 thresholds hit exactly. Its games stay legal and reproducible, and they catch
the two JS broken builds that plain random play found only rarely."""

from __future__ import annotations

import random
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest

import dekal.conformance.fuzz as fuzz_module
import dekal_ref
from dekal.conformance.adapter import ProtocolAdapter
from dekal.conformance.client import InProcessEngine, SubprocessEngine
from dekal.conformance.fuzz import (
    FuzzGame,
    LockStep,
    _refused_by_reference,
    fuzz,
    play_random,
    steered_setup,
)
from dekal.conformance.protocol import position_fields
from dekal_ref.notation import parse_grid, parse_value

SEEDS = range(40)
NODE = shutil.which("node")
ENGINE_JS = Path(__file__).resolve().parent.parent / "examples" / "engines" / "js" / "engine.js"


@pytest.fixture(scope="module")
def played() -> list[FuzzGame]:
    """Forty fuzz games of the reference against itself, without the deliberately wrong
    actions: so every item sent is one the fuzzer means to be legal."""
    engine = InProcessEngine(lambda: dekal_ref, "reference", 10.0)
    lock = LockStep(engine, 10.0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fuzz_module, "WRONG_ACTION_RATE", 0.0)
        games = [play_random(lock, seed, engine.info) for seed in SEEDS]
    engine.close()
    return games


def replayed(game: FuzzGame) -> ProtocolAdapter:
    reference = ProtocolAdapter(dekal_ref)
    assert reference.handle({"id": 0, "cmd": "new_game", **game.setup})["ok"]
    for item in game.items:
        if "action" in item:
            reference.handle({"id": 0, "cmd": "action", "action": item["action"]})
        else:
            reference.handle({"id": 0, "cmd": "new_round", "deal": item["new_round"]})
    return reference


def info() -> dict[str, Any]:
    return InProcessEngine(lambda: dekal_ref, "reference", 10.0).info


def test_steered_deals_are_the_100_cards_and_the_reference_refuses_nothing_generated(
    played: list[FuzzGame],
) -> None:
    claimed = info()
    steered = 0
    for game in played:
        assert game.divergence is None, "the reference agrees with itself"
        deal = game.setup["deal"]
        cards = [parse_value(s) for grid in deal["grids"] for s in grid.replace("/", "")]
        cards += [parse_value(s) for s in deal["pile"].strip("-")]
        assert sorted(cards) == sorted(v for v in range(1, 11) for _ in range(10))
        _, steering = steered_setup(random.Random(game.seed), claimed)
        assert not any(_refused_by_reference(game.setup, game.items)), game.seed
        actions = [item.get("action") for item in game.items]
        assert actions[: len(steering.reveals)] == list(steering.reveals), game.seed
        steered += bool(steering.reveals)
    assert 5 <= steered <= 30, "some games are steered into ties, ordinary ones dominate"


def turn_one_values(game: FuzzGame) -> list[int]:
    """The values revealed on turn 1 of round 1 (the first accepted reveal of each seat)."""
    grids = [parse_grid(g) for g in game.setup["deal"]["grids"]]
    refused = _refused_by_reference(game.setup, game.items)
    values: dict[int, int] = {}
    for item, bad in zip(game.items, refused, strict=True):
        verb, seat, cell = (item.get("action") or "new_round - -").split()[:3]
        if bad or verb != "reveal" or int(seat) in values:
            continue
        values[int(seat)] = grids[int(seat)][dekal_ref.notation.CELL_NAMES.index(cell)]
        if len(values) == game.players:
            break
    return [values[s] for s in sorted(values)]


def test_the_steering_makes_turn_one_ties_and_exact_thresholds_common(
    played: list[FuzzGame],
) -> None:
    ties = 0
    exact = 0
    for game in played:
        if game.setup["rules"]["first"] == "lowest":
            values = turn_one_values(game)
            ties += len(values) == game.players and values.count(min(values)) >= 2
        threshold = game.setup["rules"]["threshold"]
        if threshold is not None:
            reference = replayed(game)
            over = position_fields(reference.handle({"id": 0, "cmd": "position"})["position"])
            totals = reference.handle({"id": 0, "cmd": "result"})["totals"]
            exact += over["phase"] == "over" and max(totals) == threshold
    assert ties >= 8, f"only {ties} turn-1 ties in {len(SEEDS)} games"
    assert exact >= 4, f"only {exact} matches ended exactly on their threshold"


def test_the_same_seed_plays_the_same_game_and_another_seed_another() -> None:
    engine = InProcessEngine(lambda: dekal_ref, "reference", 10.0)
    lock = LockStep(engine, 10.0)
    for seed in (3, 7, 12):
        first, again = play_random(lock, seed, engine.info), play_random(lock, seed, engine.info)
        assert (first.setup, first.items) == (again.setup, again.items)
        other = play_random(lock, seed + 100, engine.info)
        assert (other.setup, other.items) != (first.setup, first.items)
    engine.close()


def js_engine(bug: str | None) -> SubprocessEngine:
    command = f"{shlex.quote(NODE or 'node')} {shlex.quote(str(ENGINE_JS))}"
    return SubprocessEngine(command + (f" --bug {bug}" if bug else ""))


# Measured over fuzz seeds 1-20 (--games 30): before the steering threshold-strict was found in
# 1 of 10 runs (seeds 1-10), f2-highest-draw at games 1-22 (median 6); with it, both in every
# run, threshold-strict at games 1-16 (median 2), f2-highest-draw at 1-14 (median 3.5).
@pytest.mark.skipif(NODE is None, reason="node is not on PATH: the JS engine cannot run")
@pytest.mark.parametrize("bug", ["f2-highest-draw", "threshold-strict"])
def test_fuzz_finds_the_rare_js_bugs_within_three_games(bug: str) -> None:
    engine = js_engine(bug)
    report = fuzz(engine, games=3, seed=20)
    engine.close()
    assert report.divergent is not None and report.games <= 3
    assert report.shrunk is not None and report.shrunk.divergence is not None


@pytest.mark.skipif(NODE is None, reason="node is not on PATH: the JS engine cannot run")
def test_the_correct_js_engine_survives_the_same_three_games() -> None:
    engine = js_engine(None)
    report = fuzz(engine, games=3, seed=20)
    engine.close()
    assert report.divergent is None and report.games == 3


def test_steered_ties_reach_the_re_draw_and_the_short_pile_rulings() -> None:
    """F2: over 200 set-ups, the planned turn-1 reveals (all accepted by the reference) make
    tied seats draw again, and some run the set-aside pile out (the lowest tied seat starts);
    the reference's first player is the one F2 gives, counted here independently."""
    claimed = info()
    redraws = shorts = 0
    for seed in range(200):
        setup, steering = steered_setup(random.Random(seed), claimed)
        if not steering.reveals:
            continue
        reference = ProtocolAdapter(dekal_ref)
        assert reference.handle({"id": 0, "cmd": "new_game", **setup})["ok"]
        for reveal in steering.reveals:
            assert reference.handle({"id": 0, "cmd": "action", "action": reveal})["ok"]
        grids = [parse_grid(g) for g in setup["deal"]["grids"]]
        values = [
            grids[int(seat)][dekal_ref.notation.CELL_NAMES.index(cell)]
            for seat, cell in (reveal.split()[1:] for reveal in steering.reveals)
        ]
        tied = [seat for seat, value in enumerate(values) if value == min(values)]
        pile = [parse_value(v) for v in setup["deal"]["pile"].strip("-")]
        rounds_of_draws, short = 0, False
        while len(tied) > 1 and not short:  # F2 as the rulebook words it, counted here
            short = len(pile) < len(tied)
            if not short:
                draws = {seat: pile.pop(0) for seat in tied}
                tied = [seat for seat in tied if draws[seat] == min(draws.values())]
                rounds_of_draws += 1
        fields = position_fields(reference.handle({"id": 0, "cmd": "position"})["position"])
        assert fields["start"] == str(tied[0]), (seed, fields["start"], tied)
        redraws += rounds_of_draws >= 2
        shorts += short
    assert redraws >= 10 and shorts >= 3, (redraws, shorts)
