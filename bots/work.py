"""The work a request plans, counted before it runs, and the one cap it must stay under
(issue 19): `dekal simulate`, `dekal advise` and the Python API ask the same functions.

The unit is one compiled playout of a round (random or greedy through dekal.kernel): about
7 microseconds on one core of a laptop, so MAX_WORK units are about half an hour there.

* A searching bot (pimc, ismcts) runs a search at each of its decisions: pimc plays each of
  at most 16 legal actions in each of its `samples` worlds, ismcts runs a tree descent and a
  playout per iteration (some sixteen playouts' cost): 16 × (samples + iterations) units.
* A game of the compiled kernel costs one unit a round; a game through the Python table
  loop (any other bot at the table, or --table) TABLE_DECISION units a decision on top of
  the searches.
* A seat decides 3 times a turn (reveal T1, take T3, push T4), 16 turns a round (T5).
* A match (S4) lasts until a seat's total reaches its threshold: planned as one round per
  POINTS_PER_ROUND points of threshold, and one more. A real match is shorter (the highest
  total grows faster than that), so the plan over-counts: the cap refuses early, never late.
"""

from __future__ import annotations

from collections.abc import Sequence

from dekal.bots.bot import make_bot

MAX_WORK = 300_000_000
"""The most units of work one request may plan (about half an hour on one core)."""

SEARCH_UNITS = 16
"""Units of one pimc sample or one ismcts iteration, at one decision."""
TABLE_DECISION = 4
"""Units of one decision played through the Python table loop, its search aside."""
DECISIONS_PER_TURN = 3  # T1 reveal, T3 take, T4 push
TURNS_PER_ROUND = 16  # T5
POINTS_PER_ROUND = 20
"""A match's planned pace: rounds = threshold / POINTS_PER_ROUND + 1 (see the docstring)."""
COMPILED_BOTS = frozenset({"random", "greedy"})
"""The bots the compiled kernel plays (dekal.simulation.games.KERNEL_BOTS)."""


class TooMuchWork(ValueError):
    """A request that plans more than MAX_WORK units: names the argument to make smaller."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def decision_work(spec: str) -> int:
    """Units of the search a bot runs at one decision (0 for a bot that does not search).

    NotationError (field "bot") for a spec that names no bot (dekal.bots.bot.make_bot)."""
    bot = make_bot(spec)
    return SEARCH_UNITS * (getattr(bot, "samples", 0) + getattr(bot, "iterations", 0))


def rounds_planned(threshold: int | None) -> int:
    """Rounds a game is planned to last: one, or a match's (see the module docstring)."""
    return 1 if threshold is None else threshold // POINTS_PER_ROUND + 1


def simulation_work(
    bots: Sequence[str], games: int, threshold: int | None = None, table: bool = False
) -> int:
    """Units of `games` games with one bot spec per seat (dekal.simulation.simulate)."""
    rounds = games * rounds_planned(threshold)
    if not table and all(spec in COMPILED_BOTS for spec in bots):
        return rounds
    decisions = DECISIONS_PER_TURN * TURNS_PER_ROUND  # per seat and round
    per_round = sum(decisions * (TABLE_DECISION + decision_work(spec)) for spec in bots)
    return rounds * per_round


def advice_work(spec: str, worlds: int, actions: int, decisions_left: int) -> int:
    """Units of an answer of dekal.bots.advise: in each world, each action is played and the
    round played out, the model searching at each of the decisions left."""
    return worlds * actions * decisions_left * decision_work(spec)


def check_work(work: int, field: str, what: str) -> None:
    """TooMuchWork naming `field` when `work` units are past MAX_WORK; `what` says what was
    asked for ("2,000 games of pimc")."""
    if work > MAX_WORK:
        raise TooMuchWork(
            field,
            f"{what} is {work:,} units of work, past the cap of {MAX_WORK:,}"
            " (about half an hour on one core): ask for less",
        )
