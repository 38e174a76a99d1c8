"""Random games played on an engine and on the reference in lock-step (`dekal conformance fuzz`).

Each game is a sequence of choices made by a seeded chooser (dekal.conformance.fuzz._games):
its set-up and steering (dekal.conformance.fuzz._games), then every step. The lock-step
(dekal.conformance.fuzz._lockstep) compares the engine with the reference after every step and
blames each deviation on one rule and field (dekal.conformance.judge._attribution).

Every distinct deviation (by rule and field) is reported once, with its smallest example:
the first game that shows it is shrunk with Hypothesis (dekal.conformance.fuzz._shrink). A
deviation blamed on a rule the user expects (--expect) does not stop the game: while the
full positions still agree (say only the public view differs, M3, or only the ranking, S3)
the game goes on with that comparison set aside; once the states have parted, an engine
that claims `position` is put back on the reference's position, any other's game is
abandoned and the next one starts. An unexpected deviation stops the run, unless asked to
keep going (it is then set aside like an expected one in the games that follow).

The same seed plays the same games and finds the same deviations; the smallest examples
are the same too as long as each shrink ends within its time budget (the report says
when one did not) and the example database holds nothing older (`--no-db`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import dekal_ref
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._engine_link import Engine
from dekal.conformance.drive._protocol import Message, position_fields
from dekal.conformance.fuzz._games import (
    PERFT_RATE,
    SEED_LIMIT,
    Chooser,
    lowest_reveals,
    next_action,
    perft_depth,
    seeded_chooser,
    seeded_deal_message,
    steered_setup,
)
from dekal.conformance.fuzz._lockstep import Deviation, DeviationKey, LockStep
from dekal.conformance.fuzz._records import game_record
from dekal.conformance.fuzz._shrink import Shrunk, database_folder, shrink

MAX_STEPS = 2000
UNSTEERED = 10  # games played as their seed says before the run steers toward the map
NO_THRESHOLD = 10**9  # a match threshold nobody reaches, while looking for a real total
DEFAULT_SHRINK_SECONDS = 10.0
SEED_STRIDE = 1_000_003  # game k of a run with seed s has seed s * SEED_STRIDE + k


@dataclass(frozen=True)
class Mask:
    """The deviations a game goes past: those blamed on an expected rule (--expect), and
    those already reported earlier in the run."""

    rules: frozenset[str] = frozenset()
    keys: frozenset[DeviationKey] = frozenset()

    def covers(self, deviation: Deviation) -> bool:
        return deviation.blame.rule in self.rules or deviation.key in self.keys


@dataclass
class FuzzGame:
    """A game as played: its set-up, the items sent (actions or new deals), the choices it
    was made of, and what the lock-step saw."""

    seed: int
    setup: Message
    items: list[Message] = field(default_factory=list)
    choices: list[int] = field(default_factory=list)
    deviations: list[Deviation] = field(default_factory=list)  # the first of each kind
    divergence: Deviation | None = None  # the deviation that stopped the game
    abandoned: bool = False  # stopped by a known deviation that parted the states
    resyncs: int = 0  # times the engine was put back on the reference's position
    steered: int | None = None  # the player count the run steered this game to (the map)

    @property
    def players(self) -> int:
        return int(self.setup["rules"]["players"])

    @property
    def length(self) -> int:
        return len(self.items)

    def first(self, key: DeviationKey) -> Deviation | None:
        return next((d for d in self.deviations if d.key == key), None)

    def cut(self, key: DeviationKey) -> FuzzGame:
        """The game up to and including the step of its first deviation `key`."""
        deviation = self.first(key)
        assert deviation is not None
        seen = self.deviations[: self.deviations.index(deviation) + 1]
        items = self.items[: deviation.step]
        return FuzzGame(
            self.seed, self.setup, items, self.choices, seen, deviation, steered=self.steered
        )

    def deals(self) -> list[Message]:
        """Every round's deal, round 1 first."""
        return [self.setup["deal"]] + [i["new_round"] for i in self.items if "new_round" in i]


def play_game(
    lock: LockStep,
    chooser: Chooser,
    mask: Mask = Mask(),
    seed: int = 0,
    stop_at: DeviationKey | None = None,
    fixed_deals: list[Message] | None = None,
    max_steps: int = MAX_STEPS,
    steered: int | None = None,
) -> FuzzGame:
    """Play one game in lock-step, every choice from `chooser`. The game stops at its end,
    at a deviation that `mask` does not cover (or that is `stop_at`), or when a covered one
    parts the states and the engine cannot be put back; after max_steps items.

    fixed_deals (engines that deal for themselves, with feature `position`): the deals to
    play instead of the engine's, round by round, so that a game replays the same way.
    max_steps bounds the items sent, not the reference's look-ahead for a threshold (S4):
    the choices a game is made of never depend on it. `steered`: the player count to play
    (the run steers toward the situations of the map it has not reached)."""
    setup, steering = steered_setup(chooser, lock.engine.info, steered)
    pre_played: list[Message] = []
    if steering.exact_round is not None:
        threshold, pre_played = reached_total(
            chooser, setup, steering.reveals, steering.exact_round
        )
        if threshold is not None:
            setup = {**setup, "rules": {**setup["rules"], "threshold": threshold}}
    game = FuzzGame(seed, setup, choices=chooser.choices, steered=steered)
    deals = iter(fixed_deals or [])

    def goes_on(deviations: Iterator[Deviation]) -> bool:
        for deviation in deviations:
            if game.first(deviation.key) is None:
                game.deviations.append(deviation)
            if deviation.key == stop_at or not mask.covers(deviation):
                game.divergence = deviation
                return False
            if deviation.parted:
                if lock.load_position():
                    game.resyncs += 1
                    return True
                game.abandoned = True
                return False
        return True

    start: Message = {"new_game": setup}
    going = goes_on(lock.observe(0, start, next(deals, None)))
    game.setup = start["new_game"]  # with the engine's own deal, if it deals
    planned = list(steering.reveals)
    if going and steering.lowest:
        planned = list(lowest_reveals(lock.position()))
    while going and len(game.items) < max_steps:
        position = lock.position()
        phase = position_fields(position)["phase"]
        if phase == "over":
            break
        legal = lock.legal()
        if "perft" in lock.claims:
            depth = perft_depth(position, legal)
            sampled = depth is not None and chooser.chance(PERFT_RATE)
            if sampled and not goes_on(lock.check_perft(len(game.items), depth or 1)):
                break
        if phase != "reveal":
            planned = []
        item: Message
        if pre_played:
            item = pre_played.pop(0)
        elif phase == "next":
            deal = None
            if not lock.own_deal:
                deal = seeded_deal_message(chooser.below(SEED_LIMIT), game.players)
            item = {"new_round": deal}
        else:
            item = {"action": next_action(chooser, legal, planned, game.players)}
        game.items.append(item)
        fixed = None
        if "new_round" in item and fixed_deals is not None:
            fixed = next(deals, None) or seeded_deal_message(len(game.items), game.players)
        going = goes_on(lock.observe(len(game.items), item, fixed))
    return game


def reached_total(
    chooser: Chooser,
    setup: Message,
    reveals: tuple[str, ...],
    exact_round: int,
) -> tuple[int | None, list[Message]]:
    """S4 steering: play the game's first rounds on the reference alone, in a match nobody
    wins, making the game's choices; the highest total after round `exact_round`, and the
    items played. With that threshold the match ends exactly there (≥, not >)."""
    reference = ProtocolAdapter(dekal_ref)

    def ref(cmd: str, **fields: object) -> Message:
        return reference.handle({"id": 0, "cmd": cmd, **fields})

    rules = {**setup["rules"], "threshold": NO_THRESHOLD}
    ref("new_game", **{**setup, "rules": rules})
    players = int(rules["players"])
    items: list[Message] = []
    planned = list(reveals)
    rounds = 0
    while len(items) < MAX_STEPS:
        phase = position_fields(str(ref("position")["position"]))["phase"]
        item: Message
        if phase == "next":
            rounds += 1
            if rounds == exact_round:
                total = max(ref("result")["totals"])
                return (total if total >= 1 else None), items
            item = {"new_round": seeded_deal_message(chooser.below(SEED_LIMIT), players)}
            ref("new_round", deal=item["new_round"])
        else:
            if phase != "reveal":
                planned = []
            legal = [str(a) for a in ref("legal")["actions"]]
            item = {"action": next_action(chooser, legal, planned, players)}
            ref("action", action=item["action"])
        items.append(item)
    return None, items


@dataclass
class Finding:
    """A distinct deviation: the game that showed it first, and its smallest example."""

    deviation: Deviation  # as first seen
    number: int  # the game of the run (from 1) that showed it first
    seed: int  # that game's seed
    shrunk: FuzzGame  # the smallest example, cut at the deviation
    known: bool  # blamed on a rule given to --expect
    shrink: Shrunk[FuzzGame] | None = None  # None: not shrunk (own deals cannot replay)

    @property
    def example(self) -> Deviation:
        assert self.shrunk.divergence is not None
        return self.shrunk.divergence

    def as_json(self) -> Message:
        example = self.example
        return {
            "rule": example.blame.rule,
            "field": example.blame.field,
            "known": self.known,
            "game": self.number,
            "seed": self.seed,
            "step": example.step,
            "players": self.shrunk.players,
            "sent": example.sent,
            "what": example.what,
            "expected": example.expected,
            "actual": example.actual,
            "record": game_record(self.shrunk),
            "shrink": None
            if self.shrink is None
            else {
                "attempts": self.shrink.attempts,
                "seconds": round(self.shrink.seconds, 2),
                "complete": self.shrink.complete,
            },
        }


@dataclass
class FuzzReport:
    games: int = 0
    steps: int = 0
    findings: list[Finding] = field(default_factory=list)
    abandoned: int = 0  # games given up after a known deviation parted the states
    resyncs: int = 0
    error: str = ""
    situations: set[tuple[str, object]] = field(default_factory=set)
    """The situations of the map (spec/situations.json) the games reached on the reference."""

    def map_coverage(self) -> tuple[int, int]:
        """(feasible combinations of the map the games reached, feasible combinations)."""
        from dekal.conformance.cases._situation_map import reached_combinations, situation_map

        feasible = situation_map().feasible_combinations()
        reached = reached_combinations(self.situations)  # type: ignore[arg-type]
        return len(feasible & reached), len(feasible)

    @property
    def unexpected(self) -> list[Finding]:
        return [f for f in self.findings if not f.known]

    @property
    def known(self) -> list[Finding]:
        return [f for f in self.findings if f.known]

    def as_json(self) -> Message:
        first = self.unexpected[0] if self.unexpected else None
        return {
            "games": self.games,
            "steps": self.steps,
            "divergences": len(self.unexpected),
            "known": len(self.known),
            "abandoned": self.abandoned,
            "resyncs": self.resyncs,
            "error": self.error or None,
            "deviations": [finding.as_json() for finding in self.findings],
            "map": dict(zip(("reached", "of"), self.map_coverage(), strict=True))
            if self.situations
            else None,  # no game reached the reference (an engine unusable from the start)
            "divergence": None
            if first is None
            else {
                "seed": first.seed,
                "steps": first.shrunk.length,
                "players": first.shrunk.players,
                "at": first.example.sent,
                "what": first.example.what,
                "expected": first.example.expected,
                "actual": first.example.actual,
                "record": game_record(first.shrunk),
            },
        }


def fuzz(
    engine: Engine,
    games: int,
    seed: int,
    timeout: float = 10.0,
    advance: Callable[[], None] | None = None,
    *,
    expect: frozenset[str] = frozenset(),
    keep_going: bool = False,
    shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
    database: Path | None = None,
    status: Callable[[str], None] | None = None,
) -> FuzzReport:
    """Play `games` seeded random games in lock-step; report every distinct deviation once,
    shrunk. Stops after the game that shows the first unexpected one, unless keep_going.
    `database`: Hypothesis's example database directory (None: kept in memory only)."""
    lock = LockStep(engine, timeout)
    report = FuzzReport()
    mask = Mask(expect)
    for number in range(1, games + 1):
        game_seed = seed * SEED_STRIDE + number - 1
        steps_before = lock.steps
        # the first games are the seed's own (short runs find what they always found); from
        # then on every other game is steered to the player count the map has least of
        steered = number > UNSTEERED and number % 2 == 1
        steer = least_reached_players(report.situations, lock.engine.info) if steered else None
        game = play_game(lock, seeded_chooser(game_seed), mask, game_seed, steered=steer)
        report.situations |= game_situations(game)
        report.steps += lock.steps - steps_before  # the games' steps, not the shrinks'
        report.games += 1
        report.abandoned += game.abandoned
        report.resyncs += game.resyncs
        earlier = mask
        for deviation in game.deviations:
            if deviation.key in mask.keys:
                continue
            if status is not None:
                status(f"shrinking {deviation.blame}")
            shrunk, how = _smallest(lock, game, deviation.key, earlier, shrink_seconds, database)
            known = deviation.blame.rule in expect
            report.findings.append(Finding(deviation, number, game_seed, shrunk, known, how))
            mask = Mask(mask.rules, mask.keys | {deviation.key})
        if advance is not None:
            advance()
        if report.unexpected and not keep_going:
            break
    return report


def game_situations(game: FuzzGame) -> set[tuple[str, object]]:
    """The situations of the map a game reaches, as the reference plays its set-up and items
    (dekal.conformance.judge._situations)."""
    from dekal.conformance.judge._situations import SituationTracer

    tracer = SituationTracer()
    if not tracer.request({"cmd": "new_game", **game.setup}, 0).get("ok"):
        return set()
    for item in game.items:
        if "action" in item:
            tracer.request({"cmd": "action", "action": item["action"]}, 0)
        elif item.get("new_round") is not None:
            tracer.request({"cmd": "new_round", "deal": item["new_round"]}, 0)
    return set(tracer.situations)


def least_reached_players(situations: set[tuple[str, object]], info: Message) -> int | None:
    """The claimed player count with the fewest reached combinations of the map among those
    it is part of (past its first games, the fuzzer steers every other game there); None if
    it claims none."""
    from dekal.conformance.cases._situation_map import reached_combinations, situation_map

    claimed = [p for p in info.get("players", []) if isinstance(p, int) and 2 <= p <= 6]
    if not claimed:
        return None
    feasible = situation_map().feasible_combinations()
    reached = feasible & reached_combinations(situations)  # type: ignore[arg-type]

    def share(players: int) -> float:
        mine = [c for c in feasible if ("seats", str(players)) in c[1]]
        done = sum(1 for c in mine if c in reached)
        return done / len(mine) if mine else 1.0

    return min(sorted(claimed), key=share)


def _smallest(
    lock: LockStep,
    game: FuzzGame,
    key: DeviationKey,
    mask: Mask,
    seconds: float,
    database: Path | None,
) -> tuple[FuzzGame, Shrunk[FuzzGame] | None]:
    """The smallest game that shows deviation `key` (the others of `mask` set aside)."""
    fixed: list[Message] | None = None
    if lock.own_deal:
        if "position" not in lock.claims:
            return game.cut(key), None  # its deals were the engine's: it cannot replay
        fixed = game.deals()

    def play(chooser: Chooser, limit: int) -> FuzzGame:
        return play_game(
            lock, chooser, mask, game.seed, key, fixed, max_steps=limit, steered=game.steered
        )

    shrunk = shrink(
        play,
        game.cut(key),
        key,
        seconds=seconds,
        database=None if database is None else database / database_folder(lock.engine.label, key),
        seed=game.seed,
    )
    return shrunk.game.cut(key), shrunk
