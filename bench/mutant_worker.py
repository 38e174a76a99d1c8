"""The worker of bench/mutate.py: one mutant judged by the whole conformance suite, in a fresh
process of its own (`run_worker`), stopped when it runs past its wall limit.

The process reads one job (JSON) on stdin and prints one verdict (JSON): killed, timeout or
survived, and with `coverage` the lines of the rule modules the suite executed. The mutated
module is served from its changed tree by an import hook; the tree is never written to.

    python bench/mutant_worker.py < job.json
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from types import ModuleType
from typing import Any

from mutants import RULE_MODULES, Mutant, module_file, mutated_tree, short

JUDGE = frozenset(
    {
        "dekal",
        "dekal.spec",
        "dekal.conformance",
        "dekal.conformance.judge._case_run",
        "dekal.conformance.drive",
        "dekal.conformance.cases",
        "dekal.conformance.judge",
        "dekal.conformance.judge._compare",
        "dekal.conformance.drive._engine_link",
        "dekal.conformance.drive._inprocess_engine",
        "dekal.conformance.judge._perft_run",
        "dekal.conformance.drive._protocol",
        "dekal.conformance.judge._runner",
        "dekal.conformance.cases._vectors",
    }
)
"""The modules of the judge. A worker imports them unmutated before the engine's modules are
dropped from sys.modules and imported again with the mutant in place, so that a mutant of
dekal_ref.position (whose constants the judge's public view reads) cannot bend the judge."""


class MutantFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves one module from a mutated tree instead of its file."""

    def __init__(self, module: str, tree: ast.Module, origin: Path) -> None:
        self.module, self.tree, self.origin = module, tree, origin

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.module:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=str(self.origin))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        module.__file__ = module.__spec__.origin if module.__spec__ else None
        exec(compile(self.tree, module.__file__ or self.module, "exec"), module.__dict__)


def load_suite(directory: Path) -> list[dict[str, Any]]:
    """The cases of a suite directory, file by file in manifest order (or name order without a
    manifest), each file checked against the manifest's hash when it gives one."""
    manifest_path = directory / "manifest.json"
    if manifest_path.exists():
        entries = json.loads(manifest_path.read_text("utf-8"))["files"]
    else:
        entries = {path.name: {} for path in sorted(directory.glob("*.jsonl"))}
    cases: list[dict[str, Any]] = []
    for name, entry in entries.items():
        data = (directory / name).read_bytes()
        wanted = entry.get("sha256")
        if wanted and hashlib.sha256(data).hexdigest() != wanted:
            raise ValueError(f"{directory / name} does not match its manifest's hash")
        cases.extend(json.loads(line) for line in data.decode("utf-8").splitlines() if line)
    return cases


KIND_COST = ("score", "pushes", "push", "setup", "deal", "perft", "game")
"""The case kinds from cheapest to dearest to run (measured on suite v4: a game case costs
about ten times a setup or deal case, a hundred times a score or push case)."""


def cheap_first(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same cases, the cheap ones first: by kind (KIND_COST), then by the length of the
    case's JSON (a longer game plays more steps). A mutant is judged by every case either way
    (killed when any case fails); the order only makes a killed mutant's run stop sooner,
    since most mutants are killed by many cases, cheap ones among them."""
    rank = {kind: k for k, kind in enumerate(KIND_COST)}

    def cost(case: dict[str, Any]) -> tuple[int, int]:
        return rank.get(case["kind"], len(rank)), len(json.dumps(case))

    return sorted(cases, key=cost)


def default_suite() -> Path:
    from dekal.conformance.cases._vectors import suite_directory

    return Path(str(suite_directory()))


def judge_suite(job: dict[str, Any]) -> dict[str, Any]:
    """Run the suite on one engine, with one module mutated (or none), in this process.

    Runs the cheap cases first (cheap_first) and stops at the first case that does not pass
    (the mutant is killed). With `coverage`, also returns the executed lines of the engine's
    rule modules.
    """
    from dekal.conformance.drive._direct_engine import DirectEngine
    from dekal.conformance.judge._runner import run_case

    cases = cheap_first(load_suite(Path(job["suite_dir"])))
    hook = None
    if job["module"] is not None:
        if "source" in job:  # a hand-written mutant (tests use one)
            tree = ast.parse(job["source"])
        else:
            tree = mutated_tree(Mutant(**job["mutant"]))
        hook = MutantFinder(job["module"], tree, module_file(job["module"]))
    files = {str(module_file(m)): m for m in RULE_MODULES[job["engine"]]}
    for name in [n for n in sys.modules if n.startswith(("dekal_ref", "dekal."))]:
        if name not in JUDGE:
            del sys.modules[name]  # the engine's modules are imported again, after the hook
    if hook is not None:
        sys.meta_path.insert(0, hook)
    measure: Any = None
    if job.get("coverage"):
        import coverage

        measure = coverage.Coverage(data_file=None, include=list(files), branch=False)
        measure.start()

    def factory() -> Any:
        serve = importlib.import_module("dekal.conformance.serve")
        return serve.bundled_adapter(job["engine"])

    started = time.monotonic()
    verdict: dict[str, Any] = {"status": "survived", "cases": len(cases)}
    try:
        # in this thread (a mutant runs Python code only, so its deadline holds), and the
        # process has its wall limit besides (run_worker)
        engine = DirectEngine(factory, f"dekal-{job['engine']}", job["case_timeout"])
    except Exception as error:  # noqa: BLE001 - a mutant that cannot start is killed
        verdict = {"status": "killed", "case": "(start)", "detail": short(str(error), 200)}
    else:
        for case in cases:
            outcome = run_case(engine, case, job["case_timeout"])
            if outcome.status in ("pass", "skip"):
                continue
            detail = outcome.divergence.what if outcome.divergence else outcome.message
            timed_out = "no reply within" in detail or "took longer than" in detail
            verdict = {
                "status": "timeout" if timed_out else "killed",
                "case": outcome.id,
                "detail": short(detail, 200),
            }
            break
    verdict["seconds"] = round(time.monotonic() - started, 3)
    if measure is not None:
        measure.stop()
        data = measure.get_data()
        verdict["executed"] = {
            files[str(Path(name).resolve())]: sorted(data.lines(name) or ())
            for name in data.measured_files()
        }  # by module name: the caller may find the same module at another path
    return verdict


def worker_main() -> None:
    """This file run as a script (or `mutate.py --worker`): read one job (JSON) on stdin,
    print one verdict (JSON), exit at once."""
    job = json.loads(sys.stdin.read())
    verdict = judge_suite(job)
    sys.stdout.write("\n" + VERDICT_MARK + json.dumps(verdict) + "\n")
    sys.stdout.flush()
    os._exit(0)  # a mutant's hung worker thread must not hold the process


VERDICT_MARK = "@@verdict "


def run_worker(job: dict[str, Any], wall_limit: float) -> dict[str, Any]:
    """One job in a fresh process; a process past its wall limit is killed (a timeout)."""
    command = [sys.executable, str(Path(__file__).resolve())]
    started = time.monotonic()
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, encoding="utf-8", errors="replace",
    ) as process:  # fmt: skip
        try:
            out, err = process.communicate(json.dumps(job), timeout=wall_limit)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            return {"status": "timeout", "case": "(whole run)",
                    "detail": f"killed after {wall_limit:.0f} s",
                    "seconds": round(time.monotonic() - started, 3)}  # fmt: skip
    for line in reversed(out.splitlines()):
        if line.startswith(VERDICT_MARK):
            return dict(json.loads(line[len(VERDICT_MARK) :]))
    tail = (err.strip().splitlines() or ["no output"])[-1]
    return {"status": "killed", "case": "(crash)", "detail": short(tail, 200),
            "seconds": round(time.monotonic() - started, 3)}  # fmt: skip


def judge_mutant(
    mutant: Mutant, suite_dir: Path, case_timeout: float = 5.0, wall_limit: float = 120.0
) -> dict[str, Any]:
    """The verdict on one mutant (killed, timeout or survived), from a fresh process."""
    job = {"engine": mutant.engine, "module": mutant.module, "mutant": asdict(mutant),
           "suite_dir": str(suite_dir), "case_timeout": case_timeout}  # fmt: skip
    return run_worker(job, wall_limit)


if __name__ == "__main__":
    worker_main()
