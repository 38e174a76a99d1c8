"""Shared facts of the engine protocol (spec/protocol.md): message shapes and the public view.

The runner compares an engine's full position character for character; the public view is
derived from the full position by a fixed transformation, so vectors need to store only one.
"""

from __future__ import annotations

import functools
from typing import Any

from dekal_ref.position import HIDDEN_LETTERS, POSITION_FIELDS
from dekal_ref.reading import is_digits

PROTOCOL_VERSION = 1
"""The version of spec/protocol.md an engine's hello must name."""

Message = dict[str, Any]

ERROR_KINDS = ("illegal", "notation", "unsupported", "bad_request")


_HIDE = str.maketrans({letter: "?" for letter in HIDDEN_LETTERS})


@functools.lru_cache(maxsize=64)
def public_view(position: str) -> str:
    """The public view of a full position: face-down cards and made picks become `?`, a
    non-empty pile becomes `#N` (spec/protocol.md, "The position string"). Cached: the
    runner checks the same position again after every refused probe."""
    fields = position.split(" ")
    if len(fields) != len(POSITION_FIELDS):
        return position
    grids = fields[4].translate(_HIDE)
    picks = ",".join("-" if pick == "-" else "?" for pick in fields[5].split(","))
    pile = fields[7] if fields[7] == "-" else f"#{len(fields[7])}"
    return " ".join(fields[:4] + [grids, picks, fields[6], pile] + fields[8:])


def position_fields(position: str) -> dict[str, str]:
    """Name the ten fields of a position; a malformed one yields what it can."""
    parts = position.split(" ")
    named = dict(zip(POSITION_FIELDS, parts, strict=False))
    if len(parts) != len(POSITION_FIELDS):
        named["(fields)"] = f"{len(parts)} fields instead of {len(POSITION_FIELDS)}"
    return named


def to_act(position: str) -> int | None:
    """The seat that must take or push next, read from the phase field; None otherwise."""
    phase = position_fields(position).get("phase", "")
    if "@" not in phase:
        return None
    seat = phase.partition("@")[2].partition(":")[0]
    return int(seat) if is_digits(seat) and len(seat) <= 2 else None


def refusal(kind: str, message: str, **extra: Any) -> Message:
    """The `error` object of a refusing reply."""
    return {"kind": kind, "message": message, **extra}
