"""The work a job may ask for, bounded before anything runs (docs/simulate.md, "Limits").

The Python API refuses what the command line refuses, with the same caps: a `ValueError`
(`WorkRefused` when the work is too large) that names the argument and the range allowed,
raised before a game is planned or a world drawn. The unit of work is about one compiled
playout of a round (measured: pimc about 7 microseconds a unit, ismcts about 8):

* a simulation run: games x the searching decisions of a game x a search's work per
  decision (16 x (samples + iterations): each of at most 16 legal actions in each sample),
  at most MAX_RUN_WORK; the compiled bots (random, greedy) search nothing;
* an advice: worlds x legal actions, at most MAX_ADVICE_PLAYOUTS playouts (and, for a
  searching model, dekal.bots.advise.MAX_SEARCH_WORK on top).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from dekal.arguments import SEEDS, seed, whole
from dekal_ref.state import Rules

__all__ = ["SEEDS", "WorkRefused", "check_advice", "check_run", "check_seed", "whole"]

MAX_GAMES = 100_000_000
"""The most games one run plays (a hundred million: hours on a laptop, minutes on a cluster)."""
MAX_RUN_WORK = 10**10
"""The most search work one run may plan: about 20 hours of one core (a pimc seat with its
default 40 samples costs some 30,000 units a game: 325,000 such games)."""
MAX_ADVICE_PLAYOUTS = 1_600_000
"""The most playouts one advice may plan: 100,000 worlds x 16 actions."""
DECISIONS_PER_ROUND = 3 * 16
"""Each seat's decisions in a round: a reveal, a take and a push on each of 16 turns (T5)."""
POINTS_PER_ROUND = 10
"""A match's rounds are estimated as one per 10 points of its threshold (S4): a round's
lowest score is rarely under that."""


class WorkRefused(ValueError):
    """A job larger than its documented cap. `field` names the argument to make smaller."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def check_seed(field: str, value: object) -> int:
    return seed(field, value)


def search_per_decision(spec: str) -> int:
    """The work of one decision of the bot `spec` (0 for a bot that does not search)."""
    from dekal.bots.bot import make_bot

    bot = make_bot(spec)
    return 16 * (getattr(bot, "samples", 0) + getattr(bot, "iterations", 0))


def rounds_per_game(rules: Rules) -> int:
    """1 for a single round; a match's rounds estimated from its threshold (S4)."""
    return 1 if rules.threshold is None else max(1, math.ceil(rules.threshold / POINTS_PER_ROUND))


def run_work(rules: Rules, specs: Sequence[str], games: int) -> int:
    """The search work of `games` games with specs[s] at seat s, in units (module docstring)."""
    whole("games", games, 0, MAX_GAMES)
    per_round = DECISIONS_PER_ROUND * sum(search_per_decision(spec) for spec in specs)
    return games * rounds_per_game(rules) * per_round


def check_run(rules: Rules, specs: Sequence[str], games: int) -> None:
    """games in 1..MAX_GAMES and the run's search work within MAX_RUN_WORK, else ValueError
    (WorkRefused for the work) naming the argument."""
    whole("games", games, 1, MAX_GAMES)
    work = run_work(rules, specs, games)
    if work > MAX_RUN_WORK:
        most = max(1, MAX_RUN_WORK // max(1, work // games))
        raise WorkRefused(
            "games",
            f"{games:,} games of {', '.join(specs)} plan {work:,} units of search work; at most"
            f" {MAX_RUN_WORK:,} (about {most:,} such games): fewer games, or smaller searches",
        )


def check_advice(samples: int, actions: int) -> None:
    """samples from 1, and samples x actions within MAX_ADVICE_PLAYOUTS, else ValueError."""
    whole("samples", samples, 1, MAX_ADVICE_PLAYOUTS)
    if samples * actions > MAX_ADVICE_PLAYOUTS:
        raise WorkRefused(
            "samples",
            f"{samples:,} worlds x {actions} actions is {samples * actions:,} playouts;"
            f" at most {MAX_ADVICE_PLAYOUTS:,}",
        )
