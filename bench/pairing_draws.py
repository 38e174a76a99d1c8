"""Does pairing save more with common random numbers? (docs/bots.md, "What pairing saves")

Two bots play deal d of seed 2026 twice, the seats swapped, as `dekal match` does. What
changes is where each seat's random draws come from:

* apart — as `dekal match`: a new stream per rotation (dekal.simulation._match.draws_seed);
* seat  — the seat's stream, the same in both rotations (whichever bot sits there);
* bot   — the bot's own stream, the same in both rotations (wherever it sits).

The pile order is the deal's in every mode. For each mode: the pentanomial, the first bot's
score, its standard error paired and unpaired, the share pairing saves, and the correlation
of the first bot's points in the two games of a deal (pairing helps when it is negative).
`apart` reproduces `dekal match --seed 2026` game for game (a check of this script).

    python bench/pairing_draws.py pimc:samples=5 greedy 300 apart,seat,bot
"""

from __future__ import annotations

import json
import math
import sys
import time

from dekal.bots.bot import Bot, make_bot
from dekal.bots.observation import Observation
from dekal.bots.table import play_game
from dekal.draws import Draws, game_seed, seat_seed
from dekal.simulation._match import MatchSetup, draws_seed, game_points
from dekal.simulation._sprt import elo_estimate
from dekal_ref.actions import Action
from dekal_ref.ranking import ranking

SEED = 2026
MODES = ("apart", "seat", "bot")


class OwnDraws:
    """A bot that draws from the stream it is handed before each game, not the table's."""

    def __init__(self, bot: Bot) -> None:
        self.bot, self.name = bot, bot.name
        self.draws = Draws(0)

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        return self.bot.act(obs, seat, self.draws)


def stream(mode: str, seed_of_deal: int, rotation: int, bot: int) -> Draws:
    seat = (bot + rotation) % 2
    if mode == "apart":
        return Draws(seat_seed(draws_seed(seed_of_deal, rotation), seat))
    if mode == "seat":
        return Draws(seat_seed(draws_seed(seed_of_deal, 0), seat))
    return Draws(seat_seed(draws_seed(seed_of_deal, 0), bot))


def measure(specs: tuple[str, str], deals: int, mode: str) -> dict[str, object]:
    rules = MatchSetup(specs, SEED).rules
    bots = [OwnDraws(make_bot(spec)) for spec in specs]
    pentanomial, games, pairs = [0] * 5, [0, 0, 0], []
    for deal in range(deals):
        seed = game_seed(SEED, deal)
        points = []
        for rotation in range(2):
            at_seat = [(seat - rotation) % 2 for seat in range(2)]
            for b, bot in enumerate(bots):
                bot.draws = stream(mode, seed, rotation, b)
            game = play_game(rules, [bots[b] for b in at_seat], seed, recorded=False)
            places = [0, 0]
            for standing in ranking(game.final):
                places[at_seat[standing.seat]] = standing.place
            points.append(game_points(places, 0))
        pentanomial[round(2 * sum(points))] += 1
        for point in points:
            games[round(2 * point)] += 1
        pairs.append(points)
    estimate = elo_estimate(pentanomial, games)
    means = [sum(pair[g] for pair in pairs) / deals for g in (0, 1)]
    spread = [sum((pair[g] - means[g]) ** 2 for pair in pairs) / deals for g in (0, 1)]
    covariance = sum((p[0] - means[0]) * (p[1] - means[1]) for p in pairs) / deals
    both = spread[0] * spread[1]
    return {
        "bots": list(specs),
        "mode": mode,
        "deals": deals,
        "pentanomial": pentanomial,
        "score": round(estimate.score, 4),
        "se_paired": round(estimate.score_se, 5),
        "se_unpaired": round(estimate.unpaired_se, 5),
        "saved": round(1 - estimate.score_se / estimate.unpaired_se, 3),
        "correlation": round(covariance / math.sqrt(both), 3) if both > 0 else None,
    }


def main() -> None:
    first, second, deals, modes = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    for mode in modes.split(","):
        if mode not in MODES:
            sys.exit(f"mode {mode!r}: one of {', '.join(MODES)}")
        began = time.process_time()
        row = measure((first, second), deals, mode)
        row["cpu_seconds"] = round(time.process_time() - began, 1)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
