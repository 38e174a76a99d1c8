"""Numbers in words the way people write them: `1 card`, `2 cards`."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """`count` and `noun`, the noun in the plural unless the count is exactly one."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
