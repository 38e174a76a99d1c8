"""Bots: players that decide from a public view alone, and the spec strings that make them.

A bot is anything with a `name` and `act(obs, seat, draws)`: given the seat's Observation
(dekal.bots.observation, the public view: nothing hidden) and the seat's own Draws stream
(dekal.draws), it returns one of `legal_actions(obs, seat)`. Since it never receives a full
position, what it decides cannot depend on a face-down value, the pile's order or a secret
pick (M3, T1); tests/bots/test_bots.py checks that anyway by swapping hidden cards.

A spec string names a bot and its options: `random`, `greedy`, `pimc`, `pimc:samples=40`,
`ismcts:iterations=400,c=0.1`. `make_bot(spec)` reads one; an unknown name or option is a
NotationError naming the field "bot". `cmd:COMMAND` is a bot that is a program, spoken to over
the bot protocol (spec/bot-protocol.md; dekal.bots._protocol.process_bot): `cmd:./mybot`,
`cmd:python -m dekal.bots.serve pimc:samples=200`. Its process starts at its first decision
and is ended by its `close()` (and at exit, by whoever forgot).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

from dekal.bots._players.greedy import GreedyBot
from dekal.bots._players.ismcts import IsmctsBot
from dekal.bots._players.pimc import PimcBot
from dekal.bots._players.random_bot import RandomBot
from dekal.bots._protocol.spec_string import spec_of as spec_of
from dekal.bots.observation import Observation
from dekal.draws import Draws
from dekal_ref.actions import Action
from dekal_ref.errors import NotationError
from dekal_ref.reading import shown


class Bot(Protocol):
    """A player of one seat: `act` returns one of legal_actions(obs, seat)."""

    @property
    def name(self) -> str: ...

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action: ...


KINDS: dict[str, type[Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "pimc": PimcBot,
    "ismcts": IsmctsBot,
}
"""Every bot class by name."""


COMMAND_PREFIX = "cmd"
"""`cmd:COMMAND`: a bot that is a program (spec/bot-protocol.md)."""

BOT_NAMES = ("random", "greedy", "pimc", "ismcts")
"""Every bot `make_bot` knows, weakest first."""


def _option_value(kind: str, field: dataclasses.Field[Any], text: str) -> object:
    expected = field.type if isinstance(field.type, str) else field.type.__name__
    try:
        if expected == "int":
            value: object = int(text)
        elif expected == "float":
            value = float(text)
        else:
            value = text
    except ValueError:
        raise NotationError(
            "bot", f"{kind}: option {field.name} takes a number ({expected}), not {shown(text)}"
        ) from None
    if isinstance(value, int | float) and not 0 <= value < 10**7:
        raise NotationError("bot", f"{kind}: option {field.name}={text} is out of range")
    return value


def make_bot(spec: str) -> Bot:
    """The bot a spec string names: `kind`, `kind:option=value,option=value`, or
    `cmd:COMMAND` (a program speaking spec/bot-protocol.md)."""
    kind, _, options_text = spec.strip().partition(":")
    if kind == COMMAND_PREFIX:
        from dekal.bots._protocol.process_bot import ProcessBot

        return ProcessBot(options_text.strip())
    kinds = KINDS
    if kind not in kinds:
        raise NotationError("bot", f"{shown(kind)} is not a bot: {', '.join(BOT_NAMES)}")
    cls = kinds[kind]
    fields = {field.name: field for field in dataclasses.fields(cls)}
    options: dict[str, object] = {}
    for item in filter(None, options_text.split(",")):
        name, equals, text = item.partition("=")
        if not equals or name not in fields:
            known = ", ".join(fields) or "none"
            raise NotationError(
                "bot",
                f"{kind}: {shown(item)} is not an option (write name=value; options: {known})",
            )
        options[name] = _option_value(kind, fields[name], text)
    bot: Bot = cls(**options)
    return bot
