"""Start-up of the `dekal` command: how long a user waits before anything happens.

Each command is run as a fresh process, several times; the figure is the median wall time,
next to the bare interpreter's (`python -c pass`) on the same machine, so the cost of Dékal
Lab itself is the difference. The modules each command loads are counted in a separate run
that lists sys.modules at exit; NumPy and Z3 are named when they are among them (neither
should be for --help or score: tests/cli/test_cli_conventions.py checks that, this prints
figures only).

    python bench/startup.py              # 7 runs per command
    python bench/startup.py --runs 15 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

GRID = "5T32/1444/9999/TT11"
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "dekal --help": ["--help"],
    "dekal score GRID": ["score", GRID],
    "dekal score GRID --json": ["score", GRID, "--json"],
    "dekal show GRID": ["show", GRID],
    "dekal solve --help": ["solve", "--help"],
    # what --help would cost if the root imported every command, as it did before issue 13
    "--help, all commands loaded": [
        sys.executable, "-c",
        "import dekal.cli._solver.solve, dekal.cli._solver.prove, dekal.cli._conformance,"
        " dekal.cli._replay;"
        "import sys; from dekal.cli._app import main; sys.argv = ['dekal', '--help']; main()",
    ],
}  # fmt: skip
HEAVY = ("numpy", "z3", "pydantic", "rich.progress")

LIST_AT_EXIT = "import atexit, json, sys; atexit.register(lambda: sys.stderr.write(json.dumps(sorted(sys.modules))))"  # noqa: E501
LIST_MODULES = """
import json, sys
from dekal.cli._app import main
sys.argv = ["dekal", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
sys.stderr.write(json.dumps(sorted(sys.modules)))
"""


def command_line(args: list[str]) -> list[str]:
    """A `dekal` command run as a user runs it: the installed script beside this Python."""
    if args[0] == sys.executable:
        return args
    return [str(Path(sys.executable).with_name("dekal")), *args]


def wall_seconds(args: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command_line(args), capture_output=True, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def modules_loaded(args: list[str]) -> list[str]:
    if args[0] == sys.executable:  # a Python one-liner: list its modules as it ends
        probe = [sys.executable, "-c", f"{LIST_AT_EXIT}\n{args[-1]}"]
    else:
        probe = [sys.executable, "-c", LIST_MODULES, *args]
    done = subprocess.run(probe, capture_output=True, text=True, check=True)
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command (median)")
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    options = parser.parse_args()
    rows = []
    for name, args in COMMANDS.items():
        seconds = wall_seconds(args, options.runs)
        loaded = modules_loaded(args)
        heavy = [module for module in HEAVY if module in loaded]
        rows.append({"command": name, "seconds": round(seconds, 4), "modules": len(loaded),
                     "heavy": heavy})  # fmt: skip
    bare = rows[0]["seconds"]
    print(f"start-up, median of {options.runs} runs (python {sys.version.split()[0]})")
    print(f"{'command':<26} {'wall':>8} {'over python':>12} {'modules':>8}  heavy modules loaded")
    for row in rows:
        over = float(row["seconds"]) - float(bare)
        heavy_list = ", ".join(row["heavy"]) or "-"
        print(f"{row['command']:<26} {row['seconds']:>7.3f}s {over:>+11.3f}s "
              f"{row['modules']:>8}  {heavy_list}")  # fmt: skip
    if options.json:
        print(json.dumps({"runs": options.runs, "rows": rows}))


if __name__ == "__main__":
    main()
