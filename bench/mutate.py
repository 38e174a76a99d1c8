"""Mutation testing: how much of the rule code does the conformance suite pin down? (issue 8)

Each *mutant* is one rule module of one engine with one small change (`<` made `<=`, `and`
made `or`, a constant off by one, a statement deleted, a `raise` removed…). A mutant runs the
whole conformance suite (by default the one `dekal conformance run` reads, the newest)
in-process, in a fresh worker process of its own, cheap cases first; it is *killed* when
some case fails, errors or times out (its run stops there), and *survives* when every case
passes. A surviving
mutant is a behaviour of the engine that no case checks, or an equivalent mutant (a change
that does not change behaviour), listed with its reason in bench/equivalent_mutants.json.

    python bench/mutate.py                          # both engines, every mutant
    python bench/mutate.py --sample 400 --seed 1    # 400 mutants drawn with seed 1
    python bench/mutate.py --engine ref --modules ranking scoring
    python bench/mutate.py --suite-dir spec/conformance/v2 --json
    python bench/mutate.py --only KEY...            # re-check listed survivors by their keys

The tree is never written to: a worker loads the mutated module from a changed syntax tree
through an import hook. Line coverage of one unmutated run (the `coverage` package) says which
mutants sit in code the suite executes; a mutant in code the suite never executes cannot
change any case's outcome, so it is counted as surviving without being run.

Exit codes: 0 the measurement was printed, 2 bad input (an unknown module, a missing suite
directory), 3 the unmutated engine does not pass the suite (nothing to measure against).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:  # its sibling modules, however this file is loaded (tests/)
    sys.path.insert(0, str(BENCH))

from mutant_worker import cheap_first, judge_mutant, run_worker, worker_main  # noqa: E402
from mutants import (  # noqa: E402
    RULE_MODULES,
    Mutant,
    diff_lines,
    module_file,
    mutants_of,
    mutated_tree,
)
from mutation_measure import (  # noqa: E402
    EQUIVALENTS_FILE,
    BaselineFails,
    Measurement,
    Result,
    Tally,
    default_suite,
    draw,
    measure,
    selected,
)

__all__ = [  # what tests/house/test_mutate.py and other callers reach through this module
    "RULE_MODULES",
    "Mutant",
    "cheap_first",
    "default_suite",
    "draw",
    "judge_mutant",
    "main",
    "measure",
    "module_file",
    "mutants_of",
    "mutated_tree",
    "run_worker",
]

TARGET = 97.0
"""Issue 8's target: at least this percentage of mutants in executed code killed."""


def shown_path(module: str) -> str:
    path = module_file(module)
    try:
        return str(path.relative_to(BENCH.parent))
    except ValueError:
        return str(path)


def text_report(found: Measurement) -> str:
    sampled = f"a sample of {found.sample} (seed {found.seed})" if found.sample else "all"
    lines = [
        f"Mutation testing: {', '.join(found.engines)}; {sampled} of {found.total_mutants} "
        f"mutants; suite {found.suite_dir} ({found.cases} cases); {found.seconds:.0f} s",
        "",
        f"{'module':<22}{'mutants':>8}{'executed':>9}{'killed':>7}{'timeout':>8}"
        f"{'survived':>9}{'equiv':>6}{'not run':>8}{'killed %':>9}",
    ]

    def row(name: str, t: Tally) -> str:
        return (
            f"{name:<22}{t.mutants:>8}{t.executed:>9}{t.killed:>7}{t.timeout:>8}"
            f"{t.survived:>9}{t.equivalent:>6}{t.not_executed:>8}{t.killed_executed:>8.1f}%"
        )

    for module, tally in found.tallies().items():
        lines.append(row(module, tally))
    total = found.total()
    lines += [
        row("total", total),
        "",
        f"killed in executed code: {total.killed_executed:.1f}% "
        f"(target ≥ {TARGET:.0f}%: {'met' if total.killed_executed >= TARGET else 'not met'}); "
        f"killed overall: {total.killed_overall:.1f}%",
        "('killed %' counts timeouts as killed, out of executed non-equivalent mutants; 'not "
        "run': mutants in lines the suite never executes, which survive without being run.)",
    ]
    survivors = [r for r in found.results if r.status == "survived"]
    if survivors:
        lines += ["", f"Survivors in executed code ({len(survivors)}):"]
        for result in survivors:
            lines += survivor_lines(result)
    equivalent = [r for r in found.results if r.status == "equivalent"]
    if equivalent:
        lines += ["", f"Equivalent mutants ({len(equivalent)}, see {EQUIVALENTS_FILE.name}):"]
        for result in equivalent:
            m = result.mutant
            lines.append(f"  {shown_path(m.module)}:{m.line}  {diff_lines(m)[1]}")
            lines.append(f"      ({result.reason})")
    if found.stale_equivalents:
        lines += ["", "Listed as equivalent but killed (remove from the list):"]
        lines += [f"  {note}" for note in found.stale_equivalents]
    return "\n".join(lines)


def survivor_lines(result: Result) -> list[str]:
    m = result.mutant
    before, after = diff_lines(m)
    return [
        f"  {shown_path(m.module)}:{m.line}  {m.function}  {m.operator}  key {m.key}",
        f"    - {before}",
        f"    + {after}",
    ]


def json_report(found: Measurement) -> dict[str, Any]:
    def counts(t: Tally) -> dict[str, Any]:
        return {**asdict(t), "killed_executed_percent": round(t.killed_executed, 2),
                "killed_overall_percent": round(t.killed_overall, 2)}  # fmt: skip

    return {
        "engines": found.engines, "seed": found.seed, "sample": found.sample,
        "total_mutants": found.total_mutants, "suite_dir": found.suite_dir,
        "cases": found.cases, "seconds": found.seconds,
        "modules": {name: counts(t) for name, t in found.tallies().items()},
        "total": counts(found.total()),
        "target_percent": TARGET,
        "survivors": [survivor_json(r) for r in found.results if r.status == "survived"],
        "equivalent": [survivor_json(r) for r in found.results if r.status == "equivalent"],
        "stale_equivalents": found.stale_equivalents,
    }  # fmt: skip


def survivor_json(result: Result) -> dict[str, Any]:
    m = result.mutant
    before, after = diff_lines(m)
    return {"key": m.key, "module": m.module, "file": shown_path(m.module), "line": m.line,
            "function": m.function, "operator": m.operator, "digest": m.digest,
            "before": before, "after": after, "reason": result.reason}  # fmt: skip


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python bench/mutate.py",
        description=(__doc__ or "").split("\n\n")[0],
        epilog=(__doc__ or "").split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--engine", choices=("ref", "fast", "both"), default="both",
        help="whose rule modules to mutate: dekal_ref, the optimized engine, or both",
    )  # fmt: skip
    parser.add_argument(
        "--modules", nargs="+", metavar="MODULE",
        help="only these rule modules (full or last name: ranking, dekal.bits)",
    )  # fmt: skip
    parser.add_argument("--sample", type=int, metavar="N", help="draw N mutants (default all)")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument(
        "--suite-dir", type=Path, metavar="DIR",
        help="a conformance suite directory (default: the suite `dekal conformance run` reads, "
        "the newest installed one)",
    )  # fmt: skip
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument(
        "--case-timeout", type=float, default=5.0, metavar="S",
        help="seconds one case may take before the mutant counts as hung (default 5)",
    )  # fmt: skip
    parser.add_argument(
        "--only", nargs="+", metavar="KEY",
        help="only the mutants with these keys (as listed under survivors): re-check them",
    )  # fmt: skip
    parser.add_argument(
        "--equivalents", type=Path, default=EQUIVALENTS_FILE, metavar="FILE",
        help="the mutants judged equivalent, with reasons (default bench/equivalent_mutants.json)",
    )  # fmt: skip
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    if args.worker:
        worker_main()
    engines = ["ref", "fast"] if args.engine == "both" else [args.engine]
    known = [m for e in engines for m in RULE_MODULES[e]]
    for wanted in args.modules or []:
        if not any(selected(m, [wanted]) for m in known):
            print(f"error: --modules: no rule module {wanted!r} in {', '.join(known)}",
                  file=sys.stderr)  # fmt: skip
            return 2
    suite_dir = (args.suite_dir or default_suite()).resolve()
    if not suite_dir.is_dir():
        print(f"error: --suite-dir: {suite_dir} is not a directory", file=sys.stderr)
        return 2
    if args.sample is not None and args.sample < 1:
        print("error: --sample: draw at least 1 mutant", file=sys.stderr)
        return 2
    try:
        found = measure(engines, args.modules, args.sample, args.seed, suite_dir, args.jobs,
                        args.case_timeout, args.equivalents, args.only)  # fmt: skip
    except BaselineFails as error:
        print(f"error: {error}", file=sys.stderr)
        return 3
    except (ValueError, KeyError, OSError) as error:
        print(f"error: --suite-dir: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(json_report(found), ensure_ascii=False))
    else:
        print(text_report(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
