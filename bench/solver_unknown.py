"""`dekal solve --unknown`'s answers against the brute force, as ratios (spec/solo-unknown.md).

    nice -n 10 .venv/bin/python bench/solver_unknown.py                  # k = 1..4, slide and eject
    nice -n 10 .venv/bin/python bench/solver_unknown.py --max-k 5 --positions 3 --json

For every k (unknown cells) and push rule, the same seeded positions (grids of --values
distinct values, k `?` cells, the deck's unseen cards) are given to
* brute: tests/solver/unknown/unknown_brute.py, the literal recursion on dekal_ref (no memo, no
  pruning: guaranteed and expected), only while its median stays under --limit, the
  yardstick of the ratios;
* python: proofs._unknown.search.solve(compiled=False), the memoised Python search;
* each answer as `dekal solve --unknown` computes it, on the kernels (their first calls
  compile or load them: those calls are not timed): `guaranteed` (solve_guaranteed: the
  value and its first step), `expected` (solve given the guarantee: U6's value and first
  step), `perfect` (known_optima: U9's mean, and the worst that bounds `guaranteed`).
Every method's values must agree (exit code 1 if not). Each row gives, per method, the
median and the largest CPU seconds of the process (numba runs on one core: `_cpu`, the
figure the issue's "on one core" asks for; `_cpu_each`, every position's in order) and of
the wall clock (`_wall`, which a loaded machine stretches), and the ratio of the medians to
the brute force (to python when the brute force was not run). A method whose median ×
GROWTH passes --limit is not run on larger k; one that passes --timeout (wall clock) on a
position is recorded as "timeout" (no value).
`--min-k 5 --max-k 5 --methods guaranteed,expected,perfect --limit 1e9` measures k = 5
alone (no yardstick runs there: absolute seconds only).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver" / "unknown"))

import unknown_brute as brute  # noqa: E402

from dekal.proofs._unknown.perfect import known_optima  # noqa: E402
from dekal.proofs._unknown.position import (  # noqa: E402
    UNKNOWN,
    UnknownPosition,
    format_unknown_grid,
    make_unknown,
)
from dekal.proofs._unknown.search import OutOfTime, solve, solve_guaranteed  # noqa: E402
from dekal.proofs.limits import Deadline  # noqa: E402

GROWTH = 30
"""About how much longer one more unknown cell makes a search (×10 values × pushes ÷ memo)."""


def positions(k: int, variant: str, count: int, values: int, seed: int) -> list[UnknownPosition]:
    rng = random.Random(f"{seed}-{k}-{variant}")
    out = []
    while len(out) < count:
        alphabet = rng.sample(range(1, 11), values)
        grid = [rng.choice(alphabet) for _ in range(16)]
        for cell in rng.sample(range(16), k):
            grid[cell] = UNKNOWN
        try:
            out.append(make_unknown(format_unknown_grid(tuple(grid)), variant=variant))
        except Exception:  # noqa: BLE001 - more than ten of a value: draw again
            continue
    return out


def brute_values(position: UnknownPosition) -> tuple[int, Fraction]:
    grid = tuple(brute.UNSEEN if v == UNKNOWN else v for v in position.grid)
    unseen = {v: position.unseen[v - 1] for v in range(1, 11)}
    return (
        brute.guaranteed(grid, unseen, position.variant),
        brute.expected(grid, unseen, position.variant),
    )


def timed(work: Any) -> tuple[float, float, Any]:
    """(CPU seconds of this process, wall seconds, the value) of one call."""
    began, cpu = time.perf_counter(), time.process_time()
    value = work()
    return time.process_time() - cpu, time.perf_counter() - began, value


METHODS = ("brute", "python", "guaranteed", "expected", "perfect")


def run(method: str, position: UnknownPosition, timeout: float) -> Any:
    """One method's values on one position: (guaranteed, expected), or perfect's mean."""
    deadline = Deadline(timeout)
    if method == "brute":
        return brute_values(position)
    if method == "python":
        exact = solve(position, compiled=False, deadline=deadline)
        return exact.guaranteed, exact.expected
    if method == "guaranteed":
        return solve_guaranteed(position, deadline=deadline, compiled=True)[0]
    if method == "expected":
        given = solve_guaranteed(position, compiled=True)
        return solve(position, deadline=deadline, compiled=True, guarantee=given).expected
    return known_optima(position, deadline=deadline, compiled=True).mean


def warm_up() -> None:
    """Load (or compile) the kernels once, outside the timings."""
    position = make_unknown("T133/1?11/?231/2231")
    for method in METHODS[2:]:
        run(method, position, 600.0)
    run("expected", make_unknown("T133/1??1/?231/2231", variant="eject"), 600.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-k", type=int, default=1)
    parser.add_argument("--max-k", type=int, default=4)
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--values", type=int, default=5)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--limit", type=float, default=10.0)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--variants", default="slide,eject")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    warm_up()
    rows, agree = [], True
    for variant in options.variants.split(","):
        slow = set(METHODS) - set(options.methods.split(","))
        for k in range(options.min_k, options.max_k + 1):
            row: dict[str, Any] = {"variant": variant, "k": k}
            cpu: dict[str, list[float]] = {m: [] for m in METHODS}
            wall: dict[str, list[float]] = {m: [] for m in METHODS}
            for position in positions(k, variant, options.positions, options.values, options.seed):
                values: dict[str, Any] = {}
                for method in METHODS:
                    if method in slow:
                        continue
                    try:
                        seconds, clock, values[method] = timed(
                            lambda m=method, p=position: run(m, p, options.timeout)
                        )
                    except OutOfTime:
                        row[f"{method}_timeout"] = row.get(f"{method}_timeout", 0) + 1
                        slow.add(method)
                        continue
                    cpu[method].append(seconds)
                    wall[method].append(clock)
                pairs = [values[m] for m in ("brute", "python") if m in values]
                if "guaranteed" in values and "expected" in values:
                    pairs.append((values["guaranteed"], values["expected"]))
                if len(set(pairs)) > 1:
                    agree = False
                    print(f"DISAGREE {position.describe()}: {pairs}", file=sys.stderr)
            base_name = "brute" if cpu["brute"] else "python"
            base = statistics.median(cpu[base_name]) if cpu[base_name] else None
            for method in METHODS:
                if not cpu[method]:
                    continue
                median = statistics.median(cpu[method])
                row[f"{method}_cpu"] = round(median, 4)
                row[f"{method}_cpu_max"] = round(max(cpu[method]), 4)
                row[f"{method}_cpu_each"] = [round(seconds, 2) for seconds in cpu[method]]
                row[f"{method}_wall"] = round(statistics.median(wall[method]), 4)
                row[f"{method}_wall_max"] = round(max(wall[method]), 4)
                if base and method != base_name:
                    row[f"{method}/{base_name}"] = round(median / base, 4)
                if median * GROWTH > options.limit:
                    slow.add(method)  # the next k would pass the limit
            rows.append(row)
            if not options.json:
                print(json.dumps(row), flush=True)
    if options.json:
        print(json.dumps({"rows": rows, "agree": agree}))
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
