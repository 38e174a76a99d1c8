"""The search that writes suite v4's designs (spec/conformance/sources/v4/designs.jsonl):
for each combination of the situation map that the cases so far leave unreached, designs
(dekal.conformance.cases._v4_map_design.design_for) are tried until the reference's trace of
one's case reaches it; that design is kept, and what its case reaches besides is crossed off.

    python -m dekal.conformance.judge._map_search    # rewrite designs.jsonl, list what is left

It is run by hand when the map or the suite changes, then `python -m dekal.conformance.generate`
freezes v4 from the designs (the tests re-derive v4 from them, never search)."""

from __future__ import annotations

from typing import Any

from dekal.conformance.cases._designed_rounds import Shortage
from dekal.conformance.cases._generate_v4 import DESIGNS, write_designs
from dekal.conformance.cases._situation_map import (
    Combination,
    describe,
    reached_combinations,
    situation_map,
)
from dekal.conformance.cases._v4_design import Design, build
from dekal.conformance.cases._v4_map_design import design_for
from dekal.conformance.cases._v4_phases import (
    deal_cases,
    deal_refusal_cases,
    perft_cases,
    position_cases,
)
from dekal.conformance.judge._situations import SituationTracer, traced_situations

Case = dict[str, Any]


def trace_case(case: Case) -> set[tuple[str, Any]]:
    """The situations the reference reaches on one case (and, with a new round, as an
    own-deal engine is run)."""
    from dekal.conformance.judge._runner import run_case

    found: set[tuple[str, Any]] = set()
    for deals in ("given", "own") if _has_new_round(case) else ("given",):
        tracer = SituationTracer(deals)
        outcome = run_case(tracer, case, 30.0)
        if outcome.status != "pass":
            raise Shortage(f"{case['id']}: the reference fails its own case: {outcome.message}")
        found |= tracer.situations
    return found


def _has_new_round(case: Case) -> bool:
    return any("new_round" in step for step in case.get("steps", []))


def fill(
    reached: set[Combination], prefix: str = "game", attempts: int = 12
) -> tuple[list[tuple[Design, Case]], list[Combination]]:
    """Cases that reach every feasible game combination `reached` lacks (the rules played
    in games: every rule of the map but perft, deal and position), and what is left."""
    chart = situation_map()
    wanted = sorted(
        c
        for c in chart.feasible_combinations() - reached
        if c[0] not in ("perft", "deal", "position")
    )
    cases: list[tuple[Design, Case]] = []
    left: list[Combination] = []
    have = set(reached)
    for combination in wanted:
        if combination in have:
            continue
        rule, values = combination
        for attempt in range(attempts):
            design = design_for(rule, dict(values), attempt)
            if design is None or design.round > 50:
                continue
            try:
                case = build(design, f"{prefix}-{4001 + len(cases):04d}")
                found = reached_combinations(trace_case(case))
            except Shortage:
                continue
            if combination in found:
                cases.append((design, case))
                have |= found
                break
        else:
            left.append(combination)
    return cases, [c for c in left if c not in have]


def explain(left: list[Combination]) -> str:
    return "\n".join(describe(c) for c in left)


def search(out: Any) -> int:
    """Find designs for every combination the suite v3 and the unit families leave unreached;
    write them to `out`; print what is left."""
    from dekal.conformance.cases._generate import all_cases

    v3 = all_cases("v3")
    cases = [case for listed in v3.values() for case in listed]
    cases += perft_cases() + deal_cases() + position_cases() + deal_refusal_cases()
    found = traced_situations(cases)
    found |= traced_situations([c for c in cases if _has_new_round(c)], deals="own")
    kept, left = fill(reached_combinations(found))
    write_designs([design for design, _ in kept], out)
    print(f"{len(kept)} designs written to {out}; {len(left)} combinations left")
    for combination in left:
        print(f"  {describe(combination)}")
    return 1 if left else 0


if __name__ == "__main__":
    import sys
    from pathlib import Path

    target = Path(__file__).resolve().parents[2] / "spec" / "conformance" / "sources" / DESIGNS
    target.parent.mkdir(parents=True, exist_ok=True)
    sys.exit(search(target))
