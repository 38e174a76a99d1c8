"""`dekal bots check`: does a bot keep the bot protocol's promises (spec/bot-protocol.md)?

Four checks, each a list of findings (empty: passed):

* **legal and in time** — seeded games at every player count the bot claims (2–6), the bot
  at each seat in turn against greedy bots: every answer one of its legal actions, within
  the budget (B1; a forfeit of any kind is a finding, with its kind);
* **deterministic** — the first game of each player count played again from the same seeds
  (a new process for a program): the same actions;
* **blind to hidden cards** — at decisions of those games, the bot asked again with the same
  view and the same seed while the table holds another world of that view (the face-down
  cards, the pile and the hidden picks drawn again, dekal.bots.sampler): the same action, or
  the bot decided from something its seat cannot see (M3, T1). The table calls the bot with
  that world in hand, as the table loop does: a bot that reads past its observation (an
  in-process bot walking up the call stack, a program reading the table's memory) sees the
  swapped cards. Only asked of a bot found deterministic: one that answers the same
  question two ways would look like a peek;
* **refuses bad input** (programs only) — `think` before `new_game` and an unknown command:
  each answered with `"ok": false` and the same id, and the program still answering
  `hello` afterwards.

A program that cannot be started or greeted is BotUnusable (exit code 3).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dekal import fast
from dekal.bots._protocol.process_bot import BotForfeit, ProcessBot, claims
from dekal.bots.bot import Bot, make_bot
from dekal.bots.observation import Observation, legal_actions, observation_of
from dekal.bots.sampler import sample_fast
from dekal.bots.table import play_game, seat_to_act
from dekal.conformance.drive._engine_link import EngineError
from dekal.draws import Draws, game_seed, seat_seed
from dekal.simulate import deal_stream
from dekal.state import FastState
from dekal_ref.actions import Action
from dekal_ref.state import Phase, Rules

PLAYER_COUNTS = (2, 3, 4, 5, 6)
SWAPS_PER_GAME = 3
"""Decisions of each checked game asked again in another world of the same view."""


@dataclass
class Check:
    """One check's name and its findings (none: passed)."""

    name: str
    findings: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.findings


@dataclass
class CheckReport:
    """Every check of one bot, and what was played."""

    bot: str
    hello: dict[str, object]
    checks: list[Check]
    games: int = 0
    decisions: int = 0
    think_ms: list[float] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)


class _Timed:
    """A bot whose decisions are counted and timed (wall clock, milliseconds)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot, self.times = bot, times
        self.name = bot.name

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        start = time.perf_counter()
        action = self.bot.act(obs, seat, draws)
        self.times.append(1000 * (time.perf_counter() - start))
        return action

    def game_over(self, final: Observation, places: list[int]) -> None:
        listener = getattr(self.bot, "game_over", None)
        if listener is not None:
            listener(final, places)


def ask_in_world(bot: Bot, state: FastState, seat: int, seed: int) -> Action:
    """The bot's action at `state` for `seat`, with a fresh stream Draws(seed), called with
    the full position in hand (`state`, a local here as in the table loop)."""
    return bot.act(observation_of(state), seat, Draws(seed))


def _decisions(rules: Rules, seed: int, actions: tuple[Action, ...]) -> list[FastState]:
    """The positions of a played single-round game before each action (round 1)."""
    state = fast.new_game(rules, next(deal_stream(seed, rules.players)), None)
    states = []
    for action in actions:
        if state.phase is Phase.NEXT_ROUND:
            break
        states.append(state)
        state = fast.apply(state, action)
    return states


def check_bot(
    make: Callable[[], Bot],
    games: int = 10,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    players: Sequence[int] = PLAYER_COUNTS,
) -> CheckReport:
    """Run the four checks (module docstring) on bots from `make` (a fresh one when a check
    needs a fresh process), `games` games at each of the `players` counts it claims."""
    bot = make()
    hello: dict[str, object] = {}
    if isinstance(bot, ProcessBot):
        hello = dict(bot.hello(0))
    counts = [n for n in players if not hello or claims(hello, Rules(players=n))]
    legal, same, blind = Check("legal and in time"), Check("deterministic"), Check("blind")
    report = CheckReport(bot.name, hello, [legal, same, blind])
    greedy = make_bot("greedy")
    total, done = len(counts) * games, 0
    try:
        for count in counts:
            rules = Rules(players=count)
            for game in range(games):
                game_seed_ = game_seed(seed, count * 1_000_000 + game)
                at = game % count
                seats: list[Bot] = [greedy] * count
                seats[at] = _Timed(bot, report.think_ms)
                try:
                    played = play_game(rules, seats, game_seed_, recorded=False)
                except BotForfeit as forfeit:
                    legal.findings.append(f"{count} players, game {game}: {forfeit}")
                    continue
                finally:
                    report.games += 1
                    done += 1
                    if progress is not None:
                        progress(done, total)
                if game == 0:
                    _check_determinism(make, rules, seats, at, game_seed_, played.actions, same)
                if same.passed:  # a bot that answers one question two ways cannot show a peek
                    _check_blind(bot, rules, at, game_seed_, played.actions, blind)
        report.decisions = len(report.think_ms)
        if isinstance(bot, ProcessBot):
            refusals = Check("refuses bad input")
            report.checks.append(refusals)
            _check_refusals(bot, refusals)
    finally:
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    return report


def _check_determinism(
    make: Callable[[], Bot],
    rules: Rules,
    seats: list[Bot],
    at: int,
    seed: int,
    actions: tuple[Action, ...],
    check: Check,
) -> None:
    again = make()
    try:
        replay = list(seats)
        replay[at] = again
        try:
            second = play_game(rules, replay, seed, recorded=False).actions
        except BotForfeit as forfeit:
            check.findings.append(f"{rules.players} players: the replay forfeited: {forfeit}")
            return
    finally:
        close = getattr(again, "close", None)
        if close is not None:
            close()
    if second != actions:
        first = next(i for i, (a, b) in enumerate(zip(actions, second, strict=False)) if a != b)
        check.findings.append(
            f"{rules.players} players, seed {seed}: action {first + 1} was {actions[first]},"
            f" then {second[first]} from the same seeds"
        )


def _check_blind(
    bot: Bot, rules: Rules, at: int, seed: int, actions: tuple[Action, ...], check: Check
) -> None:
    """Ask the bot at a few of its decisions in the real world and in another world of the
    same view, with the same seed: the two answers must agree."""
    mine = [s for s in _decisions(rules, seed, actions) if seat_to_act(s) == at]
    chosen = [s for s in mine if len(legal_actions(observation_of(s), at)) > 1]
    step = max(1, len(chosen) // SWAPS_PER_GAME)
    for k, state in enumerate(chosen[::step][:SWAPS_PER_GAME]):
        obs = observation_of(state)
        other = sample_fast(obs, Draws(seed + k))
        if other.grids == state.grids and other.pile == state.pile:
            continue  # nothing hidden left to change
        ask = seat_seed(seed, 100 + k)
        try:
            real = ask_in_world(bot, state, at, ask)
            again = ask_in_world(bot, state, at, ask)
            swapped = ask_in_world(bot, other, at, ask)
        except BotForfeit as forfeit:
            check.findings.append(f"{rules.players} players: {forfeit}")
            return
        if real != again:
            continue  # it does not answer the same question alike: the determinism check's
        if real != swapped:
            check.findings.append(
                f"{rules.players} players, view {obs}: {real} with the hidden cards as dealt,"
                f" {swapped} with them swapped (same view, same seed): it sees hidden cards"
            )


BAD_REQUESTS: tuple[tuple[dict[str, Any], str], ...] = (
    ({"cmd": "think", "view": "-", "legal": ["reveal 0 a1"], "budget": {"ms": 1000}},
     "think before new_game"),
    ({"cmd": "dance"}, "an unknown command"),
)  # fmt: skip
"""What every bot must refuse (spec/bot-protocol.md, "Replies that refuse"). A view that
does not parse is not among them: a bot may play from `legal` alone and never read it."""


def _check_refusals(bot: ProcessBot, check: Check) -> None:
    """A fresh process: the BAD_REQUESTS, then hello again (still answering)."""
    bot.close()
    process = bot._link(0).process
    asked = [*BAD_REQUESTS, ({"cmd": "hello", "protocol": 1}, "hello after the refusals")]
    for message, what in asked:
        try:
            reply = process.request(message, 10.0)
        except EngineError as error:
            check.findings.append(f"{what}: no well-formed reply ({error})")
            return
        wanted = what.startswith("hello")
        if reply["ok"] is not wanted:
            check.findings.append(f"{what}: answered ok={reply['ok']}, expected {wanted}")


def think_ms_summary(report: CheckReport) -> tuple[float, float]:
    """(median, largest) milliseconds a decision took, as the table measured them."""
    times = report.think_ms or [0.0]
    return statistics.median(times), max(times)
