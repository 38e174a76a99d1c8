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
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dekal.bots._bot_protocol import FORFEITS, THINK_MS
from dekal.bots._process_bot import BotForfeit, ProcessBot
from dekal.bots.bot import COMMAND_PREFIX, Bot, make_bot
from dekal.bots.table import play_game
from dekal.draws import game_seed
from dekal.simulation._sprt import OUTCOMES, Sprt
from dekal_ref.ranking import ranking
from dekal_ref.state import Rules

MOST_DEALS = 1_000_000
"""The most deals one match may plan (`dekal match --games` counts games: deals × bots)."""


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


def seated(setup: MatchSetup) -> list[Bot]:
    """One bot object per bot of the setup (a program with the setup's think budget)."""
    bots: list[Bot] = []
    for spec in setup.bots:
        kind, _, command = spec.strip().partition(":")
        if kind == COMMAND_PREFIX:
            bots.append(ProcessBot(command.strip(), think_ms=setup.think_ms))
        else:
            bots.append(make_bot(spec))
    return bots


def play_deal(setup: MatchSetup, bots: Sequence[Bot], deal: int) -> DealResult:
    """Deal `deal` played once per rotation (module docstring)."""
    rules, k = setup.rules, len(bots)
    seed = game_seed(setup.seed, deal)
    rows: list[tuple[int, ...]] = []
    forfeits: list[tuple[int, str]] = []
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
            )
        except BotForfeit as forfeit:
            offender = at_seat[forfeit.seat]
            forfeits.append((offender, forfeit.kind))
            rows.append(tuple(k if b == offender else 1 for b in range(k)))
            for bot in bots:  # the others' games are over too: their next game is new
                if isinstance(bot, ProcessBot):
                    bot.seats.clear()
            continue
        places = [0] * k
        for standing in ranking(game.final):
            places[at_seat[standing.seat]] = standing.place
        rows.append(tuple(places))
    return DealResult(deal, tuple(rows), tuple(forfeits))


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
) -> MatchResult:
    """Play deals 0, 1, … until `deals` are played or (two bots, `sprt` given) the SPRT
    decides; `progress` is told the tally and the LLR after each deal. `played`: the deals a
    resumed match has already played (0 … len − 1; a deal's games depend on its number and
    the setup alone, so the rest of the match is the match it would have been). Every bot
    program is ended when the match ends, however it ends."""
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
    bots = seated(setup)
    try:
        for deal in range(len(played), deals):
            if verdict is not None:
                break
            tally.add(play_deal(setup, bots, deal))
            if sprt is not None:
                value, verdict = sprt.verdict(tally.pentanomial)
            if progress is not None:
                progress(tally, value)
    finally:
        for bot in bots:
            if isinstance(bot, ProcessBot):
                bot.close()
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
