"""`--smoke`: a few cases that still touch every rule with every kind of case.

For each (rule, kind) pair of the cases asked for, one case: the shortest one the engine
claims (fewest steps), chosen greedily so that a case covering several pairs serves them
all. A pair only unclaimed cases cover gets one of them too, so that the report shows it
skipped instead of silently absent.
"""

from __future__ import annotations

from dekal.conformance.needs import unmet_needs
from dekal.conformance.protocol import Message
from dekal.conformance.vectors import Case


def length(case: Case) -> int:
    """How long a case takes, in requests: its steps or script (single requests count 1)."""
    return len(case.get("steps", ())) + len(case.get("script", ())) + 1


def pairs(case: Case) -> set[tuple[str, str]]:
    return {(rule, str(case["kind"])) for rule in case["rules"]}


def smoke_cases(cases: list[Case], info: Message) -> list[Case]:
    """A small subset of `cases` covering every (rule, kind) pair, in suite order."""
    by_length = sorted(range(len(cases)), key=lambda index: length(cases[index]))
    claimed = [index for index in by_length if not unmet_needs(cases[index], info)]
    unclaimed = [index for index in by_length if unmet_needs(cases[index], info)]
    covered: set[tuple[str, str]] = set()
    chosen: set[int] = set()
    for index in claimed + unclaimed:
        new = pairs(cases[index]) - covered
        if new:
            chosen.add(index)
            covered |= new
    return [cases[index] for index in sorted(chosen)]
