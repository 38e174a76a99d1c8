"""The proof obligations: all proved on the real engine, and each kind FAILS, with a genuine
counterexample, when a constant, a kernel or a table entry is deliberately wrong.

Mutants are built with `proofs.obligation.mutant` (a copy of dekal.bits whose functions see a
replaced name) or a copied push table: the real modules are never edited.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from dekal import bits, tables
from dekal.proofs._obligations import bounds as ob_bounds
from dekal.proofs._obligations import push as ob_push
from dekal.proofs._obligations import reach as ob_reach
from dekal.proofs._obligations import score as ob_score
from dekal.proofs._obligations import symmetry as ob_symmetry
from dekal.proofs._obligations import unknown as ob_unknown
from dekal.proofs._obligations.catalogue import OBLIGATIONS
from dekal.proofs._obligations.obligation import Kernels, Obligation, mutant
from dekal_ref.scoring import cancelled_cells, score_grid


def by_name(name: str) -> Obligation:
    return next(o for o in OBLIGATIONS if o.name == name)


def grid_in(text: str) -> tuple[int, ...]:
    """The first grid written in a counterexample ('.' is 0, T is 10, A-F are 10-15)."""
    match = re.search(
        r"[0-9A-F.]{4}/[0-9A-F.]{4}/[0-9A-F.]{4}/[0-9A-F.]{4}", text.replace("T", "A")
    )
    assert match, f"no grid in: {text}"
    return tuple(0 if s == "." else int(s, 16) for s in match.group(0).replace("/", ""))


def nibble_set(word: int) -> frozenset[int]:
    return frozenset(c for c in range(16) if (word >> (4 * c)) & 1)


def test_every_obligation_is_proved_on_the_real_engine(every_verdict: dict[str, Any]) -> None:
    verdicts = json.loads(every_verdict["stdout"])["obligations"]
    failed = [(v["name"], v["counterexample"]) for v in verdicts if not v["proved"]]
    assert not failed
    assert {v["name"] for v in verdicts} == {o.name for o in OBLIGATIONS}
    assert len(verdicts) >= 16


def test_the_catalogue_covers_every_module() -> None:
    modules = (ob_score, ob_push, ob_symmetry, ob_bounds, ob_reach, ob_unknown)
    assert sum(len(m.OBLIGATIONS) for m in modules) == len(OBLIGATIONS)


def test_a_wrong_cancellation_constant_is_caught_with_a_real_counterexample() -> None:
    broken = mutant(
        bits, NOT_LAST_COLUMN=0x1111_1111_1111_1111
    )  # lets column d see a1 of the next row
    verdict = by_name("score.cancellation").check(Kernels(bits=broken))
    assert not verdict.proved
    grid = grid_in(verdict.counterexample)
    # the counterexample is genuine: the broken kernel and the spec disagree on it
    assert nibble_set(broken.cancelled(bits.pack(grid))) != cancelled_cells(grid)
    assert nibble_set(bits.cancelled(bits.pack(grid))) == cancelled_cells(grid)
    assert bits.NOT_LAST_COLUMN == 0x0111_0111_0111_0111  # the real module is untouched


def test_a_wrong_summing_constant_is_caught() -> None:
    broken = mutant(bits, BYTE_ONES=0x0101_0101_0101_0100)  # forgets the lowest byte
    verdict = by_name("score.sum-bytes").check(Kernels(bits=broken))
    assert not verdict.proved
    numbers = [int(n) for n in re.findall(r"\d+", verdict.counterexample.split("]")[0])]
    assert len(numbers) == 8 and all(n <= 30 for n in numbers)
    assert by_name("score.sum-bytes").check().proved


def test_a_kernel_that_forgets_vertical_neighbours_fails_two_obligations() -> None:
    def across_only(grid: Any) -> Any:
        """bits.cancelled without its `below` half: equal cards one above the other survive."""
        across = grid ^ (grid >> bits.NIBBLE)
        across = across | (across >> 1)
        across = across | (across >> 2)
        filled = grid | (grid >> 1)
        filled = filled | (filled >> 2)
        has_right = filled & bits.NOT_LAST_COLUMN
        right = has_right ^ (across & has_right)
        return right | (right << bits.NIBBLE)

    broken = mutant(bits, cancelled=across_only)
    verdict = by_name("score.cancellation").check(Kernels(bits=broken))
    assert not verdict.proved
    grid = grid_in(verdict.counterexample)
    assert nibble_set(broken.cancelled(bits.pack(grid))) != cancelled_cells(grid)
    # a quarter turn swaps rows and columns, so the broken kernel is not symmetric either
    assert not by_name("symmetry.cancellation").check(Kernels(bits=broken)).proved


def _legal_with(variant: str, hole: int, change: Any) -> dict[str, Any]:
    """A copy of the push table whose entries for one hole pass through `change`."""
    legal = {v: list(tables.LEGAL[v]) for v in tables.LEGAL}
    legal[variant][hole] = tuple(change(list(tables.LEGAL[variant][hole])))
    return {v: tuple(rows) for v, rows in legal.items()}


def test_a_wrong_push_table_entry_is_caught_and_named() -> None:
    def wrong_shift(entries: list[Any]) -> list[Any]:
        push, step = entries[0]
        return [
            (push, dataclasses.replace(step, move_up=step.move_down, move_down=step.move_up)),
            *entries[1:],
        ]

    legal = _legal_with("slide", 5, wrong_shift)
    verdict = by_name("push.table-slide").check(Kernels(legal=legal))
    assert not verdict.proved
    assert verdict.counterexample.startswith("hole b2, push")
    assert by_name("push.conserves-slide").check(Kernels(legal=legal)).proved is False


def test_a_push_straight_into_the_hole_is_caught() -> None:
    hole = 0  # a1: entering from the left or the top would drop the card straight in
    _, from_right = tables.LEGAL["slide"][hole][0]  # R: d1 c1 b1 slide towards a1
    into_hole = dataclasses.replace(from_right, entry=hole)  # ... but the card enters at a1
    from dekal_ref.notation import Push

    legal = _legal_with("slide", hole, lambda entries: [*entries, (Push("L"), into_hole)])
    verdict = by_name("push.not-into-hole").check(Kernels(legal=legal))
    assert not verdict.proved and "slide hole a1 push L" in verdict.counterexample
    table = by_name("push.table-slide").check(Kernels(legal=legal))
    assert not table.proved and "also allows L" in table.counterexample
    counts = by_name("push.slide-counts").check(Kernels(legal=legal))
    assert not counts.proved and "hole a1" in counts.counterexample


def test_a_push_that_loses_a_card_breaks_conservation() -> None:
    def leaky(entries: list[Any]) -> list[Any]:
        push, step = entries[0]
        return [(push, dataclasses.replace(step, move=0)), *entries[1:]]  # nothing steps along

    legal = _legal_with("eject", 10, leaky)
    verdict = by_name("push.conserves-eject").check(Kernels(legal=legal))
    assert not verdict.proved and verdict.counterexample.startswith("hole c3")
    grid = grid_in(verdict.counterexample)
    assert grid[10] == 0  # the counterexample grid has its hole where the entry says


def test_the_deck_bounds_come_with_witnesses_the_reference_engine_confirms() -> None:
    for name in ("bounds.highest", "bounds.lowest"):
        verdict = by_name(name).check()
        assert verdict.proved
        value = int(re.search(r"score (\d+)", verdict.detail).group(1))  # type: ignore[union-attr]
        grid = grid_in(verdict.detail)
        assert score_grid(grid).points == value
        assert all(grid.count(v) <= 10 for v in range(1, 11))
    # 152: the tens can hold at most one colour of a checkerboard (8 cells), the rest ≤ 9
    assert "152" in by_name("bounds.highest").check().detail


def test_a_time_out_is_a_failure_never_a_proof() -> None:
    verdict = by_name("score.sum-bytes").check(timeout=1e-6)  # takes ~0.25 s when given time
    assert not verdict.proved
    assert "unknown" in verdict.counterexample
