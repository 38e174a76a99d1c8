"""Obligations: the optimized engine's bit-level scoring equals the spec's, for every grid (S1, S2).

A single query "score_points(g) equals the cell-wise sum for every g" comes back `unknown`
(the 64-bit multiply that adds the bytes defeats bit-blasting), so the claim is split into
lemmas that each close in well under a second, and whose conjunction is the claim:

1. `cancelled(g)` is the spec's S1 set, for every grid of values 0–10 (0 = a hole);
2. `kept(g, S1 set)` zeroes exactly the cancelled cells;
3. stage 1 of `nibble_sum`: each byte becomes the sum of its two nibbles (≤ 20 for cards);
4. stage 2 of `nibble_sum`: for bytes ≤ 30, the BYTE_ONES multiply and the top-byte shift
   give the sum of the eight bytes;
5. composition: `nibble_sum` is stage 2 after stage 1, and `score_points` is
   `nibble_sum(kept(g, cancelled(g)))`, term for term (so 1–4 cover the shipped function);
6. `score_remaining(g)` is the spec's count of cards left (one query suffices).

Stages 3 and 4 are restated here with the kernel module's OWN constants (BYTE_LOW, NIBBLE,
BYTE_ONES, MASK64, TOP_BYTE_SHIFT): change one in engine/bits.py and a lemma fails.
"""

from __future__ import annotations

from typing import Any

import z3  # type: ignore[import-untyped]

from dekal.proofs._encoding import BoolExpr
from dekal.proofs._obligations import spec_side
from dekal.proofs._obligations.obligation import (
    Kernels,
    Obligation,
    cell_set,
    from_nibbles,
    grid_of,
    nibbles,
    refute,
)

Result = tuple[bool, str, str]


def _grid() -> tuple[BoolExpr, list[BoolExpr], BoolExpr]:
    """A symbolic grid word, its nibbles, and "every nibble is 0..10" (cards and holes)."""
    word = z3.BitVec("g", 64)
    values = nibbles(word)
    return word, values, z3.And([z3.ULE(v, 10) for v in values])


def spec_mask(values: list[BoolExpr]) -> BoolExpr:
    """The spec's S1 set in the kernels' nibble form (bit 4i for a cancelled cell i)."""
    one, zero = z3.BitVecVal(1, 4), z3.BitVecVal(0, 4)
    return from_nibbles([z3.If(c, one, zero) for c in spec_side.cancelled(values)])


def cancellation(k: Kernels, timeout: float) -> Result:
    word, values, domain = _grid()
    kernel = k.bits.cancelled(k.bits.sym(word)).bv
    expected = spec_mask(values)

    def explain(model: Any) -> str:
        got = model.eval(kernel, model_completion=True).as_long()
        want = model.eval(expected, model_completion=True).as_long()
        return (
            f"grid {grid_of(model, word)}: kernel cancels {cell_set(got)}, "
            f"the spec (S1) cancels {cell_set(want)}"
        )

    proved, counterexample = refute(kernel == expected, explain, timeout=timeout, assuming=[domain])
    return proved, counterexample, ""


def kept(k: Kernels, timeout: float) -> Result:
    word, values, domain = _grid()
    gone = spec_side.cancelled(values)
    kernel = k.bits.kept(k.bits.sym(word), spec_mask(values)).bv
    expected = from_nibbles(
        [z3.If(g, z3.BitVecVal(0, 4), v) for g, v in zip(gone, values, strict=True)]
    )

    def explain(model: Any) -> str:
        return (
            f"grid {grid_of(model, word)}: kernel keeps {grid_of(model, kernel)}, "
            f"the spec keeps {grid_of(model, expected)}"
        )

    proved, counterexample = refute(kernel == expected, explain, timeout=timeout, assuming=[domain])
    return proved, counterexample, ""


def _stage1(b: Any, word: Any) -> Any:
    """nibble_sum's first stage, in the kernel module's own constants."""
    return (word & b.BYTE_LOW) + (z3.LShR(word, b.NIBBLE) & b.BYTE_LOW)


def _stage2(b: Any, word: Any) -> Any:
    """nibble_sum's second stage, in the kernel module's own constants."""
    return z3.LShR((word * b.BYTE_ONES) & b.MASK64, b.TOP_BYTE_SHIFT)


def _bytes(word: Any) -> list[Any]:
    return [z3.Extract(8 * j + 7, 8 * j, word) for j in range(8)]


def sum_pairs(k: Kernels, timeout: float) -> Result:
    word, values, domain = _grid()
    summed = _bytes(_stage1(k.bits, word))
    claim = z3.And(
        [
            z3.And(
                b == z3.ZeroExt(4, values[2 * j]) + z3.ZeroExt(4, values[2 * j + 1]), z3.ULE(b, 30)
            )
            for j, b in enumerate(summed)
        ]
    )

    def explain(model: Any) -> str:
        got = [model.eval(b, model_completion=True).as_long() for b in summed]
        return f"word {grid_of(model, word)}: stage-1 bytes {got} are not the nibble-pair sums"

    proved, counterexample = refute(claim, explain, timeout=timeout, assuming=[domain])
    return proved, counterexample, ""


def sum_bytes(k: Kernels, timeout: float) -> Result:
    word = z3.BitVec("p", 64)
    parts = _bytes(word)
    small = z3.And([z3.ULE(b, 30) for b in parts])
    total = z3.Sum([z3.ZeroExt(56, b) for b in parts])
    got = _stage2(k.bits, word)

    def explain(model: Any) -> str:
        values = [model.eval(b, model_completion=True).as_long() for b in parts]
        return (
            f"bytes {values} (sum {sum(values)}): stage 2 gives "
            f"{model.eval(got, model_completion=True).as_long()}"
        )

    proved, counterexample = refute(got == total, explain, timeout=timeout, assuming=[small])
    return proved, counterexample, ""


def composition(k: Kernels, timeout: float) -> Result:
    b = k.bits
    word = z3.BitVec("g", 64)
    grid = b.sym(word)
    summed = b.nibble_sum(grid).bv
    points = b.score_points(grid).bv
    claims = [
        ("nibble_sum is stage 2 after stage 1", summed == _stage2(b, _stage1(b, word))),
        (
            "score_points is nibble_sum(kept(g, cancelled(g)))",
            points == b.nibble_sum(b.kept(grid, b.cancelled(grid))).bv,
        ),
    ]
    for label, claim in claims:

        def explain(model: Any, label: str = label) -> str:
            return f"{label}: fails on word {grid_of(model, word)}"

        proved, counterexample = refute(claim, explain, timeout=timeout)
        if not proved:
            return False, counterexample, ""
    return True, "", "with lemmas 1–4: score_points(g) equals the spec's S2 points for every grid"


def remaining(k: Kernels, timeout: float) -> Result:
    b = k.bits
    word, values, domain = _grid()
    grid = b.sym(word)
    one, zero = z3.BitVecVal(1, 4), z3.BitVecVal(0, 4)
    filled = from_nibbles([z3.If(v != 0, one, zero) for v in values])
    cells = z3.BitVec("s", 64)
    nibble_form = z3.And([z3.Extract(4 * c + 3, 4 * c + 1, cells) == 0 for c in range(16)])
    count = z3.Sum([z3.ZeroExt(63, z3.Extract(4 * c, 4 * c, cells)) for c in range(16)])
    claims = [
        (
            "occupied(g) is the set of cells holding a card",
            b.occupied(grid).bv == filled,
            [domain],
            word,
        ),
        (
            "cell_count(s) is the size of a nibble-form set",
            b.cell_count(b.sym(cells)).bv == count,
            [nibble_form],
            cells,
        ),
        (
            "score_remaining(g) is cell_count(occupied(g) ^ cancelled(g))",
            b.score_remaining(grid).bv == b.cell_count(b.occupied(grid) ^ b.cancelled(grid)).bv,
            [],
            word,
        ),
    ]
    for label, claim, assuming, shown in claims:

        def explain(model: Any, label: str = label, shown: Any = shown) -> str:
            return f"{label}: fails on word {grid_of(model, shown)}"

        proved, counterexample = refute(claim, explain, timeout=timeout, assuming=assuming)
        if not proved:
            return False, counterexample, ""
    return True, "", "with score.cancellation: score_remaining(g) is the spec's S2 count"


OBLIGATIONS = (
    Obligation(
        "score.cancellation",
        "S1: bits.cancelled(g) is the set of cards with an equal orthogonal neighbour, "
        "for every grid of values 0–10",
        cancellation,
    ),
    Obligation(
        "score.kept",
        "S1: bits.kept(g, S1 set) empties exactly the cancelled cells, for every grid",
        kept,
    ),
    Obligation(
        "score.sum-pairs",
        "S2: nibble_sum stage 1 leaves in each byte the sum of its two nibbles (≤ 30)",
        sum_pairs,
    ),
    Obligation(
        "score.sum-bytes",
        "S2: nibble_sum stage 2 (BYTE_ONES multiply, top byte) adds bytes ≤ 30 exactly",
        sum_bytes,
    ),
    Obligation(
        "score.composition",
        "S2: score_points = nibble_sum(kept(g, cancelled(g))) = stage 2 ∘ stage 1 ∘ kept",
        composition,
    ),
    Obligation(
        "score.remaining",
        "S2: bits.score_remaining(g) is the spec's number of cards left, for every grid",
        remaining,
    ),
)
