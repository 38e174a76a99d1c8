"""What a bot pays for playing over the bot protocol (spec/bot-protocol.md), per decision.

    .venv/bin/python bench/bot_pipes.py                # 20 games of 4 players (seconds)
    .venv/bin/python bench/bot_pipes.py --games 200 --bot greedy --json

The same seeded games are played twice by the table loop (dekal.bots.table): once with the
bot in-process at every seat, once with `cmd:python -m dekal.bots.serve BOT` at every seat
(one process a seat, started before the clock starts). Each decision is timed around the
seat's `act` on the wall clock; the overhead of a decision is the piped time less the
in-process time of the *same* decision (the games are identical, record for record: the
bench checks it), and the report gives its median and 90th percentile, and the ratio of the
two medians. The target of issue 30 is a median overhead of at most 2 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from dekal.bots.bot import Bot, make_bot
from dekal.bots.observation import Observation
from dekal.bots.table import play_game
from dekal.draws import Draws, game_seed
from dekal_ref.actions import Action
from dekal_ref.state import Rules


class Timed:
    """A bot whose every decision is timed (seconds, wall clock)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot, self.times, self.name = bot, times, bot.name

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        start = time.perf_counter()
        action = self.bot.act(obs, seat, draws)
        self.times.append(time.perf_counter() - start)
        return action

    def game_over(self, final: Observation, places: list[int]) -> None:
        listener = getattr(self.bot, "game_over", None)
        if listener is not None:
            listener(final, places)


def play(bots: list[Bot], games: int, players: int) -> tuple[list[float], list[str]]:
    times: list[float] = []
    seats: list[Bot] = [Timed(bot, times) for bot in bots]
    records = [
        play_game(Rules(players=players), seats, game_seed(7, game)).record for game in range(games)
    ]
    return times, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    inside = [make_bot(args.bot) for _ in range(args.players)]
    outside = make_bot(f"cmd:{sys.executable} -m dekal.bots.serve {args.bot}")
    for seat in range(args.players):  # start every process before the clock starts
        outside.hello(seat)  # type: ignore[attr-defined]
    try:
        piped, piped_records = play([outside] * args.players, args.games, args.players)
    finally:
        outside.close()  # type: ignore[attr-defined]
    direct, direct_records = play(inside, args.games, args.players)
    assert piped_records == direct_records, "over pipes, the games differ"
    overhead = sorted(p - d for p, d in zip(piped, direct, strict=True))
    result = {
        "bot": args.bot,
        "games": args.games,
        "players": args.players,
        "decisions": len(direct),
        "in_process_median_ms": round(1000 * statistics.median(direct), 4),
        "piped_median_ms": round(1000 * statistics.median(piped), 4),
        "overhead_median_ms": round(1000 * statistics.median(overhead), 4),
        "overhead_p90_ms": round(1000 * overhead[int(0.9 * (len(overhead) - 1))], 4),
        "ratio_of_medians": round(statistics.median(piped) / statistics.median(direct), 1),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
