"""The fuzzer (dekal.conformance.fuzz._fuzz): seeded games that stay legal and reproducible and are
steered into rare rule situations (F1–F2 ties, S4 thresholds hit exactly); known deviations
(--expect) set aside so that the run finds the next one; the public view and perft compared;
engines that deal for themselves followed on their own deal; shrinking with Hypothesis, its
example database, and a hung engine that fails fast.

The engines under test are the reference with faults planted by name (`Planted`, in-process)
and the JavaScript engine's broken builds (examples/engines/js, `--bug a,b`). A test about
what is found, not about how it shrinks, fuzzes with shrink_seconds=0 (a shrink runs until
its time is up: it was most of those tests' CPU)."""

from __future__ import annotations

import dataclasses
import json
import random
import shlex
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import dekal.conformance.fuzz._games as games_module
import dekal_ref
from dekal.cli._app import app
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._direct_engine import DirectEngine
from dekal.conformance.drive._engine_link import EngineError
from dekal.conformance.drive._inprocess_engine import InProcessEngine
from dekal.conformance.drive._protocol import Message, position_fields
from dekal.conformance.drive._subprocess_engine import SubprocessEngine
from dekal.conformance.fuzz._fuzz import FuzzGame, FuzzReport, fuzz, play_game
from dekal.conformance.fuzz._games import seeded_chooser, steered_setup
from dekal.conformance.fuzz._lockstep import (
    HANG_FACTOR,
    HANG_FLOOR,
    LockStep,
    deal_of_position,
)
from dekal.conformance.fuzz._records import refused_by_reference
from dekal_ref.deal import seeded_deal
from dekal_ref.notation import parse_grid, parse_value
from dekal_ref.position import parse_position

SEEDS = range(40)
NODE = shutil.which("node")
ENGINE_JS = Path(__file__).resolve().parents[3] / "examples" / "engines" / "js" / "engine.js"
runner = CliRunner()


# -- engines with planted faults -----------------------------------------------------------------
class Planted:
    """The reference over the protocol, with faults planted by name:

    leak-public   M3: the public view shows every face-down card (the full position);
    worst-first   S3/S4: the ranking is listed backwards;
    perft-plus    perft counts one node too many under every push;
    hang-on-ten   no reply to taking a ten (the engine hangs);
    short-pile    M1: a card of the pile goes astray as the engine deals;
    upside-down   M3: a given deal's pile is kept upside down;
    and options: `deals` "own" (it deals from its own seed, like an engine that cannot take
    a given deal), `position` (the position feature: new_game may carry a position line).
    """

    def __init__(self, *faults: str, deals: str = "given", position: bool = False) -> None:
        self.faults = set(faults)
        self.deals, self.position = deals, position
        # the position feature is claimed only when asked for (it is what lets fuzz shrink
        # the games of an engine that deals for itself)
        claims = ("match", "perft", "public", "seeded-deal")
        self.adapter = ProtocolAdapter(dekal_ref, features=claims)
        self.dealer = random.Random(12345)

    def handle(self, request: Message) -> Message:
        cmd = request.get("cmd")
        if cmd == "new_game" and "position" in request and self.position:
            self.adapter.state = parse_position(request["position"])
            return {"id": request.get("id"), "ok": True}
        if cmd == "new_game" and "upside-down" in self.faults:
            request = {
                **request,
                "deal": {**request["deal"], "pile": request["deal"]["pile"][::-1]},
            }
        if cmd in ("new_game", "new_round") and self.deals == "own":
            players = request["rules"]["players"] if cmd == "new_game" else self.players()
            request = {**request, "deal": self.own_deal(players)}
        action = str(request.get("action", ""))
        if "hang-on-ten" in self.faults and action.startswith("take") and action.endswith(" T"):
            time.sleep(3)
        reply = self.adapter.handle(request)
        if cmd in ("new_game", "new_round") and "short-pile" in self.faults:
            state = self.adapter.state  # dealt as it must be, then a card goes astray
            self.adapter.state = dataclasses.replace(state, pile=state.pile[:-1])
        if cmd == "hello":
            reply["features"] = reply["features"] + ["position"] * self.position
            reply["deals"] = self.deals
        if cmd == "position" and "leak-public" in self.faults and reply.get("ok"):
            reply["public"] = reply["position"]
        if cmd == "result" and "worst-first" in self.faults and reply.get("ok"):
            reply["ranking"] = reply["ranking"][::-1]
        if cmd == "perft" and "perft-plus" in self.faults and reply.get("ok"):
            phase = position_fields(self.adapter.api.format_position(self.adapter.state))["phase"]
            if phase.startswith("push@"):
                reply["nodes"] += 1
        return reply

    def players(self) -> int:
        return len(self.adapter.state.grids)

    def own_deal(self, players: int) -> Message:
        return games_module.deal_message(seeded_deal(self.dealer.getrandbits(32), players))


# Driven in the test's own thread (DirectEngine, through JSON): what the fuzzer finds does not
# depend on the driver, and a worker thread's hand-offs were a third of each game's CPU. The
# hang test below drives its engine with InProcessEngine, which has deadlines.
def planted(*faults: str, **options: Any) -> DirectEngine:
    return DirectEngine(lambda: Planted(*faults, **options), f"planted {faults}")


def reference() -> DirectEngine:
    return DirectEngine(lambda: dekal_ref, "reference")


def found(report: FuzzReport) -> list[tuple[str, str, bool]]:
    """Each distinct deviation as (rule, field, known), in the order found."""
    return [(f.example.blame.rule, f.example.blame.field, f.known) for f in report.findings]


# -- the games: legal, reproducible, steered ------------------------------------------------------
@pytest.fixture(scope="module")
def played() -> list[FuzzGame]:
    """Forty fuzz games of the reference against itself, without the deliberately wrong
    actions: so every item sent is one the fuzzer means to be legal."""
    engine = reference()
    lock = LockStep(engine, 10.0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(games_module, "WRONG_ACTION_RATE", 0.0)
        played = [play_game(lock, seeded_chooser(seed), seed=seed) for seed in SEEDS]
    engine.close()
    return played


def replayed(game: FuzzGame) -> ProtocolAdapter:
    adapter = ProtocolAdapter(dekal_ref)
    assert adapter.handle({"id": 0, "cmd": "new_game", **game.setup})["ok"]
    for item in game.items:
        if "action" in item:
            adapter.handle({"id": 0, "cmd": "action", "action": item["action"]})
        else:
            adapter.handle({"id": 0, "cmd": "new_round", "deal": item["new_round"]})
    return adapter


def test_steered_deals_are_the_100_cards_and_the_reference_refuses_nothing_generated(
    played: list[FuzzGame],
) -> None:
    claimed = reference().info
    steered = 0
    for game in played:
        assert game.divergence is None and not game.deviations, "the reference agrees with itself"
        deal = game.setup["deal"]
        cards = [parse_value(s) for grid in deal["grids"] for s in grid.replace("/", "")]
        cards += [parse_value(s) for s in deal["pile"].strip("-")]
        assert sorted(cards) == sorted(v for v in range(1, 11) for _ in range(10))
        _, steering = steered_setup(seeded_chooser(game.seed), claimed)
        assert not any(refused_by_reference(game.setup, game.items)), game.seed
        actions = [item.get("action") for item in game.items]
        assert actions[: len(steering.reveals)] == list(steering.reveals), game.seed
        steered += bool(steering.reveals)
    assert 5 <= steered <= 30, "some games are steered into ties, ordinary ones dominate"


def turn_one_values(game: FuzzGame) -> list[int]:
    """The values revealed on turn 1 of round 1 (the first accepted reveal of each seat)."""
    grids = [parse_grid(g) for g in game.setup["deal"]["grids"]]
    refused = refused_by_reference(game.setup, game.items)
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
            adapter = replayed(game)
            over = position_fields(adapter.handle({"id": 0, "cmd": "position"})["position"])
            totals = adapter.handle({"id": 0, "cmd": "result"})["totals"]
            exact += over["phase"] == "over" and max(totals) == threshold
    assert ties >= 8, f"only {ties} turn-1 ties in {len(SEEDS)} games"
    assert exact >= 4, f"only {exact} matches ended exactly on their threshold"


def test_the_same_seed_plays_the_same_game_and_another_seed_another() -> None:
    engine = reference()
    lock = LockStep(engine, 10.0)
    for seed in (3, 7, 12):
        first = play_game(lock, seeded_chooser(seed))
        again = play_game(lock, seeded_chooser(seed))
        assert (first.setup, first.items, first.choices) == (
            again.setup,
            again.items,
            again.choices,
        )
        other = play_game(lock, seeded_chooser(seed + 100))
        assert (other.setup, other.items) != (first.setup, first.items)
    engine.close()


def test_steered_ties_reach_the_re_draw_and_the_short_pile_rulings() -> None:
    """F2: over 200 set-ups, the planned turn-1 reveals (all accepted by the reference) make
    tied seats draw again, and some run the set-aside pile out (the lowest tied seat starts);
    the reference's first player is the one F2 gives, counted here independently."""
    claimed = reference().info
    redraws = shorts = 0
    for seed in range(200):
        setup, steering = steered_setup(seeded_chooser(seed), claimed)
        if not steering.reveals:
            continue
        adapter = ProtocolAdapter(dekal_ref)
        assert adapter.handle({"id": 0, "cmd": "new_game", **setup})["ok"]
        for reveal in steering.reveals:
            assert adapter.handle({"id": 0, "cmd": "action", "action": reveal})["ok"]
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
        fields = position_fields(adapter.handle({"id": 0, "cmd": "position"})["position"])
        assert fields["start"] == str(tied[0]), (seed, fields["start"], tied)
        redraws += rounds_of_draws >= 2
        shorts += short
    assert redraws >= 10 and shorts >= 3, (redraws, shorts)


# -- known deviations set aside: the run finds the next one ---------------------------------------
def test_expect_M3_goes_past_the_leaking_public_view_and_finds_the_planted_ranking() -> None:
    engine = planted("leak-public", "worst-first")
    report = fuzz(engine, games=6, seed=0, expect=frozenset({"M3"}), shrink_seconds=0)
    engine.close()
    assert found(report)[0] == ("M3", "public view", True)
    assert [(rule, field) for rule, field, known in found(report) if not known] in (
        [("S3", "ranking")],
        [("S4", "ranking")],
    )


def test_expect_S3_S4_goes_past_the_ranking_and_finds_the_leaking_public_view() -> None:
    engine = planted("leak-public", "worst-first")
    report = fuzz(engine, games=6, seed=0, expect=frozenset({"S3", "S4"}), shrink_seconds=2)
    engine.close()
    assert ("M3", "public view", False) in found(report)
    assert all(known for rule, _, known in found(report) if rule != "M3")
    m3 = next(f for f in report.findings if f.example.blame.rule == "M3")
    assert m3.example.step == 0 and m3.shrunk.items == [], "it shows at once: new_game"


@pytest.mark.skipif(NODE is None, reason="node is not on PATH: the JS engine cannot run")
def test_the_js_engine_with_two_bugs_expecting_the_push_one_is_caught_on_the_ranking() -> None:
    engine = js_engine("into-hole,highest-wins")
    report = fuzz(engine, games=4, seed=0, expect=frozenset({"P1", "P2"}), shrink_seconds=0)
    engine.close()
    unexpected = [(rule, field) for rule, field, known in found(report) if not known]
    assert unexpected in ([("S3", "ranking")], [("S4", "ranking")])
    assert {rule for rule, _, known in found(report) if known} <= {"P1", "P2"}


def test_without_expect_the_run_stops_at_the_first_deviation_and_keep_going_finds_both() -> None:
    engine = planted("leak-public", "worst-first")
    first = fuzz(engine, games=6, seed=0, shrink_seconds=0)
    every = fuzz(engine, games=6, seed=0, shrink_seconds=0, keep_going=True)
    engine.close()
    assert found(first) == [("M3", "public view", False)] and first.games == 1
    assert found(every)[0] == ("M3", "public view", False) and every.games == 6
    assert len(found(every)) == len(set(found(every))) >= 2, "each distinct one once"
    assert any(field == "ranking" for _, field, _ in found(every))


# -- perft, engines that deal, resync ---------------------------------------------------------
def test_a_wrong_perft_count_is_found_and_blamed_on_the_push_rule() -> None:
    engine = planted("perft-plus")
    report = fuzz(engine, games=10, seed=0, shrink_seconds=0)
    engine.close()
    (finding,) = report.findings
    assert finding.example.blame.field == "perft" and finding.example.blame.rule in ("P1", "P2")
    assert finding.example.sent.startswith("perft ")


def test_an_engine_that_deals_for_itself_is_followed_on_its_own_deal() -> None:
    engine = planted(deals="own")
    lock = LockStep(engine, 10.0)
    game = play_game(lock, seeded_chooser(5), seed=5)
    at_the_end = engine.request({"cmd": "position"}, 10.0)["position"]
    engine.close()
    assert not game.deviations and game.setup["deal"] is not None
    dealt_by_us = steered_setup(seeded_chooser(5), reference().info)[0]["deal"]
    assert game.setup["deal"] != dealt_by_us, "the deal is the engine's, read from its position"
    replay = replayed(game).handle({"id": 0, "cmd": "position"})["position"]
    assert replay == at_the_end, "the game written down is the game the engine played"


def test_an_own_deal_short_of_a_card_is_M1() -> None:
    engine = planted("short-pile", deals="own")
    report = fuzz(engine, games=1, seed=0)
    engine.close()
    assert found(report) == [("M1", "deal", False)] and report.findings[0].shrink is None


def test_a_dealt_grid_with_a_face_up_card_is_M3_and_a_full_deal_reads_back() -> None:
    start = dekal_ref.format_position(
        dekal_ref.new_game(dekal_ref.Rules(players=2), seeded_deal(9, 2))
    )
    deal, _ = deal_of_position(start, 2)
    assert deal == games_module.deal_message(seeded_deal(9, 2))
    fields = start.split(" ")
    fields[4] = "5" + fields[4][1:]
    assert deal_of_position(" ".join(fields), 2)[1][0] == "M3"


def test_own_deal_games_shrink_when_the_engine_can_load_a_position() -> None:
    engine = planted("worst-first", deals="own", position=True)
    report = fuzz(engine, games=6, seed=0, shrink_seconds=3)
    engine.close()
    (finding,) = report.findings
    assert finding.example.blame.field == "ranking" and finding.shrink is not None
    assert finding.shrink.attempts > 1


def test_a_known_deviation_that_parts_the_states_resyncs_an_engine_that_loads_positions() -> None:
    loads, cannot = planted("upside-down", position=True), planted("upside-down")
    resynced = fuzz(loads, games=3, seed=0, expect=frozenset({"M3"}), shrink_seconds=0)
    dropped = fuzz(cannot, games=3, seed=0, expect=frozenset({"M3"}), shrink_seconds=0)
    loads.close()
    cannot.close()
    assert found(resynced) == [("M3", "pile", True)] == found(dropped)
    assert resynced.resyncs == 3 and resynced.abandoned == 0 and resynced.steps > 300
    assert dropped.abandoned == 3 and dropped.resyncs == 0 and dropped.steps == 3


# -- shrinking ------------------------------------------------------------------------------
def test_after_a_hang_requests_get_a_few_times_the_slowest_reply() -> None:
    engine = InProcessEngine(lambda: Planted("hang-on-ten"), "hangs", 2.0)
    lock = LockStep(engine, 2.0)
    lock.eng("new_game", **steered_setup(seeded_chooser(1), engine.info)[0])
    with pytest.raises(EngineError, match="within 2.0 s"):
        lock.eng("action", action="take 0 T")
    engine.restart()
    short = max(HANG_FLOOR, HANG_FACTOR * lock.slowest)
    assert short < 2.0, "the replies so far took milliseconds"
    with pytest.raises(EngineError, match=f"within {short:.1f} s"):
        lock.eng("action", action="take 0 T")
    engine.close()


def test_the_example_database_replays_the_smallest_game_on_the_next_run(tmp_path: Path) -> None:
    engine = planted("perft-plus")
    first = fuzz(engine, games=10, seed=0, shrink_seconds=5, database=tmp_path)
    again = fuzz(engine, games=10, seed=0, shrink_seconds=5, database=tmp_path)
    engine.close()
    (before,), (after,) = first.findings, again.findings
    assert before.shrink is not None and after.shrink is not None
    assert after.shrink.attempts <= 2 < before.shrink.attempts, "replayed, not shrunk again"
    assert after.shrunk.length <= before.shrunk.length


def test_a_shrink_with_no_time_left_keeps_the_game_as_found() -> None:
    engine = planted("worst-first")
    report = fuzz(engine, games=3, seed=0, shrink_seconds=0)
    engine.close()
    (finding,) = report.findings
    assert finding.shrink is not None and not finding.shrink.complete
    assert finding.example.step == finding.deviation.step


def test_the_same_seed_gives_the_same_report() -> None:
    engine = planted("perft-plus")
    reports = [fuzz(engine, games=10, seed=3, shrink_seconds=30).as_json() for _ in range(2)]
    engine.close()
    for report in reports:
        for deviation in report["deviations"]:
            deviation.pop("shrink")
    assert reports[0] == reports[1] and reports[0]["deviations"]


# -- the command ----------------------------------------------------------------------------
def dekal(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


PLANTED = "test_conformance_fuzz:leaking_and_backwards"


def leaking_and_backwards() -> Planted:
    """The reference with M3 (leaking public view) and S3 (backwards ranking) broken."""
    return Planted("leak-public", "worst-first")


def test_the_json_report_lists_every_distinct_deviation_with_its_record() -> None:
    code, out, _ = dekal(
        "conformance",
        "fuzz",
        "--python",
        PLANTED,
        "--games",
        "4",
        "--expect",
        "M3",
        "--shrink-seconds",
        "1",
        "--no-db",
        "--json",
    )
    report = json.loads(out)
    assert code == 1 and report["divergences"] == 1 and report["known"] == 1
    keys = {"rule", "field", "game", "step", "sent", "expected", "actual", "record"}
    assert all(keys <= set(d) for d in report["deviations"])
    assert report["deviations"][0]["rule"] == "M3" and report["deviations"][0]["known"] is True
    assert all(d["record"].startswith('[Format "dekal-record/1"]') for d in report["deviations"])


def test_record_dash_prints_a_record_that_dekal_replay_reads(tmp_path: Path) -> None:
    code, out, err = dekal(
        "conformance",
        "fuzz",
        "--python",
        PLANTED,
        "--games",
        "2",
        "--expect",
        "M3",
        "--shrink-seconds",
        "1",
        "--no-db",
        "--record",
        "-",
    )
    assert code == 1 and out.startswith('[Format "dekal-record/1"]') and "divergence" in err
    replay_code, replayed_out, _ = dekal("replay", "-", "--quiet", stdin=out)
    assert replay_code == 0, replayed_out


def test_expect_reads_a_file_of_rules_as_run_reads_known_failures(tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    # the same file as run's: the line naming a case is run's alone (fuzz games are no cases)
    known.write_text(
        "# what we will not fix today\n"
        "M3 our public view is the full one\n"
        "game-0007 S3 a tie-break we will fix next\n"
    )
    record = tmp_path / "smallest.dkr"
    code, out, _ = dekal(
        "conformance",
        "fuzz",
        "--python",
        PLANTED,
        "--games",
        "2",
        "--expect",
        str(known),
        "--shrink-seconds",
        "1",
        "--no-db",
        "--record",
        str(record),
    )
    assert code == 1 and "1 divergence, 1 known" in out and "known: M3 (public view)" in out
    assert record.read_text().startswith('[Format "dekal-record/1"]')
    assert "blamed on S3 (ranking)" in record.read_text() or "S4 (ranking)" in record.read_text()


def test_expect_names_rules_and_refuses_anything_else_in_one_line() -> None:
    code, _, err = dekal("conformance", "fuzz", "--python", PLANTED, "--expect", "M3,Z9")
    assert code == 2 and "Z9 is not a rule ID" in err and "Traceback" not in err


# -- the JavaScript engine's broken builds ------------------------------------------------------
def js_engine(bug: str | None) -> SubprocessEngine:
    command = f"{shlex.quote(NODE or 'node')} {shlex.quote(str(ENGINE_JS))}"
    return SubprocessEngine(command + (f" --bug {bug}" if bug else ""))


# Measured from seed 0 (shrinks of 10 s): f2-highest-draw is found in game 1 (F2, start),
# threshold-strict in game 4 (S4, phase); every broken build within 6 games (no-rotation).
@pytest.mark.skipif(NODE is None, reason="node is not on PATH: the JS engine cannot run")
@pytest.mark.parametrize(("bug", "rule"), [("f2-highest-draw", "F2"), ("threshold-strict", "S4")])
def test_fuzz_finds_the_rare_js_bugs_within_four_games_and_blames_their_rule(
    bug: str, rule: str
) -> None:
    engine = js_engine(bug)
    report = fuzz(engine, games=4, seed=0, shrink_seconds=0)
    engine.close()
    assert [finding.example.blame.rule for finding in report.findings] == [rule]


@pytest.mark.skipif(NODE is None, reason="node is not on PATH: the JS engine cannot run")
def test_the_correct_js_engine_survives_the_same_four_games() -> None:
    engine = js_engine(None)
    report = fuzz(engine, games=4, seed=0)
    engine.close()
    assert not report.findings and report.games == 4
