"""The fast engine's push tables as NumPy arrays, for the compiled kernel (rules P1, P2).

Built once at import from dekal.tables.LEGAL, so the kernel pushes with exactly the masks and
shifts of the optimized engine, in the same legal order (the reference's order):

* STEPS[variant, hole, index, field] (uint64): the PushStep of the index-th legal push into
  `hole`, its fields in dekal.bits.PushStep's order (ENTRY … DROP_DOWN16 below);
* PUSH_COUNT[variant, hole] (int64): how many pushes are legal (slide 2/3/4, eject 14/15/16);
* PUSH_NAMES[variant][hole][index]: the push in notation (`L`, `B3`), to write actions back.

Variants are numbered as VARIANT_CODE says (0 slide, 1 eject).
"""

from __future__ import annotations

from dataclasses import astuple

from dekal.bits import CELLS, PushStep
from dekal.extras import needed
from dekal.tables import LEGAL, VARIANTS

with needed("the compiled game kernel (dekal.kernel)"):
    import numpy as np
    from numpy.typing import NDArray

VARIANT_CODE = {variant: code for code, variant in enumerate(VARIANTS)}
MOST_PUSHES = CELLS  # eject into an inner hole: every line from both ends, less none

(
    ENTRY, KEEP, MOVE, MOVE_UP, MOVE_DOWN, DROP, DROP_UP, DROP_DOWN,
    KEEP16, MOVE16, DROP16, MOVE_UP16, MOVE_DOWN16, DROP_UP16, DROP_DOWN16,
) = range(len(PushStep.__slots__))  # fmt: skip
"""Field indices of a step in STEPS, in PushStep's declaration order."""


def _build() -> tuple[
    NDArray[np.uint64], NDArray[np.int64], tuple[tuple[tuple[str, ...], ...], ...]
]:
    steps = np.zeros((len(VARIANTS), CELLS, MOST_PUSHES, len(PushStep.__slots__)), np.uint64)
    counts = np.zeros((len(VARIANTS), CELLS), np.int64)
    names = []
    for variant in VARIANTS:
        code = VARIANT_CODE[variant]
        per_hole = []
        for hole in range(CELLS):
            moves = LEGAL[variant][hole]
            counts[code, hole] = len(moves)
            for index, (_, step) in enumerate(moves):
                steps[code, hole, index] = astuple(step)
            per_hole.append(tuple(str(push) for push, _ in moves))
        names.append(tuple(per_hole))
    return steps, counts, tuple(names)


STEPS, PUSH_COUNT, PUSH_NAMES = _build()
