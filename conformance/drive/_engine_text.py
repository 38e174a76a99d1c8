"""Text an engine under test sent, made safe to show anywhere (issue 29).

An engine's reply is any JSON (or, in-process, any Python object): its strings may hold
lone surrogates (`"\\ud800"` is valid JSON, and no UTF-8 writer takes it), control
characters, and terminal sequences (`ESC]0;title BEL` retitles the window, `ESC[2J` clears
it) or bidirectional overrides that make a terminal, a page or a JUnit file show other text
than the engine sent. Every reply and every message quoting an engine is cleaned once, as it
enters the judge (dekal.conformance.drive._engine_link): from there on, the text report, the HTML
page, JUnit, JSON and the fuzz database only ever hold what `visible` returns.

The cleaning is visible and one-way: each such character becomes its escape (`\\x1b`,
`\\u202e`), a lone surrogate U+FFFD. No expected value of the suite holds a backslash
escape or U+FFFD, so a cleaned value compares unequal to the expected one exactly when the
raw value did.
"""

from __future__ import annotations

import re
from typing import Any

_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
"""C0 controls but tab and newline, DEL, C1 controls (ESC and CSI among them), and the
line separators and bidirectional marks and overrides of Unicode."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every unsafe character escaped and every lone surrogate U+FFFD."""
    if text.isascii() and text.isprintable():
        return text  # the common case, at once
    return _UNSAFE.sub(_escape, _SURROGATE.sub("\ufffd", text))


def cleaned(value: Any) -> Any:
    """A reply with `visible` applied to every string in it, keys included."""
    return value if _plain(value) else _walked(value)


def _plain(value: Any) -> bool:
    """Nothing in `value` to clean: its strings, keys included, are printable ASCII (what
    nearly every reply is, checked without building a copy)."""
    kind = type(value)
    if kind is str:
        text: str = value
        return text.isascii() and text.isprintable()
    if kind is dict:
        return all(_plain(key) and _plain(item) for key, item in value.items())
    if kind is list or kind is tuple:
        return all(_plain(item) for item in value)
    return kind is int or kind is bool or kind is float or value is None


def _walked(value: Any) -> Any:
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, dict):
        return {_walked(key): _walked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_walked(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_walked(item) for item in value)
    return value
