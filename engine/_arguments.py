"""The Python API's argument checks (docs/contracts.md, "Python API arguments"): a value
outside its range is a ValueError that names the argument and the range, raised at the
public function's entry, before any work; the message quotes at most about 40 characters
of the value, whatever it is (a 100,000-digit number, a long string)."""

from __future__ import annotations

SEEDS = 2**64
"""Seeds are 0 to 2**64 - 1: SplitMix64's state (dekal.draws)."""


def quoted(value: object) -> str:
    """A value as an error message quotes it: at most about 40 characters."""
    if isinstance(value, int) and not isinstance(value, bool):
        bits = value.bit_length()
        return f"{value:,}" if bits <= 66 else f"a number of {bits:,} bits"
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:40]}… ({len(text)} characters)"


def whole(field: str, value: object, low: int, high: int) -> int:
    """`value` if it is a whole number low..high, else ValueError naming `field` and the range."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{field}: a whole number {low:,} to {high:,}, not {quoted(value)}")
    if not low <= value <= high:
        raise ValueError(f"{field}: {low:,} to {high:,}, not {quoted(value)}")
    return value


def seed(field: str, value: object) -> int:
    """A seed: a whole number 0 to 2**64 - 1."""
    return whole(field, value, 0, SEEDS - 1)
