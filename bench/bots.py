"""The bots' strength table: round-robin pairings in 4-player games, and their speed.

    .venv/bin/python bench/bots.py --quick                    # a few games, small bots (seconds)
    .venv/bin/python bench/bots.py --games 2000 --workers 2   # the full run
    .venv/bin/python bench/bots.py --bots greedy,pimc --against greedy --games 400 --json

A pairing "X vs Y" is `--games` games of `--players` seats: X in one seat, Y in all the
others, X's seat rotating (game i puts X at seat i mod players). Game i of every pairing is
played from the same seed, game_seed(--seed, i) (dekal.draws), so every pairing sees the same
deals. Each seat decides from its own observation and Draws stream, at the table loop of
dekal.bots.table (single rounds, rules slide/lowest unless --push/--first say otherwise).

For X, per pairing: the win rate (X is first, alone or shared, S3) with its 95% Wilson
interval, the mean score (S2 points) with its 95% interval, and X's decisions per second
(its own decisions only: time spent in X's act()). With n seats, an X no better than its
opponents wins about 1/n of the games (25% in 4-player games; a little more, since shared
victories count).

Games are split into chunks run by dekal.simulation.runner.run_chunks: `--workers N` plays
them on N local worker processes (Dask); the figures do not depend on the workers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from dekal.bots.bot import Bot, make_bot
from dekal.bots.observation import Observation
from dekal.bots.table import play_game
from dekal.draws import Draws, game_seed
from dekal.simulation.runner import run_chunks
from dekal.simulation.stats import Estimate, mean, rate
from dekal_ref.actions import Action
from dekal_ref.ranking import ranking
from dekal_ref.state import Rules

err = Console(stderr=True)

FULL_BOTS = "random,greedy,pimc,ismcts"
QUICK_BOTS = "random,greedy,pimc:samples=4,ismcts:iterations=16"
CHUNK_GAMES = 10


@dataclass(frozen=True)
class Chunk:
    """Games start..start+count-1 of the pairing `bot` vs `opponent`."""

    bot: str
    opponent: str
    rules: Rules
    seed: int
    start: int
    count: int


@dataclass
class Tally:
    """What a chunk counts for X: games, wins, the score histogram, decisions and seconds."""

    games: int = 0
    wins: int = 0
    scores: dict[int, int] | None = None
    decisions: int = 0
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        merged = dict(self.scores or {})
        for value, count in (other.scores or {}).items():
            merged[value] = merged.get(value, 0) + count
        self.scores = merged
        self.decisions += other.decisions
        self.seconds += other.seconds


class Timed:
    """A bot whose act() is timed: X's decisions per second are its own, not the table's."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0

    @property
    def name(self) -> str:
        return self.bot.name

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        began = time.perf_counter()
        action = self.bot.act(obs, seat, draws)
        self.seconds += time.perf_counter() - began
        self.decisions += 1
        return action


def play_chunk(chunk: Chunk) -> Tally:
    """Play a chunk's games; X sits at seat (game mod players)."""
    n = chunk.rules.players
    timed = Timed(make_bot(chunk.bot))
    opponent = make_bot(chunk.opponent)
    tally = Tally(scores={})
    for game in range(chunk.start, chunk.start + chunk.count):
        seat = game % n
        bots: list[Bot] = [opponent] * n
        bots[seat] = timed
        first = game % n if chunk.rules.first == "chosen" else None
        played = play_game(chunk.rules, bots, game_seed(chunk.seed, game), first)
        mine = next(s for s in ranking(played.final) if s.seat == seat)
        tally.games += 1
        tally.wins += mine.place == 1
        assert tally.scores is not None
        tally.scores[mine.points] = tally.scores.get(mine.points, 0) + 1
    tally.decisions, tally.seconds = timed.decisions, timed.seconds
    return tally


@dataclass(frozen=True)
class Row:
    bot: str
    opponent: str
    games: int
    win_rate: Estimate
    score: Estimate
    decisions_per_second: float

    def json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "opponent": self.opponent,
            "games": self.games,
            "win_rate": round(self.win_rate.value, 4),
            "win_rate_ci95": self.win_rate.json(),
            "mean_score": round(self.score.value, 3),
            "mean_score_ci95": self.score.json(),
            "decisions_per_second": round(self.decisions_per_second, 1),
        }


def pairings(bots: list[str], against: list[str] | None) -> list[tuple[str, str]]:
    """Every ordered pair of distinct bots (the round robin), or every bot against each of
    `against`."""
    opponents = against if against is not None else bots
    return [(x, y) for x in bots for y in opponents if x != y or against is not None]


def run(args: argparse.Namespace) -> list[Row]:
    rules = Rules(players=args.players, push=args.push, first=args.first)
    bots = args.bots.split(",")
    against = args.against.split(",") if args.against else None
    for spec in bots + (against or []):
        make_bot(spec)  # a bad spec is refused before any game is played
    pairs = pairings(bots, against)
    chunks = [
        Chunk(x, y, rules, args.seed, start, min(CHUNK_GAMES, args.games - start))
        for x, y in pairs
        for start in range(0, args.games, CHUNK_GAMES)
    ]
    with Progress(console=err, transient=True) as bar:
        task = bar.add_task(f"{len(pairs)} pairings × {args.games} games", total=len(chunks))
        tallies = run_chunks(
            play_chunk,
            chunks,
            workers=args.workers,
            progress=lambda done, total: bar.update(task, completed=done),
        )
    rows = []
    for x, y in pairs:
        total = Tally(scores={})
        for chunk, tally in zip(chunks, tallies, strict=True):
            if (chunk.bot, chunk.opponent) == (x, y):
                total.add(tally)
        assert total.scores is not None
        rows.append(
            Row(
                x,
                y,
                total.games,
                rate(total.wins, total.games),
                mean(total.scores),
                total.decisions / total.seconds if total.seconds else float("inf"),
            )
        )
    return rows


def show(rows: list[Row], args: argparse.Namespace) -> None:
    table = Table(
        title=f"{args.players}-player games, {args.games} a pairing, seed {args.seed}: "
        "one X against the others all Y"
    )
    for heading in ("X", "vs Y", "X wins (95% CI)", "X mean score (95% CI)", "X decisions/s"):
        table.add_column(heading, justify="left" if heading in ("X", "vs Y") else "right")
    for row in rows:
        table.add_row(
            row.bot,
            row.opponent,
            f"{row.win_rate.value:.1%} [{row.win_rate.low:.1%}, {row.win_rate.high:.1%}]",
            f"{row.score.value:.2f} [{row.score.low:.2f}, {row.score.high:.2f}]",
            f"{row.decisions_per_second:,.0f}",
        )
    Console(width=140).print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--bots", default=None, help=f"bot specs, comma separated ({FULL_BOTS})")
    parser.add_argument("--against", default=None, help="opponents (default: the round robin)")
    parser.add_argument("--games", type=int, default=None, help="games a pairing (2000)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--push", choices=["slide", "eject"], default="slide")
    parser.add_argument("--first", choices=["lowest", "chosen"], default="lowest")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a few games with small bots")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.bots is None:
        args.bots = QUICK_BOTS if args.quick else FULL_BOTS
    if args.games is None:
        args.games = 8 if args.quick else 2000
    if args.games < 1 or not 2 <= args.players <= 6:
        parser.error("--games must be at least 1 and --players 2 to 6")
    try:
        rows = run(args)
    except ValueError as error:  # a bad bot spec (NotationError is a ValueError)
        err.print(f"error: {error}")
        return 2
    if args.json:
        print(json.dumps({"players": args.players, "games": args.games, "seed": args.seed,
                          "rows": [row.json() for row in rows]}))  # fmt: skip
    else:
        show(rows, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
