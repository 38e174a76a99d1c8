"""One of our bots over the bot protocol, on standard input and output (spec/bot-protocol.md).

    python -m dekal.bots.serve pimc:samples=200      # any spec make_bot reads
    python -m dekal.bots.serve greedy

It answers `hello`, `new_game`, `think`, `game_over` and `quit`, one JSON reply per request
line. It decides from the public view it is sent (read with read_public_view, M3, T1), with
the Draws stream seeded by `new_game`'s seed, so the same seeded game gives the same actions
as the bot played in-process by dekal.bots.table (tests/bots/test_bot_pipes.py). Whatever
it is sent, it answers every line with one well-formed reply (the line reading of
dekal.conformance.serve: bounded, not UTF-8, not JSON, too deep: `bad_request`, id null).
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
import sys
import traceback
from collections.abc import Callable
from typing import TextIO

from dekal.bots._players.pimc import PimcBot
from dekal.bots._protocol.bot_protocol import (
    BOT_PROTOCOL_VERSION,
    MAX_REQUEST_CHARS,
    BadRequest,
    read_rules,
    read_seat,
    read_seed,
)
from dekal.bots.bot import Bot, make_bot
from dekal.bots.observation import legal_actions, read_public_view
from dekal.conformance.drive._adapter import request_id
from dekal.conformance.drive._protocol import Message, refusal
from dekal.conformance.drive._serve import refused, reply_line, request_lines
from dekal.draws import Draws
from dekal_ref.actions import Action
from dekal_ref.errors import DekalError, NotationError
from dekal_ref.json_reading import read_json
from dekal_ref.reading import describe_json
from dekal_ref.state import Rules

BUDGET_OPTIONS = ("samples", "iterations")
"""The search size a `think` budget's `samples` sets, for a bot that has one (pimc, ismcts)."""


@dataclasses.dataclass
class _Game:
    rules: Rules
    seat: int
    draws: Draws


class BotServer:
    """Answers bot-protocol requests for one bot; keeps the current game (rules, seat, draws)."""

    def __init__(self, spec: str) -> None:
        self.bot: Bot = make_bot(spec)
        self.game: _Game | None = None

    def hello(self, request: Message) -> Message:
        from importlib.metadata import PackageNotFoundError, version

        try:
            release = version("dekal")
        except PackageNotFoundError:
            release = "0"
        features = ["match", "info"]
        if any(hasattr(self.bot, option) for option in BUDGET_OPTIONS):
            features.insert(1, "samples")
        return {
            "name": f"dekal-{self.bot.name}",
            "version": release,
            "protocol": BOT_PROTOCOL_VERSION,
            "players": [2, 3, 4, 5, 6],
            "variants": {"push": ["slide", "eject"], "first": ["lowest", "chosen"]},
            "features": features,
        }

    def new_game(self, request: Message) -> Message:
        rules = read_rules(request.get("rules"))
        self.game = _Game(
            rules, read_seat(request.get("seat"), rules), Draws(read_seed(request.get("seed")))
        )
        return {}

    def think(self, request: Message) -> Message:
        game = self.game
        if game is None:
            raise BadRequest("cmd", "no game: send new_game first")
        view = request.get("view")
        if not isinstance(view, str):
            raise BadRequest("view", f"view must be a public view line, not {describe_json(view)}")
        obs = read_public_view(view)  # NotationError, IllegalAction: refused by the caller
        if obs.rules != game.rules:
            raise BadRequest("view", "the view's rules are not the game's (new_game)")
        legal = legal_actions(obs, game.seat)
        if not legal:
            raise BadRequest("view", f"seat {game.seat} has nothing to decide in this view")
        bot = self._budgeted(request.get("budget"))
        action, info = decide(bot, obs, game.seat, game.draws, len(legal))
        return {"action": str(action), "info": info} if info else {"action": str(action)}

    def _budgeted(self, budget: object) -> Bot:
        """The bot with its search size set by the budget's `samples`, if it has one."""
        if budget is None:
            return self.bot
        if not isinstance(budget, dict):
            raise BadRequest("budget", f"budget must be an object, not {describe_json(budget)}")
        samples = budget.get("samples")
        if samples is None:
            return self.bot
        if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 10**5:
            raise BadRequest("budget.samples", "budget.samples is a whole number 1 to 100000")
        for option in BUDGET_OPTIONS:
            if hasattr(self.bot, option):
                changed: Bot = dataclasses.replace(self.bot, **{option: samples})  # type: ignore[type-var]
                return changed
        return self.bot

    def handle(self, request: Message) -> Message:
        """The reply to one request (a JSON object): never an exception for bad input."""
        reply: Message = {"id": request_id(request)}
        command = request.get("cmd")
        handlers: dict[str, Callable[[Message], Message]] = {
            "hello": self.hello,
            "new_game": self.new_game,
            "think": self.think,
            "game_over": _nothing,
            "quit": _nothing,
        }
        try:
            if "id" in request and reply["id"] is None:
                raise BadRequest("id", "id must be an integer")
            if not isinstance(command, str) or command not in handlers:
                raise BadRequest("cmd", f"unknown command: {describe_json(command)}")
            reply.update(ok=True, **handlers[command](request))
        except BadRequest as error:
            reply.update(ok=False, error=refusal("bad_request", error.message, field=error.field))
        except NotationError as error:
            reply.update(ok=False, error=refusal("notation", error.message, field=error.field))
        except DekalError as error:  # a view no deal can show: the rule it breaks
            message = str(error)
            reply.update(ok=False, error=refusal("bad_request", message, field="view"))
        return reply


def _nothing(request: Message) -> Message:
    """`game_over` and `quit`: acknowledged, nothing to do (quit ends the loop in serve)."""
    return {}


def decide(bot: Bot, obs: object, seat: int, draws: Draws, choices: int) -> tuple[Action, Message]:
    """The bot's action and what it can say about it: pimc says the worlds it sampled and the
    best mean utility (the same draws as `act`, so the same action)."""
    if isinstance(bot, PimcBot) and choices > 1:
        evaluated = bot.evaluate(obs, seat, draws)  # type: ignore[arg-type]
        values = [value for _, value in evaluated]
        best = values.index(max(values))  # the first best, as PimcBot.act plays it
        return evaluated[best][0], {"worlds": bot.samples, "value": round(values[best], 6)}
    return bot.act(obs, seat, draws), {}  # type: ignore[arg-type]


def reply_to(server: BotServer, line: str | None) -> tuple[Message, bool]:
    """The one reply to one input line, and whether it was `quit`; never an exception."""
    if line is None:
        return refused(f"a request line is at most {MAX_REQUEST_CHARS} characters"), False
    try:
        line.encode("utf-8")
        request = read_json(line, "request", max_chars=MAX_REQUEST_CHARS + 1)
    except UnicodeEncodeError:
        return refused("the line is not UTF-8 text"), False
    except NotationError as error:
        return refused(error.message), False
    if not isinstance(request, dict):
        return refused(f"a request is a JSON object, not {describe_json(request)}"), False
    try:
        reply = server.handle(request)
    except Exception as error:  # a bug in the bot: say so, log it, keep serving
        traceback.print_exc(file=sys.stderr)
        reply = refused(f"the bot failed on this request ({type(error).__name__})")
        reply["id"] = request_id(request)
    return reply, reply.get("ok") is True and request.get("cmd") == "quit"


def serve(server: BotServer, source: TextIO, sink: TextIO) -> None:
    """Answer requests until `quit`, the end of input, or a reader that went away; a line of
    only white space gets no reply."""
    for line in request_lines(source, MAX_REQUEST_CHARS):
        if line is not None and not line.strip():
            continue
        reply, quit = reply_to(server, line)
        try:
            sink.write(reply_line(reply))
            sink.flush()
        except BrokenPipeError:
            return
        if quit:
            return


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("bot", help="the bot's spec: random, greedy, pimc:samples=200, ...")
    args = parser.parse_args(argv)
    if args.bot.startswith("cmd:"):
        parser.error("serve one of our bots (random, greedy, pimc, ismcts), not a command")
    try:
        server = BotServer(args.bot)
    except NotationError as error:
        parser.error(error.message)
    if isinstance(sys.stdin, io.TextIOWrapper):  # undecodable bytes: a refusal, not a crash
        sys.stdin.reconfigure(errors="surrogateescape")
    serve(server, sys.stdin, sys.stdout)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    main()
