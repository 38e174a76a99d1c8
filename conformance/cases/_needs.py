"""What a case needs from an engine, what the engine claims in hello, and which cases are core.

Every case carries `needs` (spec/schemas/conformance-case.schema.json): a player count, a
push variant, a first-player rule, optional features. Each is one `Need`, written the way
reports group skipped cases: `players: 5`, `push: eject`, `first: lowest`, `feature: perft`.

A need is *optional* when an engine may leave it unclaimed: the eject push (P2), the
lowest-card rule (F1–F2), and every feature (`match`, `perft`…). Any player count from 2 to
6 (M2), the slide push (P1) and the chosen first player (F3) are not optional.

A case *depends* on an optional need when what it tests belongs to it: the lowest-card rule
to F1/F2, eject to P2, match to S4/F4/M5, perft to perft cases; an optional need this table
does not know is always depended on. A case that needs an optional thing without depending
on it (a T1 refusal set up with the lowest-card rule) could have been written without it.
*Core* cases depend on nothing optional: "core coverage" (dekal.conformance.judge._coverage) is
judged on them, the figure a chosen-only, single-round engine is judged on.
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal.conformance.cases._vectors import Case
from dekal.conformance.drive._protocol import Message

CORE_VARIANTS = {"push": "slide", "first": "chosen"}
PLAYER_COUNTS = range(2, 7)  # M2: a count outside is one every engine must refuse, not a need


@dataclass(frozen=True, order=True)
class Need:
    """One thing a case needs: `name` is players, push, first or feature."""

    name: str
    value: str

    def __str__(self) -> str:
        return f"{self.name}: {self.value}"

    @property
    def optional(self) -> bool:
        """True when an engine may leave it unclaimed and still be complete (see the module)."""
        if self.name == "players":
            return False
        if self.name in CORE_VARIANTS:
            return self.value != CORE_VARIANTS[self.name]
        return True


def needs_of(case: Case) -> list[Need]:
    """The needs of a case, in the order players, push, first, features."""
    needs = case.get("needs", {})
    found: list[Need] = []
    players = needs.get("players")
    if isinstance(players, int) and players in PLAYER_COUNTS:
        found.append(Need("players", str(players)))
    found.extend(Need(name, str(needs[name])) for name in ("push", "first") if name in needs)
    found.extend(Need("feature", str(feature)) for feature in needs.get("features", []))
    return found


def claims(info: Message, need: Need) -> bool:
    """Whether an engine's hello claims `need`."""
    raw_variants = info.get("variants")
    variants: dict[str, object] = raw_variants if isinstance(raw_variants, dict) else {}
    if need.name == "players":
        return int(need.value) in _listed(info.get("players"))
    if need.name == "feature":
        return need.value in _listed(info.get("features"))
    return need.value in _listed(variants.get(need.name))


def _listed(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def unmet_needs(case: Case, info: Message) -> list[Need]:
    return [need for need in needs_of(case) if not claims(info, need)]


def skip_reason(unmet: list[Need]) -> str:
    """The one-line reason a case is skipped, the key skipped cases are grouped by."""
    return f"needs {', '.join(map(str, unmet))} (not claimed)"


OPTIONAL_RULES = {
    Need("first", "lowest"): frozenset({"F1", "F2"}),
    Need("push", "eject"): frozenset({"P2"}),
    Need("feature", "match"): frozenset({"S4", "F4", "M5"}),
}
"""The rules that exist only with an optional need (perft is a kind of case, not a rule)."""


def depends_on(case: Case, need: Need) -> bool:
    """Whether what `case` tests belongs to the optional `need` (see the module)."""
    if need == Need("feature", "perft"):
        return bool(case["kind"] == "perft")
    rules = OPTIONAL_RULES.get(need)
    return rules is None or bool(rules & set(case["rules"]))


def is_core(case: Case) -> bool:
    """A case every engine is judged on: it depends on nothing optional."""
    return not any(need.optional and depends_on(case, need) for need in needs_of(case))


# `--smoke`: a few cases that still touch every rule with every kind of case.
#
# For each (rule, kind) pair of the cases asked for, one case: the shortest one the engine
# claims (fewest steps), chosen greedily so that a case covering several pairs serves them
# all. A pair only unclaimed cases cover gets one of them too, so that the report shows it
# skipped instead of silently absent.


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
