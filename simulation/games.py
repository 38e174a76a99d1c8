"""A simulation run cut into chunks of seeded games, and one chunk played into a tally.

Game i of a run seeded S is played from `game_seed(S, i)` (dekal.draws): its deals, and
each seat's decisions, come from that seed alone. Under `--first chosen` its first player is
i mod players, so the seats take turns starting. A chunk is a range of game numbers, so
whichever worker plays it, and however many workers there are, game i is the same game;
the chunks' tallies add up to the same integers.

The bots the compiled kernel has (dekal.kernel.POLICIES: random, greedy) are played by it,
a chunk at a time; a game with any other bot at its table is played seat by seat through
the Python table loop (dekal.simulation._table_results), chunked the same way. `table=True`
sends every game through the table loop: slower, the same games, a cross-check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dekal._arguments import seed as check_seed
from dekal._arguments import whole
from dekal.bots.bot import make_bot
from dekal.bots.work import check_work, simulation_work
from dekal.draws import game_seed
from dekal.extras import available, needed
from dekal.simulation._tally import Tally, tally
from dekal.simulation.runner import Progress, run_chunks
from dekal_ref.state import Rules

with needed("dekal simulate"):
    import numpy as np

KERNEL_BOTS = ("random", "greedy")
"""The bots dekal.kernel plays (its POLICIES), by name."""

CHUNKS_PER_RUN = 64  # enough to keep a few dozen workers busy and a progress bar moving
KERNEL_CHUNK_MOST = 20_000  # games per chunk, compiled
TABLE_CHUNK_MOST = 16  # games per chunk, through the table loop (a pimc game takes seconds)
MAX_GAMES = 100_000_000
"""The most games one run plays (as `dekal simulate --games`)."""
MOST_CHUNKS = 10_000  # a run of many cheap table games gets bigger chunks, not millions of them


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares: the rules, one bot spec per seat, the run's seed."""

    rules: Rules
    bots: tuple[str, ...]
    seed: int
    table: bool = False  # every game through the Python table loop, even kernel bots

    def __post_init__(self) -> None:
        """ValueError naming the field: rules a Rules, one known bot spec per seat (M2), a seed
        0 to 2**64 - 1 (dekal._arguments)."""
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules: a dekal_ref.state.Rules, not {type(self.rules).__name__}")
        players = self.rules.players
        if not isinstance(self.bots, tuple) or len(self.bots) != players:
            shown = repr(self.bots)[:40]
            raise ValueError(f"bots: a tuple of one bot spec per seat ({players}), not {shown}")
        for spec in self.bots:
            if not isinstance(spec, str):
                raise ValueError(f"bots: each a bot spec (a string), not {repr(spec)[:40]}")
            make_bot(spec)  # NotationError (a ValueError) naming "bot" for an unknown one
        check_seed("seed", self.seed)

    @property
    def compiled(self) -> bool:
        """Played by the kernel: kernel bots only, no --table, and numba installed (the `fast`
        extra; without it the table loop plays the same games)."""
        kernel_bots = all(bot in KERNEL_BOTS for bot in self.bots)
        return not self.table and kernel_bots and available("numba")


@dataclass(frozen=True)
class Chunk:
    """Games start, start + 1, …, start + count − 1 of a run."""

    setup: Setup
    start: int
    count: int


def chunk_size(setup: Setup, games: int) -> int:
    """Games per chunk: a function of the run alone, never of the workers."""
    whole("games", games, 0, MAX_GAMES)
    most = KERNEL_CHUNK_MOST if setup.compiled else TABLE_CHUNK_MOST
    return max(1, min(most, math.ceil(games / CHUNKS_PER_RUN)), math.ceil(games / MOST_CHUNKS))


def chunks(setup: Setup, games: int) -> list[Chunk]:
    """Games 0 … games − 1, in chunks of chunk_size (the last one may be shorter)."""
    size = chunk_size(setup, games)
    return [Chunk(setup, start, min(size, games - start)) for start in range(0, games, size)]


def play_chunk(chunk: Chunk) -> Tally:
    """Play a chunk's games and count them (run on whichever worker gets the chunk)."""
    setup = chunk.setup
    rules, n = setup.rules, setup.rules.players
    numbers = range(chunk.start, chunk.start + chunk.count)
    seeds = [game_seed(setup.seed, i) for i in numbers]
    firsts = [i % n for i in numbers] if rules.first == "chosen" else None
    if setup.compiled:
        from dekal.kernel import POLICIES, play_games

        results = play_games(
            rules,
            np.array(seeds, dtype=np.uint64),
            [POLICIES[bot] for bot in setup.bots],
            None if firsts is None else np.array(firsts, dtype=np.int64),
        )
        return tally(results, setup.bots)
    from dekal.simulation._table_results import play_table

    return tally(play_table(rules, setup.bots, seeds, firsts), setup.bots)


def simulate(
    setup: Setup,
    games: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> Tally:
    """Play games 0 … games − 1 of the run and return their tally (see dekal.simulation.runner
    for workers and scheduler; `progress` is told (games done, games)).

    ValueError before anything is planned: games outside 1..MAX_GAMES, or a run that plans
    more than dekal.bots.work.MAX_WORK (TooMuchWork, field "games"), as `dekal simulate`."""
    whole("games", games, 1, MAX_GAMES)
    rules = setup.rules
    work = simulation_work(setup.bots, games, rules.threshold, setup.table)
    check_work(work, "games", f"{games:,} games of {', '.join(dict.fromkeys(setup.bots))}")
    planned = chunks(setup, games)
    size = planned[0].count

    def tell(done: int, total: int) -> None:
        if progress is not None:
            progress(min(games, done * size), games)

    tallies = run_chunks(play_chunk, planned, workers=workers, scheduler=scheduler, progress=tell)
    return sum(tallies[1:], tallies[0])
