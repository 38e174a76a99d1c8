"""The situation map (spec/situations.json): for each rule, the dimensions that change its
outcome, the constraints that make a combination of their values infeasible (each with why),
and which feasible combinations a set of situations reaches.

Coverage is combinatorial (issue 27; NIST's finding that nearly every fault needs at most two
or three factors to interact): every feasible pair of values of two dimensions of one rule
must appear in some situation, and every feasible triple for the rules the map lists under
`triples`. A situation is one step of a case as the reference plays it: the rule it applied
and the value of each of that rule's dimensions (dekal.conformance.judge._situations reads
them off the reference while a suite runs).
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources

Values = tuple[tuple[str, str], ...]
"""A situation's or a combination's values: (dimension, value) pairs, sorted by dimension."""
Combination = tuple[str, Values]
"""(rule, the values of two or three of its dimensions)."""


@dataclass(frozen=True)
class Constraint:
    """Values no situation has together (under `rules` only, when it names some), and why."""

    never: dict[str, frozenset[str]]
    why: str
    rules: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SituationMap:
    """spec/situations.json read: the dimensions and their values, each rule's dimensions,
    the rules whose triples count, and the constraints that make a combination infeasible."""

    dimensions: dict[str, tuple[str, ...]]
    rules: dict[str, tuple[str, ...]]
    triples: tuple[str, ...]
    constraints: tuple[Constraint, ...]

    def feasible(self, values: Values, rule: str = "") -> bool:
        """No constraint names every one of the combination's values on its dimensions."""
        return self.why_not(values, rule) is None

    def why_not(self, values: Values, rule: str = "") -> str | None:
        """Why the combination is infeasible (for `rule`), or None if it is feasible."""
        given = dict(values)
        for constraint in self.constraints:
            if constraint.rules and rule not in constraint.rules:
                continue
            never = constraint.never
            if set(never) <= set(given) and all(given[d] in ok for d, ok in never.items()):
                return constraint.why
        return None

    def combinations(self, rule: str) -> Iterator[Values]:
        """Every pair of values of two of the rule's dimensions (and triple, for the rules
        under `triples`), feasible or not."""
        sizes = (2, 3) if rule in self.triples else (2,)
        for size in sizes:
            for dims in itertools.combinations(sorted(self.rules[rule]), size):
                for chosen in itertools.product(*(self.dimensions[d] for d in dims)):
                    yield tuple(zip(dims, chosen, strict=True))

    def feasible_combinations(self) -> set[Combination]:
        return {
            (rule, values)
            for rule in self.rules
            for values in self.combinations(rule)
            if self.feasible(values, rule)
        }


@functools.cache
def situation_map() -> SituationMap:
    """spec/situations.json of the installed package, checked: every rule's dimensions and
    every constraint's values are ones the map defines."""
    data = json.loads(resources.files("dekal.spec").joinpath("situations.json").read_text("utf-8"))
    dimensions = {name: tuple(entry["values"]) for name, entry in data["dimensions"].items()}
    rules = {rule: tuple(dims) for rule, dims in data["rules"].items()}
    constraints = tuple(
        Constraint(
            {dim: frozenset(values) for dim, values in entry["never"].items()},
            str(entry["why"]),
            frozenset(entry.get("rules", ())),
        )
        for entry in data["constraints"]
    )
    for rule, dims in rules.items():
        unknown = [d for d in dims if d not in dimensions]
        if unknown:
            raise ValueError(f"situations.json: rule {rule} names no dimension {unknown[0]!r}")
    for constraint in constraints:
        for dim, values in constraint.never.items():
            if dim not in dimensions or not values <= set(dimensions[dim]):
                told = f"{constraint.why!r} names {dim}={sorted(values)}"
                raise ValueError(f"situations.json: the constraint {told}")
        unknown_rules = constraint.rules - set(rules)
        if unknown_rules:
            raise ValueError(f"situations.json: {constraint.why!r} names no rule {unknown_rules}")
    return SituationMap(dimensions, rules, tuple(data["triples"]), constraints)


def reached_combinations(situations: Iterable[tuple[str, Values]]) -> set[Combination]:
    """Every pair and triple of values that the situations reach, under their rule."""
    chart = situation_map()
    reached: set[Combination] = set()
    for rule, values in situations:
        sizes = (2, 3) if rule in chart.triples else (2,)
        for size in sizes:
            for chosen in itertools.combinations(values, size):
                reached.add((rule, chosen))
    return reached


def missing(situations: Iterable[tuple[str, Values]]) -> list[Combination]:
    """The feasible combinations no situation reaches, sorted by rule then values."""
    return sorted(situation_map().feasible_combinations() - reached_combinations(situations))


def describe(combination: Combination) -> str:
    rule, values = combination
    return f"{rule}: " + ", ".join(f"{d}={v}" for d, v in values)
