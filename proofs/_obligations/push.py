"""Obligations: the optimized engine's push tables mean the spec's pushes (P1, P2, T4).

For both variants and every hole:
* `push.table-*`: the table's legal pushes are exactly `dekal_ref.push.legal_pushes`, and
  for every grid (any 4-bit values around the hole), every card and every legal push,
  `bits.push_grid` gives the grid `dekal_ref.push.apply_chain` gives along the spec's chain,
  and `bits.push_face_down` moves every face with its card (the new card face up);
* `push.not-into-hole`: no legal push puts the incoming card straight into the hole (the
  card is tagged with the value 15, which no grid card has, and must not land on the hole);
* `push.slide-counts`: a corner, edge and inner hole allow 2, 3 and 4 slide pushes;
* `push.conserves-*`: the grid after a push holds exactly the cards before plus the new
  one, nothing lost and nothing duplicated (the multisets are compared as histograms).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3  # type: ignore[import-untyped]

from dekal.proofs._encoding import BoolExpr
from dekal.proofs._obligations import spec_side
from dekal.proofs._obligations.obligation import (
    Kernels,
    Obligation,
    from_nibbles,
    grid_of,
    nibbles,
    refute,
)
from dekal.proofs.limits import Deadline, z3_check
from dekal_ref.notation import CELLS, cell_name
from dekal_ref.push import legal_pushes, push_chain

Result = tuple[bool, str, str]
TAG = 15
"""A card value no real card has: where it lands shows where the incoming card went."""


def _holed_grid(hole: int, name: str) -> tuple[BoolExpr, BoolExpr]:
    """A symbolic grid word with the hole at `hole` and any 4-bit values elsewhere."""
    word = z3.BitVec(f"{name}{hole}", 64)
    return word, nibbles(word)[hole] == 0


def _cards(word: BoolExpr, hole: int) -> BoolExpr:
    return z3.And(
        [z3.And(z3.UGE(v, 1), z3.ULE(v, 10)) for c, v in enumerate(nibbles(word)) if c != hole]
    )


def _first_failure(model: Any, entries: list[tuple[str, BoolExpr, Callable[[Any], str]]]) -> str:
    for label, claim, explain in entries:
        if z3.is_false(model.eval(claim, model_completion=True)):
            return f"{label}: {explain(model)}"
    return "a claim failed but no single entry could be named"


def _legal_sets(k: Kernels, variant: str) -> str:
    """'' when the table's legal pushes equal the spec's for every hole; else the difference."""
    for hole in CELLS:
        table = {str(push) for push, _ in k.legal[variant][hole]}
        spec = {str(push) for push in legal_pushes(hole, variant)}
        if table != spec:
            extra = ", ".join(sorted(table - spec)) or "none"
            missing = ", ".join(sorted(spec - table)) or "none"
            return (
                f"hole {cell_name(hole)} ({variant}): the table also allows {extra}; "
                f"it lacks {missing}"
            )
    return ""


def _table(variant: str) -> Callable[[Kernels, float], Result]:
    def run(k: Kernels, timeout: float) -> Result:
        different = _legal_sets(k, variant)
        if different:
            return False, different, ""
        b = k.bits
        card = z3.BitVec("card", 4)
        down = z3.BitVec("down", 16)
        faces = [z3.Extract(c, c, down) for c in CELLS]
        entries: list[tuple[str, BoolExpr, Callable[[Any], str]]] = []
        holes: list[BoolExpr] = []
        for hole in CELLS:
            word, is_hole = _holed_grid(hole, "g")
            holes.append(is_hole)
            for push, step in k.legal[variant][hole]:
                chain = push_chain(hole, push, variant)
                kernel = b.push_grid(b.sym(word), step, b.sym(z3.ZeroExt(60, card))).bv
                spec = from_nibbles(spec_side.pushed(nibbles(word), chain, card))
                kernel_faces = b.push_face_down(b.sym(down), step).bv
                spec_faces = z3.Concat(
                    *reversed(spec_side.pushed(faces, chain, z3.BitVecVal(0, 1)))
                )

                def explain(
                    model: Any,
                    word: Any = word,
                    kernel: Any = kernel,
                    spec: Any = spec,
                    kernel_faces: Any = kernel_faces,
                    spec_faces: Any = spec_faces,
                ) -> str:
                    return (
                        f"grid {grid_of(model, word)} + card {model.eval(card)}: kernel gives "
                        f"{grid_of(model, kernel)}, the spec {grid_of(model, spec)} "
                        f"(face-down bits {model.eval(kernel_faces)} vs {model.eval(spec_faces)})"
                    )

                label = f"hole {cell_name(hole)}, push {push}"
                claim = z3.And(kernel == spec, kernel_faces == spec_faces)
                entries.append((label, claim, explain))
        claim = z3.And([claim for _, claim, _ in entries])
        domain = z3.And([*holes, z3.UGE(card, 1), z3.ULE(card, 10)])
        proved, _ = refute(claim, lambda m: "", timeout=timeout, assuming=[domain])
        if proved:
            return True, "", f"{len(entries)} table entries"
        solver = z3.Solver()
        solver.add(domain, z3.Not(claim))
        if z3_check(solver, deadline=Deadline(timeout)) != z3.sat:
            return False, f"z3 answered unknown ({solver.reason_unknown()}): not a proof", ""
        return False, _first_failure(solver.model(), entries), ""

    return run


def not_into_hole(k: Kernels, timeout: float) -> Result:
    for variant in ("slide", "eject"):  # the spec first: its chains never start at the hole
        for hole in CELLS:
            for push in legal_pushes(hole, variant):
                if push_chain(hole, push, variant)[0] == hole:
                    return (
                        False,
                        f"dekal_ref: {variant} push {push} enters the hole {cell_name(hole)}",
                        "",
                    )
    b = k.bits
    entries: list[tuple[str, BoolExpr, Callable[[Any], str]]] = []
    domain: list[BoolExpr] = []
    for hole in CELLS:
        word, is_hole = _holed_grid(hole, "n")
        domain += [is_hole, _cards(word, hole)]
        for variant in ("slide", "eject"):
            for push, step in k.legal[variant][hole]:
                after = b.push_grid(b.sym(word), step, TAG).bv
                landed = nibbles(after)[hole]

                def explain(model: Any, word: Any = word, after: Any = after) -> str:
                    return (
                        f"grid {grid_of(model, word)}: the card lands in the hole: "
                        f"{grid_of(model, after)}"
                    )

                entries.append(
                    (f"{variant} hole {cell_name(hole)} push {push}", landed != TAG, explain)
                )
    claim = z3.And([c for _, c, _ in entries])
    proved, _ = refute(claim, lambda m: "", timeout=timeout, assuming=domain)
    if proved:
        return True, "", f"{len(entries)} table entries and the spec's chains"
    solver = z3.Solver()
    solver.add(*domain, z3.Not(claim))
    if z3_check(solver, deadline=Deadline(timeout)) != z3.sat:
        return False, f"z3 answered unknown ({solver.reason_unknown()}): not a proof", ""
    return False, _first_failure(solver.model(), entries), ""


def slide_counts(k: Kernels, timeout: float) -> Result:
    hole = z3.BitVec("hole", 4)
    row, column = z3.UDiv(hole, 4), z3.URem(hole, 4)
    on_edge_row = z3.Or(row == 0, row == 3)
    on_edge_column = z3.Or(column == 0, column == 3)
    expected = z3.If(
        z3.And(on_edge_row, on_edge_column),
        z3.BitVecVal(2, 4),
        z3.If(z3.Or(on_edge_row, on_edge_column), z3.BitVecVal(3, 4), z3.BitVecVal(4, 4)),
    )
    table = z3.BitVecVal(0, 4)
    spec = z3.BitVecVal(0, 4)
    for cell in CELLS:
        table = z3.If(hole == cell, z3.BitVecVal(len(k.legal["slide"][cell]), 4), table)
        spec = z3.If(hole == cell, z3.BitVecVal(len(legal_pushes(cell, "slide")), 4), spec)

    def explain(model: Any) -> str:
        cell = model.eval(hole, model_completion=True).as_long()
        return (
            f"hole {cell_name(cell)}: the table allows {model.eval(table)} slide pushes, "
            f"the spec {model.eval(spec)}, the rule (P1) says {model.eval(expected)}"
        )

    proved, counterexample = refute(
        z3.And(table == expected, spec == expected), explain, timeout=timeout
    )
    return proved, counterexample, ""


BIN = 5  # bits per value in a histogram: counts up to 31, and a grid has 16 cells
BINS = 16  # one bin per 4-bit value 0..15 (so a stray 11..15 is counted too)


def histogram(values: list[BoolExpr]) -> BoolExpr:
    """The multiset of 4-bit values as one word: bin v (BIN bits) counts the cells holding v.

    Injective on multisets of at most 31 values, so equal histograms mean equal multisets.
    """
    width = BIN * BINS
    return z3.Sum([z3.BitVecVal(1, width) << (BIN * z3.ZeroExt(width - 4, v)) for v in values])


def _conserves(variant: str) -> Callable[[Kernels, float], Result]:
    def run(k: Kernels, timeout: float) -> Result:
        b = k.bits
        card = z3.BitVec("card", 4)
        entries: list[tuple[str, BoolExpr, Callable[[Any], str]]] = []
        domain: list[BoolExpr] = [z3.UGE(card, 1), z3.ULE(card, 10)]
        for hole in CELLS:
            word, is_hole = _holed_grid(hole, "c")
            domain += [is_hole, _cards(word, hole)]
            before = nibbles(word)
            had = histogram(before)
            for push, step in k.legal[variant][hole]:
                after = nibbles(b.push_grid(b.sym(word), step, b.sym(z3.ZeroExt(60, card))).bv)
                # before − the hole (one 0) + the card == after, as multisets
                balanced = histogram(after) + histogram([z3.BitVecVal(0, 4)]) == had + histogram(
                    [card]
                )

                def explain(model: Any, word: Any = word, after: list[Any] = after) -> str:
                    return (
                        f"grid {grid_of(model, word)} + card {model.eval(card)} gives "
                        f"{grid_of(model, from_nibbles(after))}"
                    )

                entries.append((f"hole {cell_name(hole)}, push {push}", balanced, explain))
        claim = z3.And([c for _, c, _ in entries])
        proved, _ = refute(claim, lambda m: "", timeout=timeout, assuming=domain)
        if proved:
            return True, "", f"{len(entries)} table entries"
        solver = z3.Solver()
        solver.add(*domain, z3.Not(claim))
        if z3_check(solver, deadline=Deadline(timeout)) != z3.sat:
            return False, f"z3 answered unknown ({solver.reason_unknown()}): not a proof", ""
        return False, _first_failure(solver.model(), entries), ""

    return run


OBLIGATIONS = (
    Obligation(
        "push.table-slide",
        "P1: every slide table entry equals the spec's push, for every grid, hole, side and card "
        "(faces travel with their cards)",
        _table("slide"),
    ),
    Obligation(
        "push.table-eject",
        "P2: every eject table entry equals the spec's push, for every grid, hole, side, line "
        "and card (faces travel with their cards)",
        _table("eject"),
    ),
    Obligation(
        "push.not-into-hole",
        "P1/P2: no legal push puts the incoming card straight into the hole (table and spec)",
        not_into_hole,
    ),
    Obligation(
        "push.slide-counts",
        "P1: a corner hole allows 2 slide pushes, an edge hole 3, an inner hole 4 (table and spec)",
        slide_counts,
    ),
    Obligation(
        "push.conserves-slide",
        "T4/P1: after a slide push the grid holds the cards before plus the new one, none lost",
        _conserves("slide"),
    ),
    Obligation(
        "push.conserves-eject",
        "T4/P2: after an eject push the grid holds the cards before plus the new one, none lost",
        _conserves("eject"),
    ),
)
