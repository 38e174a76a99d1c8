"""Reading untrusted text: whole numbers, and quoting input back in an error (rule B1).

Every parser of the project reads its numbers here, so a number means the same thing in an
action, a position, a record, a protocol request and on the command line:

* ASCII digits 0–9 only. `str.isdigit()` also accepts superscripts (`²`) and other scripts'
  digits (`١`), which `int()` then reads or refuses: neither is Dékal notation.
* Bounded length, then bounded range, so that reading costs the same whatever the input
  (Python refuses to convert integers of more than 4,300 digits, and a seed the spec bounds
  to 0 ≤ seed < 2⁶⁴ must not be silently reduced mod 2⁶⁴).
* The error names the field and quotes at most a short prefix of the text (`shown`).
"""

from __future__ import annotations

from dekal_ref.errors import NotationError

QUOTE_LIMIT = 40
"""Characters of offending input quoted back in an error message, at most."""

SEED_MAX = 2**64 - 1
"""The largest seed (spec/rules.md, "Seeded deals": 0 ≤ seed < 2⁶⁴)."""

SEAT_MAX = 99
"""The largest seat number that parses; a seat the game does not have is illegal (M2), not
malformed, so the notation bound is generous."""

COUNT_MAX = 10**9
"""The largest count that parses where the notation bounds none (scores, totals, thresholds,
round and turn numbers, places): far beyond any real game, small enough to read at once."""


def shown(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` quoted for a message: its repr, cut to `limit` characters with its length said.

    >>> shown("b3")
    "'b3'"
    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (100 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text)} characters)"


def shortened(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` unquoted, cut to `limit` characters with its length said, characters that are
    not printable escaped (a line break would make a one-line error two lines).

    >>> shortened("9991/446T/T27T")
    '9991/446T/T27T'
    >>> shortened("1\\n2")
    '1\\\\n2'
    """
    cut = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:limit])
    return cut if len(text) <= limit else f"{cut}… ({len(text)} characters)"


def is_digits(text: str) -> bool:
    """True for a non-empty run of ASCII digits 0–9 (and nothing else)."""
    return text.isascii() and text.isdigit()


def read_number(text: str, field: str, *, most: int = COUNT_MAX, least: int = 0) -> int:
    """A whole number least ≤ n ≤ most written in ASCII digits; NotationError(field) otherwise.

    >>> read_number("42", "seed")
    42
    >>> read_number("²", "seat")
    Traceback (most recent call last):
      ...
    dekal_ref.errors.NotationError: seat: '²' is not a number 0–1000000000: write digits 0–9
    """
    bounds = f"{least}–{most}"
    if len(text) > len(str(most)) + 2 or not is_digits(text):
        raise NotationError(field, f"{shown(text)} is not a number {bounds}: write digits 0–9")
    value = int(text)
    if not least <= value <= most:
        raise NotationError(field, f"{value} is out of range: a number {bounds}")
    return value


def check_number(value: object, field: str, *, most: int = COUNT_MAX, least: int = 0) -> int:
    """A whole number least ≤ n ≤ most already decoded (from JSON); NotationError otherwise.

    JSON's true and false are not numbers, though Python's bool is an int."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(
            field, f"must be a whole number {least}–{most}, not {describe_json(value)}"
        )
    if not least <= value <= most:
        raise NotationError(field, f"{value} is out of range: a number {least}–{most}")
    return value


def describe_json(value: object) -> str:
    """What a decoded JSON value is, in a few words (never the whole value)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the string {shown(value)}"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):  # as written, so that 1.0 does not read as the whole 1
        return f"the number {value!r}"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
