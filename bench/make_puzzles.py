"""Generate the bundled rated puzzles (spec/puzzles/puzzles.jsonl), seeded and reproducible.

    nice -n 10 .venv/bin/python bench/make_puzzles.py                  # the bundled set
    .venv/bin/python bench/make_puzzles.py --seed 7 --scale 0.1 --out /tmp/few.jsonl

Every recipe of proofs.puzzle_make.RECIPES is drawn from `--seed` in turn; each candidate is
ranked by the exhaustive search, kept only when one first move is strictly best, then ranked
again by Z3 (proofs.puzzle_make: both proofs must agree). The same seed writes the same file.
At the end: how many puzzles per recipe and level, how many candidates were drawn, and the
seconds it took (on standard error; the file is the only output).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

from dekal.proofs._puzzle_make import RECIPES, generate
from dekal.proofs._puzzle_rating import LEVELS
from dekal.proofs.puzzle_set import RatedPuzzle, read_puzzles
from dekal_ref.json_reading import json_line

SEED = 12
"""The seed of the bundled set (issue 12)."""

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "spec" / "puzzles" / "puzzles.jsonl"

err = Console(stderr=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=SEED, help=f"default {SEED}")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="fraction of each recipe's count (a quick run)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the JSON-lines file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    puzzles: list[RatedPuzzle] = []
    drawn: Counter[str] = Counter()
    with Progress(console=err, transient=True) as progress:
        for recipe in RECIPES:
            scaled = replace(recipe, count=max(1, round(recipe.count * args.scale)))
            task = progress.add_task(recipe.name, total=scaled.count)

            def tried(
                candidates: int, kept: int, name: str = recipe.name, task: int = task
            ) -> None:
                drawn[name] = candidates
                progress.update(task, completed=kept)

            for rated in generate(scaled, args.seed, first_number=len(puzzles) + 1, tried=tried):
                puzzles.append(rated)
                progress.update(task, completed=rated.number - puzzles[0].number + 1)
    text = "".join(json_line(rated.as_json()) + "\n" for rated in puzzles)
    read_puzzles(text, str(args.out))  # what is written must load: schema and self-checks
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    seconds = time.perf_counter() - started
    _summary(puzzles, drawn, seconds, args)
    return 0


def _summary(
    puzzles: list[RatedPuzzle], drawn: Counter[str], seconds: float, args: argparse.Namespace
) -> None:
    levels = Counter(rated.rating.level for rated in puzzles)
    err.print(f"wrote {len(puzzles)} puzzles to {args.out} (seed {args.seed}) in {seconds:.1f} s")
    err.print("levels: " + ", ".join(f"{level} {levels[level]}" for level in LEVELS))
    for recipe in RECIPES:
        mine = [rated for rated in puzzles if _recipe_of(rated) == recipe.name]
        counts = Counter(rated.rating.level for rated in mine)
        err.print(
            f"  {recipe.name:<16} {len(mine):>3} kept of {drawn[recipe.name]:>5} drawn: "
            + ", ".join(f"{level} {counts[level]}" for level in LEVELS)
        )


def _recipe_of(rated: RatedPuzzle) -> str:
    puzzle = rated.puzzle
    if puzzle.solo:
        return f"solo, {puzzle.turns} turns"
    return f"{puzzle.variant}, {puzzle.turns} cards"


if __name__ == "__main__":
    sys.exit(main())
