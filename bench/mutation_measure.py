"""The measurement of bench/mutate.py: a baseline run with coverage per engine, the sample
drawn, every mutant in executed code judged by a worker, and the tallies (killed in executed
code, the figure issue 8 sets a target for), with the equivalent mutants set apart.
"""

from __future__ import annotations

import concurrent.futures
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mutant_worker import default_suite, judge_mutant, load_suite, run_worker
from mutants import RULE_MODULES, Mutant, mutants_of

BENCH = Path(__file__).resolve().parent
EQUIVALENTS_FILE = BENCH / "equivalent_mutants.json"


@dataclass
class Result:
    mutant: Mutant
    status: str  # killed, timeout, survived, equivalent, not executed
    executed: bool
    case: str = ""
    detail: str = ""
    seconds: float = 0.0
    reason: str = ""  # for an equivalent mutant


@dataclass
class Tally:
    mutants: int = 0
    executed: int = 0
    killed: int = 0
    timeout: int = 0
    survived: int = 0  # executed and not listed as equivalent
    equivalent: int = 0
    not_executed: int = 0

    def add(self, result: Result) -> None:
        self.mutants += 1
        self.executed += result.executed
        if result.status == "not executed":
            self.not_executed += 1
        else:
            setattr(self, result.status, getattr(self, result.status) + 1)

    @property
    def killed_executed(self) -> float:
        """Killed (timeouts included) out of the executed, non-equivalent mutants, in %."""
        judged = self.executed - self.equivalent
        return 100.0 * (self.killed + self.timeout) / judged if judged else 100.0

    @property
    def killed_overall(self) -> float:
        judged = self.mutants - self.equivalent
        return 100.0 * (self.killed + self.timeout) / judged if judged else 100.0


def load_equivalents(path: Path) -> dict[str, dict[str, Any]]:
    if not path.exists():
        return {}
    entries = json.loads(path.read_text("utf-8"))["mutants"]
    return {
        f"{e['module']}:{e['function']}:{e['operator']}:{e['digest']}": e for e in entries
    }  # fmt: skip


@dataclass
class Measurement:
    engines: list[str]
    seed: int
    sample: int | None
    suite_dir: str
    cases: int
    total_mutants: int
    seconds: float = 0.0
    results: list[Result] = field(default_factory=list)
    stale_equivalents: list[str] = field(default_factory=list)

    def tallies(self) -> dict[str, Tally]:
        by_module: dict[str, Tally] = {}
        for result in self.results:
            by_module.setdefault(result.mutant.module, Tally()).add(result)
        return by_module

    def total(self) -> Tally:
        tally = Tally()
        for result in self.results:
            tally.add(result)
        return tally


class Progress:
    """A one-line progress bar on stderr (a line per tenth when stderr is not a terminal)."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.done = total, label, 0
        self.started = time.monotonic()
        self.live = sys.stderr.isatty()

    def step(self, note: str = "") -> None:
        self.done += 1
        if not self.live:  # a log: one plain line per tenth
            if self.done * 10 // max(self.total, 1) != (self.done - 1) * 10 // max(self.total, 1):
                elapsed = time.monotonic() - self.started
                print(f"{self.label}: {self.done}/{self.total} in {elapsed:.0f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
            return
        width = 30
        filled = width * self.done // max(self.total, 1)
        elapsed = time.monotonic() - self.started
        left = elapsed / self.done * (self.total - self.done)
        sys.stderr.write(
            f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
            f"  {elapsed:.0f}s, ~{left:.0f}s left  {note[:30]:<30}"
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.live:
            sys.stderr.write("\n")


def selected(module: str, wanted: Sequence[str] | None) -> bool:
    """--modules takes full names (dekal.bits) or last names (bits: both engines' modules)."""
    return wanted is None or any(module == w or module.endswith("." + w) for w in wanted)


def draw(mutants: list[Mutant], sample: int | None, seed: int) -> list[Mutant]:
    """`sample` of the mutants, drawn uniformly with `seed`, in their listed order (all of
    them without a sample): the same seed draws the same mutants."""
    if sample is None or sample >= len(mutants):
        return mutants
    picked = sorted(random.Random(seed).sample(range(len(mutants)), sample))
    return [mutants[k] for k in picked]


def measure(
    engines: Sequence[str], modules: Sequence[str] | None = None, sample: int | None = None,
    seed: int = 0, suite_dir: Path | None = None, jobs: int = 1, case_timeout: float = 5.0,
    equivalents_path: Path = EQUIVALENTS_FILE, only: Sequence[str] | None = None,
) -> Measurement:  # fmt: skip
    """Baseline with coverage per engine, draw the sample, run the executed mutants."""
    started = time.monotonic()
    suite_dir = suite_dir or default_suite()
    everything = [
        mutant
        for engine in engines
        for module in RULE_MODULES[engine]
        if selected(module, modules)
        for mutant in mutants_of(engine, module)
        if only is None or mutant.key in only
    ]
    chosen = draw(everything, sample, seed)
    cases = len(load_suite(suite_dir))
    found = Measurement(list(engines), seed, sample, str(suite_dir), cases, len(everything))
    executed: dict[str, set[int]] = {}
    wall_limits: dict[str, float] = {}
    for engine in engines:
        job = {"engine": engine, "module": None, "suite_dir": str(suite_dir),
               "case_timeout": case_timeout, "coverage": True}  # fmt: skip
        baseline = run_worker(job, wall_limit=600)
        if baseline["status"] != "survived":
            raise BaselineFails(
                f"the unmutated {engine} engine does not pass the suite: case "
                f"{baseline.get('case')}: {baseline.get('detail')}"
            )
        executed.update((module, set(lines)) for module, lines in baseline["executed"].items())
        wall_limits[engine] = 30.0 + 10.0 * baseline["seconds"]
    equivalents = load_equivalents(equivalents_path)
    runs: list[Mutant] = []
    for mutant in chosen:
        if mutant.statement_line in executed.get(mutant.module, set()):
            runs.append(mutant)
        else:
            found.results.append(Result(mutant, "not executed", False))
    progress = Progress(len(runs), "mutants")

    def judge(mutant: Mutant) -> Result:
        verdict = judge_mutant(mutant, suite_dir, case_timeout, wall_limits[mutant.engine])
        result = Result(mutant, verdict["status"], True, verdict.get("case", ""),
                        verdict.get("detail", ""), verdict.get("seconds", 0.0))  # fmt: skip
        listed = equivalents.get(mutant.key)
        if listed is not None and result.status == "survived":
            result.status, result.reason = "equivalent", listed["reason"]
        elif listed is not None:
            found.stale_equivalents.append(f"{mutant.key} is listed as equivalent but was "
                                           f"{result.status} by {result.case}")  # fmt: skip
        return result

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(jobs, 1)) as pool:
        for result in pool.map(judge, runs):
            found.results.append(result)
            progress.step(f"{result.mutant.module} {result.status}")
    progress.close()
    order = [module for engine in engines for module in RULE_MODULES[engine]]
    found.results.sort(key=lambda r: (order.index(r.mutant.module), r.mutant.index))
    found.seconds = round(time.monotonic() - started, 1)
    return found


class BaselineFails(Exception):
    """The unmutated engine fails the suite: no mutant can be judged against it."""
