"""Puzzle solvers side by side: Z3, the exhaustive search, and a plain reference search.

    .venv/bin/python bench/solver.py                   # k = 1..6, 5 puzzles each, slide
    .venv/bin/python bench/solver.py --variant eject --values 10 --max-k 4 --json

For every k (number of incoming cards) the same seeded puzzles (grids of `--values` distinct
values, incoming cards from the same values) are given to every method:
* z3: proofs.z3_solve.minimum (warm start from the search's beam, then refutation);
* search: proofs.search.minimum (depth-first, memo, branch and bound on dekal.bits words);
* reference: the plain Python exhaustive search the issue measured (breadth-first on
  dekal_ref tuples, duplicate states merged per level), the yardstick for the ratios;
* naive-z3 (only with --methods …,naive-z3): the naive encoding the issue measured (one
  integer move per step, a 48-way if-then-else per cell, z3.Optimize), to show what the
  encoding of proofs/encoding.py buys.
A method that does not prove the optimum within --timeout counts --timeout for that puzzle;
once a method's median exceeds --limit it is not tried on larger k. All methods must agree
on every optimum they prove (a disagreement is printed and the exit code is 1).

The table shows the median seconds per k, the ratio to the reference, the largest k each
method answers within --limit (median), and where each method's time goes.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from dekal.proofs import search, z3_solve
from dekal.proofs.answer import GaveUp
from dekal.proofs.moves import ENTERS, shapes
from dekal.proofs.puzzle import Puzzle, make_puzzle
from dekal_ref.push import legal_pushes, push_card
from dekal_ref.scoring import neighbours, score_grid

err = Console(stderr=True)


def make_puzzles(k: int, count: int, values: int, variant: str, seed: int) -> list[Puzzle]:
    """`count` puzzles with `k` incoming cards: grids using exactly `values` distinct values."""
    rng = random.Random(f"{seed}-{k}-{values}-{variant}")
    puzzles = []
    while len(puzzles) < count:
        alphabet = rng.sample(range(1, 11), values)
        grid = tuple(rng.choice(alphabet) for _ in range(16))
        if len(set(grid)) != values:
            continue
        incoming = tuple(rng.choice(alphabet) for _ in range(k))
        puzzles.append(make_puzzle(grid, incoming=incoming, variant=variant))
    return puzzles


def reference_minimum(puzzle: Puzzle, timeout: float) -> tuple[int, int] | None:
    """Breadth-first over dekal_ref grids, states merged per level; None after `timeout`."""
    end = time.perf_counter() + timeout
    level = {(puzzle.grid, puzzle.face_down)}
    for step in range(puzzle.turns):
        following: set[tuple[tuple[int, ...], frozenset[int]]] = set()
        for grid, down in level:
            if time.perf_counter() > end:
                return None
            for cell in down:
                holed = grid[:cell] + (0,) + grid[cell + 1 :]
                card = puzzle.card_for(step, grid[cell])
                for push in legal_pushes(cell, puzzle.variant):
                    after = push_card(holed, push, card, puzzle.variant)
                    moved = _faces(down - {cell}, holed, push, puzzle.variant)
                    following.add((after, moved))
        level = following
    return min((s.points, s.remaining) for s in (score_grid(g) for g, _ in level))


def _faces(down: frozenset[int], holed: tuple[int, ...], push: Any, variant: str) -> frozenset[int]:
    from dekal_ref.push import apply_chain, hole_of, push_chain

    chain = push_chain(hole_of(holed), push, variant)
    faces = apply_chain([c in down for c in range(16)], chain, False)
    return frozenset(c for c, is_down in enumerate(faces) if is_down)


def naive_z3_minimum(puzzle: Puzzle, timeout: float) -> tuple[int, int] | None:
    """The naive encoding the issue measured: one integer move choice per step, a 48-way (or
    240-way) if-then-else per cell, integer cells, and z3.Optimize. None after `timeout`."""
    table = shapes(puzzle.variant)
    cells = [z3.IntVal(v) for v in puzzle.grid]
    down = [z3.BoolVal(c in puzzle.face_down) for c in range(16)]
    optimizer = z3.Optimize()
    optimizer.set(timeout=max(1, int(timeout * 1000)))
    for step in range(puzzle.turns):
        move = z3.Int(f"move{step}")
        optimizer.add(move >= 0, move < len(table))
        for index, shape in enumerate(table):
            optimizer.add(z3.Implies(move == index, down[shape.reveal]))
        card = (
            z3.IntVal(puzzle.incoming[step])
            if puzzle.incoming is not None
            else z3.Sum([z3.If(move == i, cells[s.reveal], 0) for i, s in enumerate(table)])
        )
        after, after_down = [], []
        for cell in range(16):
            value, face = cells[cell], down[cell]
            for index, shape in enumerate(table):
                source = shape.source_of(cell)
                if source is None:
                    continue
                came = card if source == ENTERS else cells[source]
                came_face = z3.BoolVal(False) if source == ENTERS else down[source]
                value = z3.If(move == index, came, value)
                face = z3.If(move == index, came_face, face)
            after.append(value)
            after_down.append(face)
        cells, down = after, after_down
    gone = [z3.Or([cells[c] == cells[o] for o in neighbours(c)]) for c in range(16)]
    points = z3.Sum([z3.If(gone[c], 0, cells[c]) for c in range(16)])
    left = z3.Sum([z3.If(gone[c], 0, 1) for c in range(16)])
    handle = optimizer.minimize(points * 32 + left)
    if optimizer.check() != z3.sat:
        return None
    if optimizer.reason_unknown() not in ("", "unknown"):
        return None
    key = handle.value().as_long()
    if handle.lower().as_long() != key:  # Optimize stopped before proving its bound
        return None
    return divmod(key, 32)


@dataclass
class Run:
    seconds: float
    outcome: tuple[int, int] | None  # None: not proved within the time limit
    stats: dict[str, float] = field(default_factory=dict)


def run_method(name: str, puzzle: Puzzle, timeout: float) -> Run:
    started = time.perf_counter()
    if name in ("reference", "naive-z3"):
        found = (reference_minimum if name == "reference" else naive_z3_minimum)(puzzle, timeout)
        seconds = time.perf_counter() - started
        return Run(seconds if found is not None else timeout, found)
    solver: Callable[..., Any] = z3_solve.minimum if name == "z3" else search.minimum
    try:
        answer = solver(puzzle, timeout=timeout)
    except GaveUp:
        return Run(timeout, None)
    seconds = time.perf_counter() - started
    if not answer.proved_optimal:
        return Run(timeout, None, answer.stats)
    return Run(seconds, (answer.points, answer.remaining), answer.stats)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--max-k", type=int, default=6)
    parser.add_argument("--puzzles", type=int, default=5, help="puzzles per k (median over them)")
    parser.add_argument("--values", type=int, default=5, help="distinct values per grid")
    parser.add_argument("--variant", choices=["slide", "eject"], default="slide")
    parser.add_argument("--limit", type=float, default=10.0, help="the 'answers within' seconds")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per puzzle per method")
    parser.add_argument("--methods", default="z3,search,reference")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    methods = [m for m in args.methods.split(",") if m]
    stopped: set[str] = set()
    rows: list[dict[str, Any]] = []
    disagreements: list[str] = []
    with Progress(console=err, transient=True) as bar:
        task = bar.add_task("bench", total=args.max_k * len(methods) * args.puzzles)
        for k in range(1, args.max_k + 1):
            puzzles = make_puzzles(k, args.puzzles, args.values, args.variant, args.seed)
            row: dict[str, Any] = {"k": k, "methods": {}}
            for name in methods:
                if name in stopped:
                    bar.advance(task, args.puzzles)
                    continue
                runs = []
                for number, puzzle in enumerate(puzzles, start=1):
                    bar.update(task, description=f"k={k} {name} puzzle {number}")
                    runs.append(run_method(name, puzzle, args.timeout))
                    bar.advance(task)
                median = statistics.median(r.seconds for r in runs)
                stats: dict[str, float] = {}
                for key in sorted({key for r in runs for key in r.stats}):
                    stats[key] = statistics.mean(r.stats.get(key, 0.0) for r in runs)
                row["methods"][name] = {
                    "median_seconds": round(median, 4),
                    "solved": sum(r.outcome is not None for r in runs),
                    "outcomes": [list(r.outcome) if r.outcome else None for r in runs],
                    "mean_stats": {key: round(v, 4) for key, v in stats.items()},
                }
                if median > args.limit:
                    stopped.add(name)
            for index in range(len(puzzles)):
                seen = {
                    tuple(entry["outcomes"][index])
                    for entry in row["methods"].values()
                    if entry["outcomes"][index] is not None
                }
                if len(seen) > 1:
                    disagreements.append(f"k={k} puzzle {index + 1}: {sorted(seen)}")
            rows.append(row)
    largest = {
        name: max(
            (
                r["k"]
                for r in rows
                if name in r["methods"] and r["methods"][name]["median_seconds"] <= args.limit
            ),
            default=0,
        )
        for name in methods
    }
    report = {
        "variant": args.variant,
        "values": args.values,
        "puzzles_per_k": args.puzzles,
        "limit_seconds": args.limit,
        "timeout_seconds": args.timeout,
        "rows": rows,
        "largest_k_within_limit": largest,
        "disagreements": disagreements,
    }
    if args.json:
        sys.stdout.write(json.dumps(report) + "\n")
    else:
        show(report, methods)
    return 1 if disagreements else 0


def show(report: dict[str, Any], methods: list[str]) -> None:
    out = Console(soft_wrap=True)
    table = Table(
        title=(
            f"median seconds over {report['puzzles_per_k']} puzzles of {report['values']} distinct "
            f"values ({report['variant']}); ratio = reference / method"
        )
    )
    table.add_column("k", justify="right")
    for name in methods:
        table.add_column(name, justify="right")
        if name != "reference" and "reference" in methods:
            table.add_column(f"{name} ×", justify="right")
    for row in report["rows"]:
        cells = [str(row["k"])]
        reference = row["methods"].get("reference")
        for name in methods:
            entry = row["methods"].get(name)
            if entry is None:
                cells.append("—")
            else:
                unsolved = report["puzzles_per_k"] - entry["solved"]
                mark = f" ({unsolved} timed out)" if unsolved else ""
                cells.append(f"{entry['median_seconds']:.3f}{mark}")
            if name != "reference" and "reference" in methods:
                if entry and reference and reference["solved"] == report["puzzles_per_k"]:
                    ratio = reference["median_seconds"] / max(entry["median_seconds"], 1e-6)
                    cells.append(f"{ratio:.1f}")
                else:
                    cells.append("—")
        table.add_row(*cells)
    out.print(table)
    for name, k in report["largest_k_within_limit"].items():
        out.print(
            f"largest k answered within {report['limit_seconds']:g} s (median): {name} k = {k}"
        )
    out.print("where the time goes (means per puzzle):")
    for row in report["rows"]:
        for name, entry in row["methods"].items():
            if entry["mean_stats"]:
                parts = ", ".join(f"{key} {value:g}" for key, value in entry["mean_stats"].items())
                out.print(f"  k={row['k']} {name}: {parts}")
    for line in report["disagreements"]:
        out.print(f"DISAGREEMENT {line}", style="bold red")


if __name__ == "__main__":
    raise SystemExit(main())
