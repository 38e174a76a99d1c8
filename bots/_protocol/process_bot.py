"""A bot that is a program: `cmd:./mybot` plays a seat over the bot protocol
(spec/bot-protocol.md), behind the same `act` as our in-process bots.

Each seat the bot plays at once gets its own process (a game over, the process plays the
next game at whichever seat), started at the seat's first decision with the engine driver's
transport (dekal.conformance.drive._subprocess_engine: its own session and process
group, non-blocking pipes read with a deadline, the last 8 KiB of stderr kept, the group
ended and the process reaped on close). A new game is told when the seat's Draws stream is
a new one (the table loop makes one per game): its seed is the stream's state, so a bot
that draws from it plays the same game as the same bot in-process (dekal.bots.serve).

Whatever goes wrong at a decision is a BotForfeit naming the seat and the kind of forfeit
(spec/bot-protocol.md, "Forfeits"); the seat's process is ended then, and the seat's next
decision starts a new one.
"""

from __future__ import annotations

import atexit
import contextlib
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dekal.bots._protocol.bot_protocol import (
    BOT_PROTOCOL_VERSION,
    CONTROL_SECONDS,
    MAX_REPLY_BYTES,
    STARTUP_SECONDS,
    THINK_MS,
    new_game_request,
    read_info,
    think_request,
)
from dekal.bots.observation import Observation, format_public_view, legal_actions
from dekal.conformance.drive._engine_link import EngineError, EngineUnusable
from dekal.conformance.drive._process_group import exit_status
from dekal.conformance.drive._protocol import Message
from dekal.conformance.drive._subprocess_engine import SubprocessEngine
from dekal.draws import Draws
from dekal_ref.actions import Action, parse_action
from dekal_ref.errors import NotationError
from dekal_ref.reading import shown
from dekal_ref.state import Rules


class BotForfeit(Exception):
    """A seat's bot lost its game at a decision: `kind` is one of _bot_protocol.FORFEITS."""

    def __init__(self, seat: int, bot: str, kind: str, message: str) -> None:
        super().__init__(f"seat {seat} ({bot}) forfeits ({kind}): {message}")
        self.seat = seat
        self.bot = bot
        self.kind = kind
        self.message = message


class BotUnusable(Exception):
    """A bot program that cannot be started, fails `hello`, speaks another protocol version,
    or refuses a game its `hello` claimed (exit code 3)."""


class BotProcess(SubprocessEngine):
    """One bot program over the engine driver's transport, greeted with the bot's `hello`."""

    max_reply_bytes = MAX_REPLY_BYTES

    def greet(self) -> Message:
        try:
            reply = self.request(
                {"cmd": "hello", "protocol": BOT_PROTOCOL_VERSION}, STARTUP_SECONDS
            )
        except EngineError as error:
            raise EngineUnusable(f"no answer to hello: {error}") from None
        if not reply["ok"]:
            raise EngineUnusable(f"hello refused: {reply.get('error')}")
        if reply.get("protocol") != BOT_PROTOCOL_VERSION:
            raise EngineUnusable(
                f"the bot speaks protocol {shown(str(reply.get('protocol')))};"
                f" this table speaks {BOT_PROTOCOL_VERSION}"
            )
        return {key: value for key, value in reply.items() if key not in ("id", "ok")}


def claims(info: Message, rules: Rules) -> bool:
    """Does a bot's hello claim these rules? Missing lists claim everything the rules allow."""
    variants = info.get("variants") if isinstance(info.get("variants"), dict) else {}
    features = info.get("features") if isinstance(info.get("features"), list) else []
    players = info.get("players", [2, 3, 4, 5, 6])
    pushes = variants.get("push", ["slide", "eject"])  # type: ignore[union-attr]
    firsts = variants.get("first", ["lowest", "chosen"])  # type: ignore[union-attr]
    match_ok = rules.threshold is None or "match" in features  # type: ignore[operator]
    return (
        isinstance(players, list)
        and rules.players in players
        and isinstance(pushes, list)
        and rules.push in pushes
        and isinstance(firsts, list)
        and rules.first in firsts
        and match_ok
    )


@dataclass(eq=False)
class _Link:
    """One process of the bot, and the game (its seat's Draws stream) it is playing."""

    process: BotProcess
    draws: Draws | None = None
    rules: Rules | None = None


_OPEN: weakref.WeakSet[ProcessBot] = weakref.WeakSet()
"""Every ProcessBot that may hold a process: closed at exit, whoever forgot to."""


@atexit.register
def _close_all() -> None:
    for bot in list(_OPEN):
        bot.close()


@dataclass(eq=False)
class ProcessBot:
    """`cmd:COMMAND`: a bot program, one process per seat it plays (module docstring)."""

    command: str
    think_ms: int = THINK_MS
    budget_samples: int | None = None
    """`budget.samples` sent with every `think` (None: none sent)."""
    links: list[_Link] = field(default_factory=list, repr=False)
    """Every process of the bot: one per seat it plays at once."""
    seats: dict[int, _Link] = field(default_factory=dict, repr=False)
    """The process playing each seat of the current game(s)."""
    info: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)
    """Each seat's last `info` (spec/bot-protocol.md, `think`): what the bot said it saw."""
    started: Callable[[BotProcess], None] | None = field(default=None, repr=False)
    """Told of each process as it starts (a Dask worker guards it: dekal.simulation._reaper)."""

    def __post_init__(self) -> None:
        if not self.command.strip():
            raise NotationError("bot", "cmd: names a command to run (cmd:./mybot)")
        _OPEN.add(self)

    @property
    def name(self) -> str:
        return f"cmd:{self.command}"

    def __enter__(self) -> ProcessBot:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def hello(self, seat: int = 0) -> Message:
        """The `hello` reply of the process playing `seat` (one is started if none is)."""
        return self._link(seat).process.info

    def _link(self, seat: int) -> _Link:
        """The process playing `seat`: the one that played it last, else an idle one (its
        game over), else a new one."""
        if seat not in self.seats:
            busy = {id(link) for link in self.seats.values()}
            idle = [link for link in self.links if id(link) not in busy]
            if idle:
                self.seats[seat] = idle[0]
            else:
                try:
                    process = BotProcess(self.command, CONTROL_SECONDS)
                except EngineUnusable as error:
                    raise BotUnusable(f"bot {self.name}: {error}") from None
                self.links.append(_Link(process))
                self.seats[seat] = self.links[-1]
                if self.started is not None:
                    self.started(process)
        return self.seats[seat]

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        link = self._link(seat)
        if link.draws is not draws or link.rules != obs.rules:
            self._new_game(link, obs.rules, seat, draws)
        budget: Message = {"ms": self.think_ms}
        if self.budget_samples is not None:
            budget["samples"] = self.budget_samples
        reply = self._ask(seat, think_request(obs, seat, budget), self.think_ms / 1000)
        if not reply["ok"]:
            self._forfeit(seat, "refused", f"it refused to think: {reply.get('error')}")
        text = reply.get("action")
        legal = legal_actions(obs, seat)
        try:
            action = parse_action(text) if isinstance(text, str) else None
        except NotationError:
            action = None
        if action not in legal:
            self._forfeit(
                seat,
                "illegal",
                f"it played {shown(str(text))}, not one of {', '.join(map(str, legal))}",
            )
        self.info[seat] = read_info(reply.get("info"))
        assert action is not None
        return action

    def _new_game(self, link: _Link, rules: Rules, seat: int, draws: Draws) -> None:
        if not claims(link.process.info, rules):
            self.close_seat(seat)
            raise BotUnusable(f"bot {self.name} does not claim these rules in its hello")
        reply = self._ask(
            seat, new_game_request(rules, seat, draws.generator.state), CONTROL_SECONDS
        )
        if not reply["ok"]:
            self.close_seat(seat)
            raise BotUnusable(f"bot {self.name} refused new_game: {reply.get('error')}")
        link.draws, link.rules = draws, rules

    def game_over(self, final: Observation, places: list[int]) -> None:
        """Tell every seat this bot played that the game is over (spec/bot-protocol.md,
        `game_over`): its final view and the places. A bot that does not answer in time
        is ended (its next game starts a new process). Every process is idle after it."""
        for seat, link in list(self.seats.items()):
            if link.draws is None:
                continue
            message = {"cmd": "game_over", "view": format_public_view(final), "places": places}
            with contextlib.suppress(BotForfeit):  # _ask closed it: the game is scored
                self._ask(seat, message, CONTROL_SECONDS)
            link.draws = None
        self.seats.clear()

    def _ask(self, seat: int, message: Message, seconds: float) -> Message:
        """The reply to one request, or a BotForfeit saying why there is none."""
        process = self._link(seat).process
        start = time.monotonic()
        try:
            return process.request(message, seconds)
        except EngineError as error:
            running = process.process
            if running is not None and exit_status(running) is not None:
                kind = "crash"
            elif time.monotonic() - start >= seconds:
                kind = "time"
            else:
                kind = "garbage"
            said = process.diagnostics().splitlines()[-1:]
            detail = f"{error}" + (f"; its stderr ends: {said[0]}" if said else "")
            self._forfeit(seat, kind, detail)
        raise AssertionError("unreachable")

    def _forfeit(self, seat: int, kind: str, message: str) -> None:
        self.close_seat(seat)
        raise BotForfeit(seat, self.name, kind, message)

    def close_seat(self, seat: int) -> None:
        """End the process playing `seat` (its whole group) and forget it."""
        link = self.seats.pop(seat, None)
        if link is not None:
            self.links.remove(link)
            link.process.close()

    def close(self) -> None:
        """End every process of the bot (each one's whole group)."""
        self.seats.clear()
        links, self.links = self.links, []
        for link in links:
            link.process.close()
