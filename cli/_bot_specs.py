"""Bot specs given on the command line (`dekal advise --bot`, `dekal play --bots`): what
dekal.bots.bot.make_bot reads, within the bounds docs/guide.md lists.

make_bot reads an option's number with Python's int() and float(), which also take other
scripts' digits (`samples=٣`), underscores (`1_0`) and spaces; and it lets a search run as
long as 10^7 samples make it (hours for one decision). On the command line a number is
written in the digits 0-9 only, like every number of the notation, and a search has a
size that answers within seconds a decision.
"""

from __future__ import annotations

import re

from dekal.bots.bot import COMMAND_PREFIX, Bot, make_bot
from dekal_ref.errors import NotationError
from dekal_ref.reading import shown

SEARCH_LIMITS = {"samples": 10_000, "iterations": 100_000, "batch": 100_000}
"""The largest search a bot may run per decision: pimc's samples (each one a playout per
legal action), ismcts's iterations and their batch; about ten seconds a decision on one core."""

_OPTION_VALUE = re.compile(r"[A-Za-z0-9.+-]*")
"""An option's value as text: ASCII letters (random, margin), digits 0-9, a decimal point,
an exponent's sign (c=1e-3)."""


def checked_command(command: str) -> str:
    """A `cmd:` bot's command line: words a shell would split (shlex), none empty, or
    NotationError (field "bot"). Nothing is run here: the program starts at its first move."""
    import shlex

    try:
        words = shlex.split(command)
    except ValueError as error:
        raise NotationError("bot", f"cmd:{shown(command)}: {error}") from None
    if not words:
        raise NotationError("bot", "cmd: names a program to run (cmd:./mybot)")
    return command


def checked_bot(spec: str) -> Bot:
    """The bot a spec names, or NotationError (field "bot") for a value that is not written
    in ASCII digits and letters, or a search larger than SEARCH_LIMITS. `cmd:COMMAND` is a
    program (spec/bot-protocol.md): only its command line is checked."""
    kind, _, options = spec.strip().partition(":")
    if kind == COMMAND_PREFIX:
        checked_command(options)
        return make_bot(spec)
    for item in filter(None, options.split(",")):
        _, _, value = item.partition("=")
        if not _OPTION_VALUE.fullmatch(value):
            raise NotationError(
                "bot", f"{shown(item)}: write an option's value in ASCII digits 0-9 or letters"
            )
    bot = make_bot(spec)
    for option, most in SEARCH_LIMITS.items():
        size = getattr(bot, option, None)
        if isinstance(size, int) and size > most:
            raise NotationError(
                "bot", f"{bot.name}: {option}={size} is too large: at most {most:,} per decision"
            )
    return bot
