"""A match between bots on paired deals (`dekal match`): every deal is played once per seat
rotation, so each bot plays each seat of it and the luck of the deal cancels.

With k bots (2 to 6, one a seat), deal d is dealt from game_seed(seed, d) (dekal.draws) and
played k times: in rotation r bot b sits at seat (b + r) mod k. The seats' own random draws
come from a seed that says nothing about the deal (`draws_seed`: a keyed BLAKE2b hash of the
deal's seed and the rotation, spec/bot-protocol.md `new_game`), since a bot program told the
deal's own stream could compute the deal from it.

Two bots: each deal is a pair of games, counted as a pentanomial outcome for bot A (the
first), with Elo and the SPRT of dekal.simulation._sprt, checked after every deal so that the
match stops as soon as it decides. Three to six: each game's placings feed the Bradley–Terry
ratings of dekal.simulation._placings. A seat that forfeits (spec/bot-protocol.md, section 5)
is placed last alone and every other seat shares first place.

A deal (its k games) is the unit of work: in this process, or on a Dask cluster (workers,
scheduler: dekal.simulation.runner) in tasks of DEALS_PER_TASK consecutive deals, each task
with bot objects and bot programs of its own, ended (and guarded: dekal.simulation._reaper)
when it ends. The deals come back in deal order and are counted in that order, so the SPRT
stops at the same deal, and the match reports the same figures, whoever played them; deals a
cluster played past the stopping point are discarded.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field

from dekal.bots._protocol.bot_protocol import FORFEITS, THINK_MS
from dekal.bots._protocol.process_bot import BotForfeit, BotProcess, ProcessBot
from dekal.bots.bot import COMMAND_PREFIX, Bot, make_bot
from dekal.bots.table import play_game
from dekal.draws import game_seed
from dekal.simulation._reaper import guarded
from dekal.simulation._sprt import OUTCOMES, Sprt
from dekal.simulation.runner import streamed_chunks
from dekal_ref.ranking import ranking
from dekal_ref.state import Rules

MOST_DEALS = 1_000_000
"""The most deals one match may plan (`dekal match --games` counts games: deals × bots)."""
DEALS_PER_TASK = 4
"""Deals in one task of a cluster: enough that a task's start (its bot programs' start, a
fraction of a second each) is small beside its games, few enough that an SPRT that stops
wastes little (at most 2 tasks a worker thread are ahead of the deal being counted)."""


def draws_seed(seed_of_deal: int, rotation: int) -> int:
    """The seats' draw seed of one game: one-way (BLAKE2b, keyed), so no bot can tell the
    deal from the seed it is given."""
    digest = hashlib.blake2b(
        f"{seed_of_deal}:{rotation}".encode(), digest_size=8, key=b"dekal match draws"
    ).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True)
class DealResult:
    """One deal's games: `places[r][b]` is bot b's place in rotation r; `forfeits` the
    (bot, kind) of each game a bot forfeited."""

    deal: int
    places: tuple[tuple[int, ...], ...]
    forfeits: tuple[tuple[int, str], ...] = ()
    records: tuple[str | None, ...] = ()
    """Each rotation's .dkr record when asked for (None: a game a bot forfeited)."""


@dataclass
class Tally:
    """What a match has counted so far."""

    bots: int
    deals: list[DealResult] = field(default_factory=list)
    pentanomial: list[int] = field(default_factory=lambda: [0] * OUTCOMES)
    games: list[int] = field(default_factory=lambda: [0, 0, 0])  # A's losses, draws, wins
    forfeits: dict[tuple[int, str], int] = field(default_factory=dict)

    def add(self, result: DealResult) -> None:
        self.deals.append(result)
        for bot, kind in result.forfeits:
            self.forfeits[bot, kind] = self.forfeits.get((bot, kind), 0) + 1
        if self.bots == 2:
            points = [game_points(places, 0) for places in result.places]
            self.pentanomial[round(2 * sum(points))] += 1
            for point in points:
                self.games[round(2 * point)] += 1

    def mean_places(self) -> list[float]:
        games = [places for deal in self.deals for places in deal.places]
        return [sum(places[b] for places in games) / len(games) for b in range(self.bots)]


def game_points(places: Sequence[int], bot: int) -> float:
    """A's points in a two-bot game: 1 for first place alone, 1/2 shared, 0 otherwise."""
    if places[bot] != 1:
        return 0.0
    return 1.0 if sum(place == 1 for place in places) == 1 else 0.5


@dataclass(frozen=True)
class MatchSetup:
    """The bots (one spec a seat, 2 to 6), the variant, the match's seed and each decision's
    time budget for a bot program."""

    bots: tuple[str, ...]
    seed: int = 0
    push: str = "slide"
    first: str = "lowest"
    threshold: int | None = None
    think_ms: int = THINK_MS

    @property
    def rules(self) -> Rules:
        return Rules(
            players=len(self.bots), push=self.push, first=self.first, threshold=self.threshold
        )


def seated(setup: MatchSetup, started: Callable[[BotProcess], None] | None = None) -> list[Bot]:
    """One bot object per bot of the setup (a program with the setup's think budget;
    `started` is told of each of its processes as it starts)."""
    bots: list[Bot] = []
    for spec in setup.bots:
        kind, _, command = spec.strip().partition(":")
        if kind == COMMAND_PREFIX:
            bots.append(ProcessBot(command.strip(), think_ms=setup.think_ms, started=started))
        else:
            bots.append(make_bot(spec))
    return bots


def record_event(setup: MatchSetup, deal: int, rotation: int) -> str:
    """The Event tag of a game's record: where in the match it was played. It names no bot,
    so that a bot and the same bot as a program (cmd:) write the same bytes: the bot at seat
    s is bot (s − rotation) mod k of the match's --bots."""
    return f"dekal match, seed {setup.seed}, deal {deal}, rotation {rotation}"


def record_name(deal: int, rotation: int) -> str:
    """The file name of a game's record in `dekal match --records DIR` (sorted in playing
    order: deals below MOST_DEALS have six digits)."""
    return f"deal-{deal:06d}-rotation-{rotation}.dkr"


def play_deal(
    setup: MatchSetup, bots: Sequence[Bot], deal: int, recorded: bool = False
) -> DealResult:
    """Deal `deal` played once per rotation (module docstring); with `recorded`, each
    game's .dkr record is kept in the result."""
    rules, k = setup.rules, len(bots)
    seed = game_seed(setup.seed, deal)
    rows: list[tuple[int, ...]] = []
    forfeits: list[tuple[int, str]] = []
    records: list[str | None] = []
    for rotation in range(k):
        at_seat = [(seat - rotation) % k for seat in range(k)]  # the bot at each seat
        first = 0 if rules.first == "chosen" else None
        try:
            game = play_game(
                rules,
                [bots[b] for b in at_seat],
                seed,
                first_player=first,
                draws_seed=draws_seed(seed, rotation),
                event=record_event(setup, deal, rotation),
                recorded=recorded,
            )
        except BotForfeit as forfeit:
            offender = at_seat[forfeit.seat]
            forfeits.append((offender, forfeit.kind))
            rows.append(tuple(k if b == offender else 1 for b in range(k)))
            records.append(None)
            for bot in bots:  # the others' games are over too: their next game is new
                if isinstance(bot, ProcessBot):
                    bot.seats.clear()
            continue
        places = [0] * k
        for standing in ranking(game.final):
            places[at_seat[standing.seat]] = standing.place
        rows.append(tuple(places))
        records.append(game.record)
    return DealResult(deal, tuple(rows), tuple(forfeits), tuple(records) if recorded else ())


@dataclass(frozen=True)
class Deals:
    """A task of a cluster: deals first … first + count − 1 of a match."""

    setup: MatchSetup
    first: int
    count: int
    recorded: bool = False


def play_deals(task: Deals) -> list[DealResult]:
    """A task's deals, on a worker, with bots of its own: every program the task started is
    ended when it ends, and by its guard if the worker is terminated first."""
    with ExitStack() as stack:  # undone last first: each process closed, then its guard

        def guard(process: BotProcess) -> None:
            if process.process is not None:
                stack.enter_context(guarded(process.process.pid))  # it leads its group
            stack.callback(process.close)  # closed gently first; the guard finds it gone

        bots = seated(task.setup, guard)
        deals = range(task.first, task.first + task.count)
        return [play_deal(task.setup, bots, deal, task.recorded) for deal in deals]


@contextmanager
def deal_results(
    setup: MatchSetup,
    deals: range,
    recorded: bool = False,
    workers: int = 1,
    scheduler: str | None = None,
) -> Iterator[Iterator[DealResult]]:
    """The results of `deals` in deal order: here, with one set of bots for the whole match
    (ended when the block ends), or on a cluster in tasks of DEALS_PER_TASK deals. Leaving the
    block early drops the deals not yet counted."""
    if scheduler is None and workers == 1:
        bots = seated(setup)
        try:
            yield (play_deal(setup, bots, deal, recorded) for deal in deals)
        finally:
            for bot in bots:
                if isinstance(bot, ProcessBot):
                    bot.close()
        return
    tasks = (
        Deals(setup, first, min(DEALS_PER_TASK, deals.stop - first), recorded)
        for first in range(deals.start, deals.stop, DEALS_PER_TASK)
    )
    with streamed_chunks(play_deals, tasks, workers=workers, scheduler=scheduler) as done:
        yield (result for results in done for result in results)


@dataclass(frozen=True)
class MatchResult:
    """A finished match: its tally, and the SPRT's last LLR and verdict (two bots)."""

    setup: MatchSetup
    tally: Tally
    sprt: Sprt | None
    llr: float | None
    verdict: str | None


def run_match(
    setup: MatchSetup,
    deals: int,
    sprt: Sprt | None = None,
    progress: Callable[[Tally, float | None], None] | None = None,
    played: Sequence[DealResult] = (),
    *,
    workers: int = 1,
    scheduler: str | None = None,
    record: Callable[[DealResult], None] | None = None,
) -> MatchResult:
    """Play deals 0, 1, … until `deals` are played or (two bots, `sprt` given) the SPRT
    decides; `progress` is told the tally and the LLR after each deal. `played`: the deals a
    resumed match has already played (0 … len − 1; a deal's games depend on its number and
    the setup alone, so the rest of the match is the match it would have been). `workers`,
    `scheduler`: where the deals are played (module docstring; the same match wherever).
    `record`: told each deal counted, with its games' records, before `progress` (the tally
    keeps no record). Every bot program is ended when the match ends, however it ends."""
    if not 2 <= len(setup.bots) <= 6:
        raise ValueError(f"bots: 2 to 6, one a seat (M2), not {len(setup.bots)}")
    if sprt is not None and len(setup.bots) != 2:
        raise ValueError("sprt: an SPRT compares two bots")
    if [result.deal for result in played] != list(range(len(played))):
        raise ValueError("played: deals 0, 1, … in order")
    tally = Tally(len(setup.bots))
    for result in played:
        tally.add(result)
    value: float | None = None
    verdict: str | None = None
    if sprt is not None and played:
        value, verdict = sprt.verdict(tally.pentanomial)
    if verdict is None and len(played) < deals:
        todo = range(len(played), deals)
        with deal_results(setup, todo, record is not None, workers, scheduler) as results:
            for result in results:
                if record is not None:
                    record(result)
                tally.add(dataclasses.replace(result, records=()))
                if sprt is not None:
                    value, verdict = sprt.verdict(tally.pentanomial)
                if progress is not None:
                    progress(tally, value)
                if verdict is not None:
                    break  # the deals played past this one are dropped
    return MatchResult(setup, tally, sprt, value, verdict)


def saved_match(setup: MatchSetup, tally: Tally) -> dict[str, object]:
    """What `dekal match --resume FILE` keeps: the setup and every deal's places and forfeits."""
    return {
        "setup": setup_json(setup),
        "deals": [
            {"deal": r.deal, "places": [list(p) for p in r.places],
             "forfeits": [list(f) for f in r.forfeits]}
            for r in tally.deals
        ],
    }  # fmt: skip


def setup_json(setup: MatchSetup) -> dict[str, object]:
    return {
        "bots": list(setup.bots),
        "seed": setup.seed,
        "push": setup.push,
        "first": setup.first,
        "threshold": setup.threshold,
    }


def read_saved_match(saved: object, setup: MatchSetup) -> list[DealResult]:
    """The deals a saved match played, or ValueError saying why they cannot be resumed here:
    another setup (bots, seed, variant, threshold), or a file that is not a saved match."""
    if not isinstance(saved, dict) or not isinstance(saved.get("deals"), list):
        raise ValueError("not a saved match: an object with its setup and deals")
    if saved.get("setup") != setup_json(setup):
        raise ValueError(f"saved for another match: {saved.get('setup')!r:.200}")
    k = len(setup.bots)
    results = []
    for number, deal in enumerate(saved["deals"]):
        places = deal.get("places") if isinstance(deal, dict) else None
        forfeits = deal.get("forfeits", []) if isinstance(deal, dict) else None
        good = (
            isinstance(deal, dict) and deal.get("deal") == number
            and isinstance(places, list) and len(places) == k
            and all(isinstance(row, list) and len(row) == k
                    and all(type(p) is int and 1 <= p <= k for p in row) for row in places)
            and isinstance(forfeits, list)
            and all(isinstance(f, list) and len(f) == 2 and type(f[0]) is int
                    and 0 <= f[0] < k and f[1] in FORFEITS for f in forfeits)
        )  # fmt: skip
        if not good:
            raise ValueError(f"deal {number} of the saved match is not k={k} rows of places")
        results.append(
            DealResult(
                number,
                tuple(tuple(row) for row in places),  # type: ignore[union-attr]
                tuple((f[0], f[1]) for f in forfeits),  # type: ignore[union-attr]
            )
        )
    return results
