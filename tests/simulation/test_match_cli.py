"""`dekal match` (cli/_bots/match.py, dekal.simulation._match): paired deals, an SPRT that stops
as soon as it decides, ratings for more than two bots, forfeits scored as losses."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from dekal.cli._app import app
from dekal.simulation._match import MatchSetup, run_match
from dekal.simulation._sprt import Sprt

runner = CliRunner()
FAULTY = Path(__file__).resolve().parents[1] / "miniatures" / "bots" / "faulty_bot.py"


def match(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["match", *args, "--json"])
    assert result.exit_code == 0, result.output
    report: dict[str, object] = json.loads(result.output)
    return report


def test_the_sprt_stops_as_soon_as_a_clearly_stronger_bot_is_found_so() -> None:
    report = match("--bots", "greedy,random", "--games", "400", "--sprt", "elo0=0,elo1=200")
    sprt = report["sprt"]
    assert isinstance(sprt, dict) and sprt["verdict"] == "H1"
    assert sprt["llr"] >= sprt["upper"]
    assert report["deals"] < 200  # it stopped before the games ran out


def test_the_sprt_decides_at_the_first_deal_whose_llr_leaves_the_bounds() -> None:
    seen: list[float | None] = []
    sprt = Sprt(0, 200)
    result = run_match(
        MatchSetup(("greedy", "random")), 200, sprt, lambda tally, llr: seen.append(llr)
    )
    lower, upper = sprt.bounds
    assert result.verdict == "H1" and len(seen) == len(result.tally.deals)
    assert all(lower < llr < upper for llr in seen[:-1] if llr is not None)
    assert seen[-1] == result.llr and result.llr is not None and result.llr >= upper


def test_paired_deals_cancel_the_luck_of_the_deal() -> None:
    """greedy never draws: with the seats swapped on each deal, the same seat wins both games,
    so every pair splits and the paired standard error is 0, the unpaired one not."""
    report = match("--bots", "greedy,greedy", "--games", "20")
    assert report["pentanomial"] == [0, 0, 10, 0, 0]
    assert report["score_se"] == 0 < report["unpaired_se"]  # type: ignore[operator]


def test_three_bots_are_rated_from_their_placings() -> None:
    report = match("--bots", "greedy,random,greedy", "--games", "30", "--seed", "3")
    greedy, random_bot, other = report["ratings"]  # type: ignore[misc]
    assert random_bot["high"] < min(greedy["low"], other["low"])
    for row in (greedy, random_bot, other):
        assert row["low"] <= row["elo"] <= row["high"]
    assert random_bot["mean_place"] > 2.5


def test_a_program_that_forfeits_loses_every_game_it_forfeits() -> None:
    bot = f"cmd:{sys.executable} {FAULTY} crash"
    report = match("--bots", f"{bot},greedy", "--games", "4")
    assert report["forfeits"] == [{"bot": bot, "kind": "crash", "games": 4}]
    assert report["results"] == [4, 0, 0]


def test_an_sprt_needs_two_bots() -> None:
    result = runner.invoke(app, ["match", "--bots", "greedy,random,greedy", "--sprt",
                                 "elo0=0,elo1=5", "--json"])  # fmt: skip
    assert result.exit_code == 2
    assert json.loads(result.output)["error"]["field"] == "--sprt"


def test_a_resumed_match_is_the_match_played_at_once(tmp_path: Path) -> None:
    saved = tmp_path / "match.json"
    args = ("--bots", "random,greedy", "--seed", "4")
    match(*args, "--games", "4", "--resume", str(saved))
    assert len(json.loads(saved.read_text())["deals"]) == 2
    assert match(*args, "--games", "8", "--resume", str(saved)) == match(*args, "--games", "8")


def test_a_match_is_not_resumed_from_another_match(tmp_path: Path) -> None:
    saved = tmp_path / "match.json"
    match("--bots", "random,greedy", "--games", "2", "--resume", str(saved))
    result = runner.invoke(app, ["match", "--bots", "random,greedy", "--seed", "9", "--games",
                                 "4", "--resume", str(saved), "--json"])  # fmt: skip
    assert result.exit_code == 2
    assert json.loads(result.output)["error"]["field"] == "--resume"


def records_in(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_every_game_of_a_match_is_recorded_and_replays(tmp_path: Path) -> None:
    from dekal_ref.record import parse_record, replay

    report = match("--bots", "greedy,random,greedy", "--games", "6", "--records", str(tmp_path))
    assert report["records"] == {"folder": str(tmp_path), "written": 6}
    kept = records_in(tmp_path)  # nothing else: no temporary file of a write left behind
    assert sorted(kept) == [f"deal-00000{d}-rotation-{r}.dkr" for d in (0, 1) for r in range(3)]
    for name, text in kept.items():
        record = parse_record(text.decode())
        replay(record)
        deal, rotation = int(name[5:11]), int(name[-5])
        assert record.event == f"dekal match, seed 0, deal {deal}, rotation {rotation}"


def test_a_bot_as_a_program_writes_the_same_records_as_the_bot_here(tmp_path: Path) -> None:
    serve = f"cmd:{sys.executable} -m dekal.bots.serve"
    here, piped = tmp_path / "here", tmp_path / "piped"
    match("--bots", "greedy,random", "--games", "4", "--seed", "2", "--records", str(here))
    match("--bots", f"{serve} greedy,{serve} random", "--games", "4", "--seed", "2",
          "--records", str(piped))  # fmt: skip
    assert len(records_in(here)) == 4 and records_in(piped) == records_in(here)


def test_a_forfeited_game_has_no_record(tmp_path: Path) -> None:
    bot = f"cmd:{sys.executable} {FAULTY} crash"
    report = match("--bots", f"{bot},greedy", "--games", "4", "--records", str(tmp_path))
    assert report["records"] == {"folder": str(tmp_path), "written": 0}
    assert records_in(tmp_path) == {}
