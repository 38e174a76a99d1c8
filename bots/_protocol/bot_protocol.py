"""The messages of the bot protocol (spec/bot-protocol.md): what the table sends a bot and how
a bot's answers are read, shared by the server (dekal.bots.serve) and the client
(dekal.bots._protocol.process_bot).

Every request names its command in `cmd` and carries an integer `id`; every reply echoes the
id and says `ok` (the framing of spec/protocol.md, section 1). The table sends the seat's
public view (M3, T1: never a hidden value) and its legal actions; the bot answers one of them.
"""

from __future__ import annotations

from typing import Any

from dekal.bots.observation import Observation, format_public_view, legal_actions
from dekal.conformance.drive._protocol import Message
from dekal_ref.reading import SEED_MAX, describe_json
from dekal_ref.state import Rules

BOT_PROTOCOL_VERSION = 1
"""The version of spec/bot-protocol.md this package speaks."""

FEATURES = ("match", "samples", "info")
"""Optional things a bot may claim in `hello` (spec/bot-protocol.md, `hello`)."""

FORFEITS = ("time", "illegal", "garbage", "refused", "crash")
"""Why a seat forfeits its game (spec/bot-protocol.md, "Forfeits"), one word each."""

INFO_FIELDS = {"score": float, "win": float, "worlds": int, "value": float, "text": str}
"""The fields of a `think` reply's optional `info`, and their JSON types (int counts as a
float); other fields are kept as they are and never read."""

MAX_REPLY_BYTES = 64 * 1024
"""A reply line longer than this is garbage (a real reply is under a kilobyte)."""

MAX_REQUEST_CHARS = 16 * 1024
"""The longest request line a bot server reads (the longest real one, a 6-seat `think`, is
under 1 KiB); a longer one is refused with `bad_request`."""

CONTROL_SECONDS = 10.0
"""Seconds a bot gets to answer `new_game` and `game_over`."""

STARTUP_SECONDS = 15.0
"""Seconds a bot gets to start and answer `hello` (an interpreter, a JVM)."""

THINK_MS = 10_000
"""The default thinking budget of one decision, in milliseconds: a reply later than this is a
time forfeit."""

MAX_THINK_MS = 3_600_000
"""The largest budget the table may give one decision (an hour)."""


class BadRequest(Exception):
    """A request a bot cannot read: `field` names the field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def rules_message(rules: Rules) -> Message:
    """The `rules` object of `new_game`, as spec/protocol.md's `new_game` writes it."""
    return {
        "players": rules.players,
        "push": rules.push,
        "first": rules.first,
        "threshold": rules.threshold,
    }


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_rules(value: object) -> Rules:
    """The Rules of a `new_game` request; BadRequest naming the field otherwise."""
    if not isinstance(value, dict):
        raise BadRequest("rules", f"rules must be an object, not {describe_json(value)}")
    players, threshold = value.get("players"), value.get("threshold")
    if not isinstance(players, int) or isinstance(players, bool):
        raise BadRequest("rules.players", "rules.players must be a whole number 2 to 6")
    if threshold is not None and not (_whole(threshold) and threshold >= 1):
        raise BadRequest("rules.threshold", "rules.threshold is null or a whole number from 1")
    push, first = value.get("push", "slide"), value.get("first", "lowest")
    if not isinstance(push, str) or not isinstance(first, str):
        raise BadRequest("rules", "rules.push and rules.first are names (strings)")
    try:
        return Rules(players=players, push=push, first=first, threshold=threshold)
    except ValueError as error:  # M2, an unknown variant: a DekalError is a ValueError
        raise BadRequest("rules", str(error)) from None


def read_seat(value: object, rules: Rules) -> int:
    if not _whole(value) or not 0 <= value < rules.players:  # type: ignore[operator]
        raise BadRequest("seat", f"seat must be 0 to {rules.players - 1}")
    return value  # type: ignore[return-value]


def read_seed(value: object) -> int:
    if not _whole(value) or not 0 <= value <= SEED_MAX:  # type: ignore[operator]
        raise BadRequest("seed", "seed must be a whole number 0 to 2^64 - 1")
    return value  # type: ignore[return-value]


def new_game_request(rules: Rules, seat: int, seed: int) -> Message:
    return {"cmd": "new_game", "rules": rules_message(rules), "seat": seat, "seed": seed}


def think_request(obs: Observation, seat: int, budget: Message) -> Message:
    """The `think` request of a decision: the seat's public view, its legal actions in the
    reference's order (dekal.bots.observation.legal_actions), the budget."""
    legal = [str(action) for action in legal_actions(obs, seat)]
    return {"cmd": "think", "view": format_public_view(obs), "legal": legal, "budget": budget}


def read_info(value: object) -> dict[str, Any]:
    """A think reply's `info`: the known fields of the right type (others are dropped, as a
    reader ignores unknown fields); {} for anything that is not an object."""
    if not isinstance(value, dict):
        return {}
    kept: dict[str, Any] = {}
    for name, kind in INFO_FIELDS.items():
        field = value.get(name)
        number = kind is float and _whole(field)
        if number or isinstance(field, kind) and not isinstance(field, bool):
            kept[name] = field
    return kept
