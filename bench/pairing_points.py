"""Does pairing save on the points, where it saves nothing on the places? (docs/bots.md)

Two bots play deal d of seed 2026 twice, the seats swapped, as `dekal match` does (two
players, one round). For each game: the first bot's round points minus the second's. The
standard error of their mean is reported paired (from the mean of each deal's two games) and
unpaired (as if each game were dealt apart), with the correlation of the two games of a deal
(pairing saves only when it is negative).

    python bench/pairing_points.py greedy random 300
"""

from __future__ import annotations

import json
import math
import statistics
import sys

from dekal.bots.bot import make_bot
from dekal.bots.table import play_game
from dekal.draws import game_seed
from dekal.simulation._match import MatchSetup
from dekal_ref.ranking import ranking

SEED = 2026


def point_differences(specs: tuple[str, str], deals: int) -> list[tuple[int, int]]:
    """For each deal, the first bot's points minus the second's in its two games."""
    rules = MatchSetup(specs, SEED).rules
    bots = [make_bot(spec) for spec in specs]
    pairs = []
    for deal in range(deals):
        seed = game_seed(SEED, deal)
        differences = []
        for rotation in range(2):
            at_seat = [(seat - rotation) % 2 for seat in range(2)]
            game = play_game(rules, [bots[b] for b in at_seat], seed, recorded=False)
            points = [0, 0]
            for standing in ranking(game.final):
                points[at_seat[standing.seat]] = standing.points
            differences.append(points[0] - points[1])
        pairs.append((differences[0], differences[1]))
    return pairs


def summary(specs: tuple[str, str], deals: int) -> dict[str, object]:
    pairs = point_differences(specs, deals)
    games = [d for pair in pairs for d in pair]
    unpaired = statistics.pstdev(games) / math.sqrt(len(games))
    paired = statistics.pstdev([sum(pair) / 2 for pair in pairs]) / math.sqrt(len(pairs))
    return {
        "bots": list(specs),
        "deals": deals,
        "mean_difference": round(statistics.fmean(games), 2),
        "se_paired": round(paired, 3),
        "se_unpaired": round(unpaired, 3),
        "saved": round(1 - paired / unpaired, 3),
        "correlation": round(statistics.correlation(*zip(*pairs, strict=True)), 3),
    }


if __name__ == "__main__":
    first, second, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    print(json.dumps(summary((first, second), count)))
