"""Rates and durations as people read them: three significant figures, never a lone 0.

`simulate` once printed "0 games/s" for a run slower than one game a second (the rate
rounded to an integer). Every command that prints a rate or a time goes through these two.
"""

from __future__ import annotations

import math

FIGURES = 3


def significant(value: float, figures: int = FIGURES) -> str:
    """`value` to `figures` significant figures, grouped by thousands, no exponent.

    >>> significant(0.0123456), significant(7.0), significant(1234567.8), significant(0)
    ('0.0123', '7.00', '1,230,000', '0')
    """
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    rounded = float(f"{value:.{figures - 1}e}")  # 9.996 becomes 10.0 before the places count
    decimals = max(0, figures - 1 - math.floor(math.log10(abs(rounded))))
    return f"{rounded:,.{decimals}f}"


def rate(count: float, seconds: float, unit: str) -> str:
    """`count` things in `seconds`, per second: '1,530 games/s', '0.412 games/s'."""
    if seconds <= 0:
        return f"- {unit}/s"
    return f"{significant(count / seconds)} {unit}/s"


def duration(seconds: float) -> str:
    """A wall time: '0.0412 s', '3.10 s', '142 s'."""
    return f"{significant(seconds)} s"
