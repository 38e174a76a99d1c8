"""Obligations: the arithmetic of the unknown-card search's pruning rules (spec/solo-unknown.md,
U8). The rules' effect on whole searches is pinned to the brute force by tests
(tests/solver/test_unknown_search.py, test_unknown_kernel.py); what Z3 proves here is the
integer step those tests could miss at the edges: E2's ceiling.

E2: a reveal whose sum so far is t < b (the ceiling) and a value v of count n ≥ 1: the
kernel (`proofs/_unknown_kernel.expected`) searches v's pushes below
need = (b − t + n − 1) // n. Sound: a push at or above need takes the sum to b whatever the
values left bring (each term ≥ 0), so the reveal cannot lower the minimum; tight: a push
below need keeps t + n·x below b, so it is never cut while it could matter.
"""

from __future__ import annotations

from typing import Any

import z3  # type: ignore[import-untyped]

from dekal.proofs._obligation import Kernels, Obligation, refute

LARGEST = 1 << 58
"""The kernel's FAR: every scaled value and ceiling lies below it (`_unknown_search.fits`)."""
MOST_COPIES = 100
"""A count n is at most the deck's 100 cards."""


def _ceiling(k: Kernels, timeout: float) -> tuple[bool, str, str]:
    del k  # the kernel's formula is restated here (numba code cannot take Z3 terms)
    t, b, n, x, rest = z3.Ints("t b n x rest")
    need = (b - t + n - 1) / n  # Z3's integer division floors for a positive divisor
    ranges = [
        t >= 0,
        t < b,
        b <= LARGEST,
        n >= 1,
        n <= MOST_COPIES,
        x >= 0,
        x <= LARGEST,
        rest >= 0,
    ]
    sound = z3.Implies(x >= need, t + n * x + rest >= b)
    tight = z3.Implies(x < need, t + n * x < b)

    def explain(found: Any) -> str:
        values = {str(v): found.eval(v, model_completion=True) for v in (t, b, n, x, rest)}
        return ", ".join(f"{name} = {value}" for name, value in values.items())

    proved, counterexample = refute(z3.And(sound, tight), explain, timeout=timeout, assuming=ranges)
    return proved, counterexample, "need = ⌈(b − t)/n⌉ for 0 ≤ t < b < 2^58, 1 ≤ n ≤ 100"


OBLIGATIONS = (
    Obligation(
        "unknown.e2-ceiling",
        "U8/E2: a push at or above (b − t + n − 1) // n takes the reveal's sum to the ceiling "
        "b, and one below it keeps the sum below b",
        _ceiling,
    ),
)
