"""Puzzle solvers side by side: Z3, the exhaustive search, and a plain reference search.

    .venv/bin/python bench/solver.py                   # k = 1..6, 5 puzzles each, slide
    .venv/bin/python bench/solver.py --variant eject --values 10 --max-k 4 --json

For every k (number of incoming cards) the same seeded puzzles (grids of `--values` distinct
values, incoming cards from the same values) are given to every method:
* z3: proofs.z3_solve.minimum (warm start from the search's beam, then refutation);
* search: proofs.search.minimum (depth-first, memo, branch and bound on dekal.bits words; from
  4 slide or 3 eject steps on, the compiled kernel dekal.kernel._search);
* search-python (only with --methods …,search-python): the same search in Python at every size,
  to show what the compiled kernel buys;
* reference: the plain Python exhaustive search the issue measured (breadth-first on
  dekal_ref tuples, duplicate states merged per level), the yardstick for the ratios;
* naive-z3 (only with --methods …,naive-z3): the naive encoding the issue measured (one
  integer move per step, a 48-way if-then-else per cell, z3.Optimize), to show what the
  encoding of proofs/_encoding.py buys.
A method that does not prove the optimum within --timeout counts --timeout for that puzzle;
once a method's median exceeds --limit it is not tried on larger k. All methods must agree
on every optimum they prove (a disagreement is printed and the exit code is 1).

The table shows the median seconds per k, the ratio to the reference, the largest k each
method answers within --limit (median), and where each method's time goes.

The hard sets (bench/hard_puzzles.json, then bench/hard_puzzles_z3.json: the kinds issue 12
named as still at Z3's pace, written by hand) are the other tables:

    .venv/bin/python bench/solver.py --hard                  # portfolio, search, z3 on each
    .venv/bin/python bench/solver.py --hard --methods portfolio --timeout 10
    .venv/bin/python bench/solver.py --make-hard 24          # regenerate the set (slow)

Each puzzle of the set has 10 distinct values in its grid and 4–8 incoming cards, slide and
eject, about half with an optimum above 0; each is "hard" in that the beam's first witness is
not optimal and does not meet the lower bound, so a method must really search or refute; and
each optimum was proved offline by both methods (z3 and search, each alone, each within
--timeout) and agreed on. The table prints every method's seconds per puzzle (a method that
does not prove the optimum counts --timeout, marked "—"), the medians, how many each proves
within --limit, and whether every proved answer agrees with the set's optimum (exit 1 if not).
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
from functools import partial
from pathlib import Path
from typing import Any

import z3  # type: ignore[import-untyped]
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from dekal.proofs import portfolio, search, z3_solve
from dekal.proofs._answer import GaveUp
from dekal.proofs._beam import quick_bound
from dekal.proofs._bounds import start_key
from dekal.proofs._moves import ENTERS, shapes
from dekal.proofs.puzzle import Puzzle, make_puzzle, parse_cards
from dekal_ref.notation import format_grid, parse_grid
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
    winner: str = ""  # the method that proved it (the portfolio's winner)


def run_method(name: str, puzzle: Puzzle, timeout: float) -> Run:
    started = time.perf_counter()
    if name in ("reference", "naive-z3"):
        found = (reference_minimum if name == "reference" else naive_z3_minimum)(puzzle, timeout)
        seconds = time.perf_counter() - started
        return Run(seconds if found is not None else timeout, found)
    solvers: dict[str, Callable[..., Any]] = {
        "z3": z3_solve.minimum,
        "search": search.minimum,
        "search-python": partial(search.minimum, compiled=False),
        "portfolio": portfolio.minimum,
    }
    solver = solvers[name]
    try:
        answer = solver(puzzle, timeout=timeout)
    except GaveUp:
        return Run(timeout, None)
    seconds = time.perf_counter() - started
    if not answer.proved_optimal:
        return Run(timeout, None, answer.stats)
    return Run(seconds, (answer.points, answer.remaining), answer.stats, answer.method)


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
    parser.add_argument(
        "--hard",
        nargs="*",
        metavar="FILE",
        help="the hard sets (no FILE: every set, hard_puzzles.json then hard_puzzles_z3.json)",
    )
    parser.add_argument("--make-hard", type=int, metavar="N", help="write N hard puzzles")
    args = parser.parse_args(argv)
    if args.make_hard:
        return make_hard(args.make_hard, args.timeout, args.seed)
    if args.hard is not None:
        methods = [m for m in args.methods.split(",") if m and m != "reference"]
        if args.methods == parser.get_default("methods"):
            methods = ["portfolio", "search", "z3"]
        paths = [Path(name) for name in args.hard] or [p for p in HARD_SETS if p.exists()]
        codes = [run_hard(p, methods, args.timeout, args.limit, args.json) for p in paths]
        return max(codes)
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


# -- the hard set ---------------------------------------------------------------------------

HARD_SET = Path(__file__).with_name("hard_puzzles.json")
HARD_SET_Z3 = Path(__file__).with_name("hard_puzzles_z3.json")
"""The kinds issue 12 named as still at Z3's pace (a 0 deep down, eject with every card face
down): written by hand, each optimum proved offline by both methods alone."""
HARD_SETS = (HARD_SET, HARD_SET_Z3)


def puzzle_of(entry: dict[str, Any]) -> Puzzle:
    return make_puzzle(
        parse_grid(entry["grid"]),
        incoming=parse_cards(entry["incoming"]),
        variant=entry["variant"],
    )


def ten_value_puzzle(rng: random.Random, variant: str) -> Puzzle:
    """A grid holding all ten values (six of them twice), 4–8 incoming cards of any value."""
    grid = list(range(1, 11)) + rng.sample(range(1, 11), 6)
    rng.shuffle(grid)
    incoming = tuple(rng.randint(1, 10) for _ in range(rng.randint(4, 8)))
    return make_puzzle(tuple(grid), incoming=incoming, variant=variant)


def is_hard(puzzle: Puzzle) -> bool:
    """The beam's witness neither scores 0 nor meets the lower bound: a proof takes work."""
    guess = quick_bound(puzzle)
    return guess.key > start_key(puzzle)


def make_hard(count: int, timeout: float, seed: int) -> int:
    """Draw ten-value puzzles until HARD_SET holds `count` hard ones, each proved by both
    methods alone, which agree (the search within a third of `timeout`, tried first because
    it is the cheaper filter; Z3 within `timeout`). The set stays balanced: half with an
    optimum above 0, and at least a quarter of each variant. Puzzles already in the file are
    kept (a run can be resumed)."""
    found: list[dict[str, Any]] = (
        json.loads(HARD_SET.read_text(encoding="utf-8")) if HARD_SET.exists() else []
    )
    rng = random.Random(f"hard-{seed}-{len(found)}")
    drawn = 0
    while len(found) < count:
        variant = rng.choice(["slide", "eject"])
        if not fits(found, count, variant, None):
            continue
        puzzle = ten_value_puzzle(rng, variant)
        drawn += 1
        if not is_hard(puzzle):
            continue
        runs = {"search": run_method("search", puzzle, timeout / 3)}
        if runs["search"].outcome is not None:  # both must prove it: skip Z3 when one did not
            runs["z3"] = run_method("z3", puzzle, timeout)
        outcomes = {run.outcome for run in runs.values()}
        if None in outcomes or len(outcomes) != 1 or len(runs) != 2:
            err.print(f"skip {puzzle.describe()}: {[r.outcome for r in runs.values()]}")
            continue
        ((points, remaining),) = outcomes
        if not fits(found, count, variant, points > 0 or remaining > 0):
            continue
        entry = {
            "grid": format_grid(puzzle.grid),
            "incoming": ",".join(str(v) for v in puzzle.incoming or ()),
            "variant": variant,
            "score": points,
            "remaining": remaining,
            "seconds": {name: round(run.seconds, 2) for name, run in runs.items()},
        }
        found.append(entry)
        err.print(f"{len(found)}/{count} (of {drawn} drawn): {json.dumps(entry)}")
        HARD_SET.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    return 0


def fits(found: list[dict[str, Any]], count: int, variant: str, above: bool | None) -> bool:
    """Whether one more puzzle of this variant (optimum above 0 or not; None: either) keeps
    the set able to end balanced: half above 0, at least a quarter of each variant."""
    same = sum(entry["variant"] == variant for entry in found)
    if same + 1 > count - count // 4:
        return False
    if above is None:
        return True
    alike = sum((entry["score"] > 0 or entry["remaining"] > 0) == above for entry in found)
    return alike + 1 <= count // 2


def run_hard(path: Path, methods: list[str], timeout: float, limit: float, as_json: bool) -> int:
    """Every method on every puzzle of the set: seconds, agreement with the set's optimum."""
    entries = json.loads(path.read_text(encoding="utf-8"))
    rows = []
    wrong: list[str] = []
    with Progress(console=err, transient=True) as bar:
        task = bar.add_task("hard set", total=len(entries) * len(methods))
        for number, entry in enumerate(entries, start=1):
            puzzle = puzzle_of(entry)
            expected = (entry["score"], entry["remaining"])
            row: dict[str, Any] = {"puzzle": puzzle.describe(), "optimum": list(expected)}
            for name in methods:
                bar.update(task, description=f"puzzle {number} {name}")
                run = run_method(name, puzzle, timeout)
                row[name] = {
                    "seconds": round(run.seconds, 3),
                    "proved": run.outcome is not None,
                    "winner": run.winner,
                }
                if run.outcome is not None and run.outcome != expected:
                    wrong.append(f"puzzle {number} {name}: {run.outcome} != {expected}")
                bar.advance(task)
            rows.append(row)
    medians = {name: statistics.median(r[name]["seconds"] for r in rows) for name in methods}
    within = {
        name: sum(r[name]["proved"] and r[name]["seconds"] <= limit for r in rows)
        for name in methods
    }
    report = {
        "set": path.name,
        "rows": rows,
        "medians": medians,
        "within_limit": within,
        "limit": limit,
        "timeout": timeout,
        "disagreements": wrong,
    }
    if as_json:
        sys.stdout.write(json.dumps(report) + "\n")
    else:
        show_hard(report, methods)
    return 1 if wrong else 0


def show_hard(report: dict[str, Any], methods: list[str]) -> None:
    out = Console(soft_wrap=True)
    table = Table(
        title=f"{report['set']}: seconds to a proved optimum "
        f"(— not proved in {report['timeout']:g} s)"
    )
    table.add_column("#", justify="right")
    table.add_column("puzzle")
    table.add_column("optimum", justify="right")
    for name in methods:
        table.add_column(name, justify="right")
    for number, row in enumerate(report["rows"], start=1):
        cells = [str(number), row["puzzle"], "{}/{}".format(*row["optimum"])]
        for name in methods:
            entry = row[name]
            won = f" ({entry['winner']})" if name == "portfolio" and entry["proved"] else ""
            cells.append(f"{entry['seconds']:.2f}{won}" if entry["proved"] else "—")
        table.add_row(*cells)
    out.print(table)
    for name in methods:
        out.print(
            f"{name}: median {report['medians'][name]:.2f} s, proved within {report['limit']:g} s: "
            f"{report['within_limit'][name]} of {len(report['rows'])}"
        )
    if report["disagreements"]:
        for line in report["disagreements"]:
            out.print(f"DISAGREEMENT {line}", style="bold red")
    else:
        out.print("every proved answer agrees with the set's optimum")


if __name__ == "__main__":
    raise SystemExit(main())
