"""Which case makes the same check as which under the other first-player rule (TWIN_OF):
the coverage test counts a check as run when either twin runs."""

from __future__ import annotations

TWIN_OF: dict[str, str] = {}
"""Case ID -> the ID of the case that makes the same check under the other first-player rule
(the test of coverage counts a check as run when either runs)."""


def twins(*pairs: tuple[str, str]) -> None:
    for one, other in pairs:
        TWIN_OF[one], TWIN_OF[other] = other, one
