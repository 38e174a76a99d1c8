"""Obligations: the highest and the lowest final score a real deck allows (M1, S1, S2).

A final grid holds 16 cards of values 1–10, at most 10 of each value (M1). Z3 finds the
extreme score and a grid that reaches it (the witness, checked on the reference engine and
on the optimized kernel), then proves that nothing beyond it exists: "score > best" (or
"< best") is unsat. The found value is not assumed anywhere: the query computes it.
"""

from __future__ import annotations

from typing import Any

import z3  # type: ignore[import-untyped]

from dekal.proofs._encoding import BoolExpr
from dekal.proofs._obligations import spec_side
from dekal.proofs._obligations.obligation import Kernels, Obligation, refute
from dekal.proofs.limits import Deadline, z3_check
from dekal_ref.notation import CELLS, format_grid
from dekal_ref.scoring import score_grid

VALUES = range(1, 11)
COPIES = 10  # M1: ten cards of each value


def _deck_grid() -> tuple[list[BoolExpr], list[BoolExpr]]:
    """Sixteen integer cells and the constraints of a grid dealt from the real deck."""
    cells = [z3.Int(f"v{c}") for c in CELLS]
    rules = [z3.And(v >= 1, v <= 10) for v in cells]
    rules += [z3.Sum([z3.If(v == value, 1, 0) for v in cells]) <= COPIES for value in VALUES]
    return cells, rules


def _extreme(highest: bool) -> Any:
    def run(k: Kernels, timeout: float) -> tuple[bool, str, str]:
        cells, rules = _deck_grid()
        points = spec_side.int_points(cells)
        optimizer = z3.Optimize()
        optimizer.add(*rules)
        (optimizer.maximize if highest else optimizer.minimize)(points)
        if z3_check(optimizer, deadline=Deadline(timeout)) != z3.sat:
            return False, f"z3 found no deck grid ({optimizer.reason_unknown()})", ""
        model = optimizer.model()
        grid = tuple(model.eval(v, model_completion=True).as_long() for v in cells)
        best = score_grid(grid).points  # the reference engine scores the witness
        kernel = int(k.bits.score_points(k.bits.pack(grid)))
        if kernel != best:
            return False, f"witness {format_grid(grid)}: kernel scores {kernel}, spec {best}", ""
        if any(grid.count(value) > COPIES for value in VALUES):
            return False, f"witness {format_grid(grid)} needs more than {COPIES} of a card", ""
        claim = points <= best if highest else points >= best

        def explain(found: Any) -> str:
            other = tuple(found.eval(v, model_completion=True).as_long() for v in cells)
            return f"grid {format_grid(other)} scores {score_grid(other).points}, beyond {best}"

        proved, counterexample = refute(claim, explain, timeout=timeout, assuming=rules)
        word = "highest" if highest else "lowest"
        return proved, counterexample, f"{word} score {best}, witness {format_grid(grid)}"

    return run


OBLIGATIONS = (
    Obligation(
        "bounds.highest",
        "M1/S2: the highest final score of a grid from the real deck, a witness, and no grid "
        "scoring more",
        _extreme(highest=True),
    ),
    Obligation(
        "bounds.lowest",
        "M1/S2: the lowest final score of a grid from the real deck, a witness, and no grid "
        "scoring less",
        _extreme(highest=False),
    ),
)
