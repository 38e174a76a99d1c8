"""Reading untrusted JSON: bounded size, bounded depth, strict numbers (rule B1).

Records, conformance case files, known-failure files and protocol requests are all read
here. Python's own `json.loads` recurses once per nesting level (a deeply nested document
raises RecursionError), accepts `NaN` and `Infinity` (which are not JSON and cannot be
written back as JSON) and reads integers of any length. This reader refuses all three,
and every way a document can be wrong is one NotationError naming `where` (a file name or a
field), never another exception.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from dekal_ref.errors import NotationError

MAX_JSON_CHARS = 8 * 1024 * 1024
"""The longest JSON document read (8 MiB): a record of thousands of rounds fits."""

MAX_JSON_DEPTH = 32
"""The deepest nesting of lists and objects read: a record nests 5 deep, a case 6."""

MAX_JSON_NUMBER_CHARS = 24
"""The longest number literal read: 2⁶⁴ − 1 (a seed) has 20 digits."""

# A JSON string, unrolled so that a long string is one run of the character class rather than
# one regex group per character (which costs memory per character when it backtracks).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


# Characters that str.splitlines() and some JSON readers take for line breaks, though JSON
# lets a string hold them raw: written escaped, a JSON line stays one line for every reader.
_LINE_BREAKS = {ord("\x85"): "\\u0085", ord("\u2028"): "\\u2028", ord("\u2029"): "\\u2029"}


def json_line(value: Any) -> str:
    """`value` as one line of compact JSON (no newline at the end), non-ASCII text kept but
    Unicode line separators escaped. Raises ValueError for NaN and Infinity."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text if text.isascii() else text.translate(_LINE_BREAKS)


def nesting_depth(text: str) -> int:
    """How deep lists and objects nest in `text`, strings ignored (linear time)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    depth = deepest = 0
    for bracket in brackets:
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _refuse_constant(name: str) -> Any:
    raise NotationError("json", f"{name} is not a JSON number")


def _bounded_int(literal: str) -> int:
    if len(literal) > MAX_JSON_NUMBER_CHARS:
        raise NotationError(
            "json", f"a number of {len(literal)} digits: at most {MAX_JSON_NUMBER_CHARS} are read"
        )
    return int(literal)


def _finite_float(literal: str) -> float:
    value = float(literal)
    if len(literal) > MAX_JSON_NUMBER_CHARS or not math.isfinite(value):
        raise NotationError("json", f"the number {literal[:MAX_JSON_NUMBER_CHARS]} is out of range")
    return value


_DECODER = json.JSONDecoder(
    parse_constant=_refuse_constant, parse_int=_bounded_int, parse_float=_finite_float
)


def read_json(text: str, where: str, *, max_chars: int = MAX_JSON_CHARS) -> Any:
    """The JSON value of `text`, or NotationError(where) saying why it cannot be read.

    >>> read_json('{"id": 1, "cmd": "hello"}', "request")
    {'id': 1, 'cmd': 'hello'}
    >>> read_json('[' * 100 + ']' * 100, "request")
    Traceback (most recent call last):
      ...
    dekal_ref.errors.NotationError: request: lists and objects nest 100 deep; at most 32 are read
    """
    if len(text) > max_chars:
        raise NotationError(where, f"longer than {max_chars} characters: at most that is read")
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH:  # only then can it be too deep
        depth = nesting_depth(text)
        if depth > MAX_JSON_DEPTH:
            raise NotationError(
                where, f"lists and objects nest {depth} deep; at most {MAX_JSON_DEPTH} are read"
            )
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise NotationError(
            where, f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except NotationError as error:
        raise NotationError(where, error.message) from None
    except (ValueError, RecursionError) as error:  # a last guard: never another exception
        raise NotationError(where, f"not readable JSON ({type(error).__name__})") from None
