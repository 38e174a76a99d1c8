"""`dekal solve --unknown`'s search against the brute force, as ratios (spec/solo-unknown.md).

    .venv/bin/python bench/solver_unknown.py                 # k = 1..4, slide and eject
    .venv/bin/python bench/solver_unknown.py --max-k 5 --positions 3 --json

For every k (unknown cells) and push rule, the same seeded positions (grids of --values
distinct values, k `?` cells, the deck's unseen cards) are given to
* brute: tests/solver/unknown_brute.py, the literal recursion on dekal_ref (no memo, no
  pruning), only while its median stays under --limit, the yardstick of the ratios;
* python: proofs._unknown_search.solve(compiled=False), the memoised Python search;
* compiled: the same search on the numba kernel (its first call compiles or loads it: that
  call is not timed);
* perfect: proofs._unknown_perfect.perfect_information (layouts × deals).
Every method's guaranteed and expected values must agree (exit code 1 if not). The table
prints the median seconds and the ratio of each to the brute force (or to python when the
brute force was not run). A method whose median × GROWTH passes --limit is not run on
larger k (the next would take longer than the limit).
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver"))

import unknown_brute as brute  # noqa: E402

from dekal.proofs._unknown_perfect import perfect_information  # noqa: E402
from dekal.proofs._unknown_position import (  # noqa: E402
    UNKNOWN,
    UnknownPosition,
    format_unknown_grid,
    make_unknown,
)
from dekal.proofs._unknown_search import solve  # noqa: E402
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


def timed(work: Any) -> tuple[float, Any]:
    began = time.perf_counter()
    value = work()
    return time.perf_counter() - began, value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-k", type=int, default=4)
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--values", type=int, default=5)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--limit", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    # load (or compile) the kernel once, outside the timings
    solve(make_unknown("T133/1?11/?231/2231"), compiled=True)
    rows, agree = [], True
    for variant in ("slide", "eject"):
        slow: set[str] = set()
        for k in range(1, options.max_k + 1):
            row: dict[str, Any] = {"variant": variant, "k": k}
            times: dict[str, list[float]] = {
                m: [] for m in ("brute", "python", "compiled", "perfect")
            }
            for position in positions(k, variant, options.positions, options.values, options.seed):
                answers = []
                if "brute" not in slow:
                    seconds, value = timed(lambda p=position: brute_values(p))
                    times["brute"].append(seconds)
                    answers.append(value)
                if "python" not in slow:
                    seconds, exact = timed(lambda p=position: solve(p, compiled=False))
                    times["python"].append(seconds)
                    answers.append((exact.guaranteed, exact.expected))
                if "compiled" not in slow:
                    seconds, exact = timed(lambda p=position: solve(p, compiled=True))
                    times["compiled"].append(seconds)
                    answers.append((exact.guaranteed, exact.expected))
                if "perfect" not in slow:
                    seconds, _ = timed(
                        lambda p=position: perfect_information(
                            p, deadline=Deadline(options.limit * 3)
                        )
                    )
                    times["perfect"].append(seconds)
                if len(set(answers)) > 1:
                    agree = False
                    print(f"DISAGREE {position.describe()}: {answers}", file=sys.stderr)
            base_name = "brute" if times["brute"] else "python"
            base = statistics.median(times[base_name]) if times[base_name] else None
            for method, seconds in times.items():
                if not seconds:
                    continue
                median = statistics.median(seconds)
                row[method] = round(median, 4)
                if base and method != base_name:
                    row[f"{method}/{base_name}"] = round(median / base, 4)
                if median * GROWTH > options.limit:  # the next k would pass the limit
                    slow.add(method)
            rows.append(row)
            if not options.json:
                print(json.dumps(row), flush=True)
    if options.json:
        print(json.dumps({"rows": rows, "agree": agree}))
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
