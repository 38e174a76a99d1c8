"""How much of the suite a run covers: per rule, and as two headline figures (docs/validate.md,
"Coverage").

* **must-level coverage of what you claim**: `must` cases passed ÷ `must` cases whose needs
  the engine claims in hello. 100% means: everything you say you do, you do. A case an
  engine cannot run in its mode (it deals its own and does not claim `position`: the case
  gives a deal) is not claimed: it is counted apart, as "cannot be run in this mode".
* **core coverage**: core `must` checks run ÷ core `must` checks, where a check is a case
  (or a case and its twin under the other first-player rule, counted once) and a core case
  depends on nothing optional (dekal.conformance.cases._needs: it tests no rule of the eject push,
  the lowest-card rule or matches, and is not a perft case). It is the figure a chosen-only,
  single-round engine is judged on: below 100% when such an engine skips cases it should
  be judged on (a player count it does not claim, or a case that needs an optional thing
  it does not test).

Both are computed from the cases' `needs`, over the cases the run was asked for (all of
the suite unless --filter or --smoke narrowed it), so they hold for whatever suite is loaded.
`python -m dekal.conformance.judge._coverage` prints the "What skipping costs" table of the doc.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from dekal.conformance.cases._needs import Need, is_core, needs_of, skip_reason, unmet_needs
from dekal.conformance.cases._own_deal import MODE_REASON, cannot_run
from dekal.conformance.cases._vectors import Case
from dekal.conformance.drive._protocol import Message
from dekal.conformance.judge._runner import Outcome, Run

RULE_ORDER = [
    f"{letter}{n}"
    for letter, count in (("M", 5), ("T", 5), ("P", 2), ("F", 4), ("S", 4), ("B", 1))
    for n in range(1, count + 1)
]


def rule_key(rule: str) -> int:
    return RULE_ORDER.index(rule) if rule in RULE_ORDER else len(RULE_ORDER)


@dataclass(frozen=True)
class Figure:
    """A headline ratio: `passed` (or run) of `of`."""

    name: str
    count: int
    of: int

    @property
    def ratio(self) -> float | None:
        return self.count / self.of if self.of else None

    def __str__(self) -> str:
        share = "n/a" if self.ratio is None else f"{100 * self.ratio:.1f}%"
        return f"{self.name}: {share} ({self.count} of {self.of})"

    def as_json(self) -> dict[str, object]:
        return {"count": self.count, "of": self.of, "ratio": self.ratio}


@dataclass
class RuleCoverage:
    """One rule's cases in one run (a case counts under every rule it lists)."""

    rule: str
    cases: int = 0  # cases asked for that list the rule
    claimed: int = 0  # of these, whose needs the engine claims
    run: int = 0  # actually played (not skipped, not cut short)
    passed: int = 0
    skipped_cases: int = 0
    skipped: Counter[str] = field(default_factory=Counter)  # unclaimed need -> cases it skips

    def as_json(self) -> dict[str, object]:
        return {
            "cases": self.cases,
            "claimed": self.claimed,
            "run": self.run,
            "passed": self.passed,
            "skipped": self.skipped_cases,
            "skipped_by_need": dict(self.skipped.most_common()),
        }


def ran(outcome: Outcome) -> bool:
    """Played on the engine: not skipped, and not given up because the engine died."""
    return outcome.status != "skip" and not outcome.message.startswith("not run")


def passed(outcome: Outcome) -> bool:
    """The engine behaved as the rules say (an unexpected pass is still a pass)."""
    return outcome.status in ("pass", "xpass")


def claimed(case: Case, info: Message) -> bool:
    """The engine claims what the case needs, and can run it in its mode: an engine that
    deals its own and does not claim `position` cannot run a case that gives a deal
    (dekal.conformance.cases._own_deal). Such a case is counted apart (`cannot_run_count`), never
    as claimed and not passed."""
    return not unmet_needs(case, info) and not cannot_run(case, info)


def cannot_run_count(run: Run) -> int:
    """Cases asked for whose needs the engine claims but that it cannot run in its mode."""
    cases = run.cases or [o.case for o in run.outcomes]
    return sum(
        1 for case in cases if not unmet_needs(case, run.info) and cannot_run(case, run.info)
    )


def rule_coverage(run: Run) -> dict[str, RuleCoverage]:
    """rule ID -> its coverage, in rule order."""
    outcomes = {id(o.case): o for o in run.outcomes}
    table: dict[str, RuleCoverage] = {}
    for case in run.cases or [o.case for o in run.outcomes]:
        outcome = outcomes.get(id(case))
        for rule in case["rules"]:
            row = table.setdefault(rule, RuleCoverage(rule))
            row.cases += 1
            row.claimed += claimed(case, run.info)
            if outcome is None:
                continue
            row.run += ran(outcome)
            row.passed += passed(outcome)
            if outcome.status == "skip":
                row.skipped_cases += 1
                row.skipped.update(str(need) for need in unmet_needs(case, run.info))
                if cannot_run(case, run.info):
                    row.skipped.update(["a given deal or position"])
    return dict(sorted(table.items(), key=lambda item: rule_key(item[0])))


def skip_reasons(run: Run) -> Counter[str]:
    """Skipped cases grouped by the need they lack: "needs first: lowest (not claimed)" -> 42
    (a case that lacks two needs is counted under both)."""
    reasons = Counter(
        skip_reason([need])
        for o in run.outcomes
        if o.status == "skip"
        for need in unmet_needs(o.case, run.info)
    )
    reasons.update(
        o.message for o in run.outcomes if o.status == "skip" and o.message == MODE_REASON
    )
    return reasons


def must_cases(run: Run) -> list[Case]:
    return [case for case in run.cases or [o.case for o in run.outcomes] if is_must(case)]


def is_must(case: Case) -> bool:
    return bool(case.get("level", "must") == "must")


def claimed_coverage(run: Run) -> Figure:
    """`must` cases passed ÷ `must` cases whose needs the engine claims."""
    outcomes = {id(o.case): o for o in run.outcomes}
    mine = [case for case in must_cases(run) if claimed(case, run.info)]
    good = sum(1 for case in mine if id(case) in outcomes and passed(outcomes[id(case)]))
    return Figure("must-level coverage of what you claim", good, len(mine))


def core_coverage(run: Run) -> Figure:
    """Core `must` checks run ÷ core `must` checks (a core case depends on nothing optional).

    A check is a case, or a case and its twin: the same check written under the other
    first-player rule (TWIN_OF), so that an engine with either rule can be judged on it. A
    check is run when either case of it is."""
    outcomes = {id(o.case): o for o in run.outcomes}
    core = [case for case in must_cases(run) if is_core(case)]
    present = {str(case["id"]) for case in core}
    twins = twin_of()
    checks: dict[str, bool] = {}
    for case in core:
        name = str(case["id"])
        twin = twins.get(name)
        key = min(name, twin) if twin in present else name
        done = id(case) in outcomes and ran(outcomes[id(case)])
        checks[key] = checks.get(key, False) or done
    return Figure("core coverage", sum(checks.values()), len(checks))


def twin_of() -> dict[str, str]:
    """Case ID -> the ID of its twin under the other first-player rule, as the suite's source
    pairs them (IDs never change, so the pairs hold for the frozen vectors). Reading a suite's
    sources is what registers its twins: every suite is read first, so the pairs do not
    depend on what this process happened to read before."""
    from dekal.conformance.cases._source_files import TWIN_OF
    from dekal.conformance.cases._suites import v1, v2, v3, v4  # noqa: F401  (they register)

    return TWIN_OF


def coverage_json(run: Run) -> dict[str, object]:
    return {
        "claimed": claimed_coverage(run).as_json(),
        "core": core_coverage(run).as_json(),
        "skipped": dict(skip_reasons(run).most_common()),
        "cannot_run": {"count": cannot_run_count(run), "reason": MODE_REASON},
        "rules": {rule: row.as_json() for rule, row in rule_coverage(run).items()},
    }


def coverage_text(run: Run) -> str:
    """The coverage section of the text report."""
    lines = ["coverage", f"  {claimed_coverage(run)}", f"  {core_coverage(run)}"]
    apart = cannot_run_count(run)
    if apart:
        lines.append(
            f"  cannot be run in this mode: {apart} case{'' if apart == 1 else 's'} "
            f"({MODE_REASON}; not counted as claimed)"
        )
        ids = [o.id for o in run.outcomes if o.status == "skip" and o.message == MODE_REASON]
        more = f", … and {len(ids) - 8} more (--json lists each)" if len(ids) > 8 else ""
        lines.append(f"    {', '.join(ids[:8])}{more}")
    reasons = skip_reasons(run)
    if reasons:
        skipped = run.count("skip")
        lines.append(f"  skipped {skipped} case{'' if skipped == 1 else 's'}, by what they need:")
        lines.extend(f"    {reason}: {count}" for reason, count in reasons.most_common())
    lines.append("  rule  claimed  run  passed  skipped")
    for rule, row in rule_coverage(run).items():
        needs = ", ".join(f"{need} {n}" for need, n in row.skipped.most_common())
        why = f"  ({needs})" if needs else ""
        lines.append(
            f"  {rule:<5}{row.claimed:>8}{row.run:>5}{row.passed:>8}{row.skipped_cases:>9}{why}"
        )
    return "\n".join(lines)


# -- what not claiming a variant or feature costs (docs/validate.md) -----------------------
@dataclass(frozen=True)
class Cost:
    """What leaving one optional need unclaimed costs: the `must` cases skipped, the rules
    left with no case at all, and the rules left with fewer."""

    need: Need
    skipped: int
    lost: tuple[str, ...]
    thinned: tuple[tuple[str, int, int], ...]  # (rule, cases lost, cases it had)


NEED_ORDER = ("players", "push", "first", "feature")


def skipping_costs(cases: list[Case]) -> list[Cost]:
    """One Cost per optional need found in `cases`, in the order push, first, features."""
    must = [case for case in cases if is_must(case)]
    found = {need for case in must for need in needs_of(case) if need.optional}
    optional = sorted(found, key=lambda need: (NEED_ORDER.index(need.name), need.value))
    per_rule = Counter(rule for case in must for rule in case["rules"])
    costs = []
    for need in optional:
        gone = [case for case in must if need in needs_of(case)]
        lost_per_rule = Counter(rule for case in gone for rule in case["rules"])
        rules = sorted(lost_per_rule, key=rule_key)
        lost = tuple(rule for rule in rules if lost_per_rule[rule] == per_rule[rule])
        thinned = tuple(
            (rule, lost_per_rule[rule], per_rule[rule]) for rule in rules if rule not in lost
        )
        costs.append(Cost(need, len(gone), lost, thinned))
    return costs


def costs_markdown(cases: list[Case]) -> str:
    """The "What skipping costs" table of docs/validate.md, from the suite's data."""
    lines = [
        "| not claimed | `must` cases skipped | rules left with no case | rules left with fewer |",
        "| --- | ---: | --- | --- |",
    ]
    for cost in skipping_costs(cases):
        lost = ", ".join(cost.lost) or "none"
        thinned = ", ".join(f"{rule} (−{n} of {total})" for rule, n, total in cost.thinned)
        lines.append(f"| `{cost.need}` | {cost.skipped} | {lost} | {thinned or 'none'} |")
    return "\n".join(lines)


if __name__ == "__main__":
    from dekal.conformance.cases._vectors import load_cases

    print(costs_markdown(load_cases()))
