"""Numbers that agree with their nouns, in any text the tool prints (issue 26, item 4).

`disagreements(text)` finds "1 holes" (a plural after one) and "3 card" (a singular after
another count). A message built with a count writes it with `dekal_ref.words.plural`; the
walker (tests/cli/test_cli_walker.py) and tests/cli/test_messages_agree.py scan what the
commands print.
"""

from __future__ import annotations

import re

VERBS = frozenset(
    [
        "is",
        "was",
        "has",
        "does",
        "leaves",
        "stays",
        "goes",
        "comes",
        "moves",
        "lands",
        "enters",
        "wins",
        "scores",
        "takes",
        "gives",
        "passes",
        "survives",
        "cancels",
        "remains",
    ]
)
"""Words ending in s that follow a card's value as its verb ("the 1 leaves"), not a plural."""

SINGULAR = frozenset(["pass", "status", "bonus", "class", "process", "loss", "less", "plus"])
"""Singular nouns that end in s ("1 case: 1 pass", a status count)."""

NOUNS = [
    "card",
    "hole",
    "case",
    "point",
    "puzzle",
    "game",
    "seat",
    "step",
    "round",
    "turn",
    "world",
    "obligation",
    "check",
    "rule",
    "bot",
    "decision",
    "move",
    "action",
    "file",
    "character",
    "digit",
    "line",
    "deviation",
    "failure",
]
"""Nouns the tool counts."""

ONE_PLURAL = re.compile(r"(?<![\w.,/-])1 ([a-z]{2,}s)\b")
MANY_SINGULAR = re.compile(r"(?<![\w.,/-])(0|[2-9]|[1-9]\d+) (" + "|".join(NOUNS) + r")\b(?![-'’])")


def disagreements(text: str) -> list[str]:
    """Every count in `text` whose noun does not agree with it."""
    found = [m.group(0) for m in ONE_PLURAL.finditer(text) if m.group(1) not in VERBS | SINGULAR]
    return found + [m.group(0) for m in MANY_SINGULAR.finditer(text)]
