"""Every proof obligation of the project, in the order `dekal prove` runs them."""

from __future__ import annotations

from collections.abc import Callable

from dekal.proofs._obligations import bounds as ob_bounds
from dekal.proofs._obligations import push as ob_push
from dekal.proofs._obligations import reach as ob_reach
from dekal.proofs._obligations import score as ob_score
from dekal.proofs._obligations import symmetry as ob_symmetry
from dekal.proofs._obligations import unknown as ob_unknown
from dekal.proofs._obligations.obligation import DEFAULT_TIMEOUT, Kernels, Obligation, Verdict

OBLIGATIONS: tuple[Obligation, ...] = (
    *ob_score.OBLIGATIONS,
    *ob_push.OBLIGATIONS,
    *ob_symmetry.OBLIGATIONS,
    *ob_bounds.OBLIGATIONS,
    *ob_reach.OBLIGATIONS,
    *ob_unknown.OBLIGATIONS,
)


def run_all(
    kernels: Kernels | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    only: Callable[[Obligation], bool] = lambda _: True,
    started: Callable[[Obligation], None] = lambda _: None,
) -> list[Verdict]:
    """Check every obligation (or those `only` keeps); `started` hears of each one first."""
    verdicts: list[Verdict] = []
    for obligation in OBLIGATIONS:
        if only(obligation):
            started(obligation)
            verdicts.append(obligation.check(kernels, timeout))
    return verdicts
