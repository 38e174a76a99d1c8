"""The worked examples of spec/solo-unknown.md are tests: each `example unknown` block is
checked against the literal brute force on the reference engine (unknown_brute) and against
the solver's answer (U5, U6, U7, U9)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
import unknown_brute as brute

from dekal.proofs._unknown.answer import answer
from dekal.proofs._unknown.position import UNKNOWN, UnknownPosition, make_unknown
from dekal_ref.notation import cell_name, parse_push, parse_value

PAGE = Path(__file__).resolve().parents[3] / "spec" / "solo-unknown.md"
FENCE = re.compile(r"^```example unknown\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
EXAMPLES = [match.group(1) for match in FENCE.finditer(PAGE.read_text(encoding="utf-8"))]


def fields(block: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in block.splitlines():
        if line.strip():
            key, _, rest = line.partition(" ")
            out.setdefault(key, []).append(rest.strip())
    return out


def position_of(block: dict[str, list[str]]) -> UnknownPosition:
    unseen = block["unseen"][0]
    return make_unknown(
        block["grid"][0], unseen=None if unseen == "deck" else unseen, variant=block["variant"][0]
    )


def reference_of(position: UnknownPosition) -> tuple[tuple[int, ...], dict[int, int]]:
    grid = tuple(brute.UNSEEN if v == UNKNOWN else v for v in position.grid)
    return grid, {v: position.unseen[v - 1] for v in range(1, 11)}


def test_the_page_has_worked_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("block", EXAMPLES, ids=lambda b: fields(b)["grid"][0])
def test_the_worked_example_is_what_the_brute_force_and_the_solver_find(block: str) -> None:
    example = fields(block)
    position = position_of(example)
    grid, unseen = reference_of(position)
    variant = position.variant
    found = answer(position)
    stated = {
        "guaranteed": Fraction(example["guaranteed"][0]),
        "expected": Fraction(example["expected"][0]),
        "perfect": Fraction(example["perfect"][0]),
    }
    assert brute.guaranteed(grid, unseen, variant) == stated["guaranteed"] == found.guaranteed.upper
    assert brute.expected(grid, unseen, variant) == stated["expected"] == found.expected.upper
    assert found.perfect_information.upper == stated["perfect"]
    if len(position.face_down) <= 2 and position.unseen_total <= 5:
        assert brute.perfect_information(grid, unseen, variant) == stated["perfect"]
    assert found.proved
    assert cell_name(found.expected_first.reveal) == example["reveal"][0]
    for cell in example.get("reveal-guaranteed", []):
        assert cell_name(found.guaranteed_first.reveal) == cell
    table = {v: (push, after) for v, push, after in found.expected_first.push_by_value}
    for line in example.get("push", []):
        value, push, after = line.split()
        assert table[parse_value(value)] == (parse_push(push), Fraction(after))
