"""Mutation testing: how much of the rule code does the conformance suite pin down? (issue 8)

Each *mutant* is one rule module of one engine with one small change (`<` made `<=`, `and`
made `or`, a constant off by one, a statement deleted, a `raise` removed…). A mutant runs the
whole conformance suite in-process, in a fresh worker process of its own; it is *killed* when
some case fails, errors or times out, and *survives* when every case passes. A surviving
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
import ast
import concurrent.futures
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

BENCH = Path(__file__).resolve().parent
EQUIVALENTS_FILE = BENCH / "equivalent_mutants.json"
TARGET = 97.0
"""Issue 8's target: at least this percentage of mutants in executed code killed."""

RULE_MODULES = {
    # The modules that hold rules. Record parsing (dekal_ref.record) is not listed: the suite
    # never imports it. dekal.fast and dekal.engines only re-export names.
    "ref": (
        "dekal_ref.notation", "dekal_ref.push", "dekal_ref.scoring", "dekal_ref.deal",
        "dekal_ref.state", "dekal_ref.game", "dekal_ref.actions", "dekal_ref.position",
        "dekal_ref.ranking",
    ),
    # The optimized engine's own modules. It borrows notation, Rules, Deal and the action
    # types from dekal_ref: those are measured under `ref`, not counted twice.
    "fast": (
        "dekal.bits", "dekal.tables", "dekal.grid", "dekal.state", "dekal.game",
        "dekal.actions", "dekal.position", "dekal.ranking",
    ),
}  # fmt: skip

JUDGE = frozenset(
    {
        "dekal",
        "dekal.spec",
        "dekal.conformance",
        "dekal.conformance.case_run",
        "dekal.conformance.client",
        "dekal.conformance.compare",
        "dekal.conformance.engine_link",
        "dekal.conformance.inprocess_engine",
        "dekal.conformance.perft_run",
        "dekal.conformance.protocol",
        "dekal.conformance.runner",
        "dekal.conformance.vectors",
    }
)
"""The modules of the judge. A worker imports them unmutated before the engine's modules are
dropped from sys.modules and imported again with the mutant in place, so that a mutant of
dekal_ref.position (whose constants the judge's public view reads) cannot bend the judge."""


# -- the mutants ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Mutant:
    """One change to one module, found by `sites`; `index` is its place in that list."""

    engine: str
    module: str
    index: int
    line: int  # where the changed node starts
    statement_line: int  # the first line of the statement holding it (what coverage reports)
    function: str  # the enclosing def, dotted ("Grid.push"), or "<module>"
    operator: str
    before: str  # the node, unparsed
    after: str  # the node after the change
    digest: str  # a hash of (operator, before, after, occurrence) within the function

    @property
    def key(self) -> str:
        """Stable across unrelated edits: no line number in it."""
        return f"{self.module}:{self.function}:{self.operator}:{self.digest}"

    @property
    def change(self) -> str:
        return f"{short(self.before)} → {short(self.after)}"


def short(text: str, width: int = 60) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


@dataclass
class Site:
    """Where a mutation goes in one syntax tree: `parent.field[index] = replacement`."""

    node: ast.AST
    replacement: ast.AST
    parent: ast.AST
    field_name: str
    position: int | None  # index in a list field, None for a single node
    operator: str
    statement: ast.stmt
    function: str

    def apply(self) -> None:
        ast.copy_location(self.replacement, self.node)
        if self.position is None:
            setattr(self.parent, self.field_name, self.replacement)
        else:
            getattr(self.parent, self.field_name)[self.position] = self.replacement


BINARY_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult, ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult, ast.LShift: ast.RShift,
    ast.RShift: ast.LShift, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.BitXor: ast.BitOr,
}  # fmt: skip
COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    # an order's boundary moves; an equality, membership or identity test is negated
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}  # fmt: skip
CALL_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}
RULE_IDS = (
    "M1", "M2", "M3", "M4", "M5", "T1", "T2", "T3", "T4", "T5", "P1", "P2",
    "F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4", "B1",
)  # fmt: skip
"""The rule IDs of spec/rules.md: a refusal's rule ID mutates into the next one."""
SKIPPED_FIELDS = frozenset({"annotation", "returns", "decorator_list", "type_comment"})
DELETABLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Continue, ast.Break)


def is_docstring(node: ast.AST) -> bool:
    """A string standing alone as a statement (a docstring, an attribute's docstring), or the
    `...` body of a Protocol's method: text for readers and mypy, no code."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and (isinstance(node.value.value, str) or node.value.value is Ellipsis)
    )


def is_strict_flag(node: ast.AST) -> bool:
    """`zip(..., strict=True)` asserts equal lengths, like an `assert` (not mutated either):
    in code whose lengths are equal, flipping it changes nothing."""
    return isinstance(node, ast.keyword) and node.arg == "strict"


def is_guard_block(node: ast.AST) -> bool:
    """`if TYPE_CHECKING:` and `if __name__ == "__main__":` hold no rules."""
    if not isinstance(node, ast.If):
        return False
    test = ast.unparse(node.test)
    return test == "TYPE_CHECKING" or test.startswith("__name__ ==")


class SiteFinder:
    """Walks one module's tree in a fixed order and lists every mutation site in it."""

    def __init__(self) -> None:
        self.sites: list[Site] = []
        self.scope: list[str] = []
        self.statement: ast.stmt | None = None
        self.returns_bool = [False]

    def add(
        self, node: ast.AST, replacement: ast.AST, parent: ast.AST, field_name: str,
        position: int | None, operator: str,
    ) -> None:  # fmt: skip
        assert self.statement is not None
        function = ".".join(self.scope) or "<module>"
        self.sites.append(
            Site(node, replacement, parent, field_name, position, operator, self.statement,
                 function)
        )  # fmt: skip

    def walk(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt):
            outer, self.statement = self.statement, node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self.scope.append(node.name)
            returns = getattr(node, "returns", None)
            self.returns_bool.append(returns is not None and ast.unparse(returns) == "bool")
        for name, value in ast.iter_fields(node):
            if name in SKIPPED_FIELDS:
                continue
            if isinstance(value, list):
                for position, child in enumerate(value):
                    if isinstance(child, ast.AST):
                        self.child(node, name, position, child)
            elif isinstance(value, ast.AST):
                self.child(node, name, None, value)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self.scope.pop()
            self.returns_bool.pop()
        if isinstance(node, ast.stmt):
            self.statement = outer

    def child(self, parent: ast.AST, name: str, position: int | None, node: ast.AST) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom | ast.Assert | ast.JoinedStr):
            return  # imports, invariant checks and message texts
        if is_docstring(node) or is_guard_block(node) or is_all_assignment(node):
            return
        if is_strict_flag(node):
            return
        if isinstance(node, ast.stmt):
            outer, self.statement = self.statement, node
            self.statement_sites(parent, name, position, node)
            self.statement = outer
        else:
            self.expression_sites(parent, name, position, node)
        self.walk(node)

    def statement_sites(
        self, parent: ast.AST, name: str, position: int | None, node: ast.stmt
    ) -> None:
        in_function = len(self.returns_bool) > 1 and not isinstance(parent, ast.ClassDef)
        if not in_function:
            return  # deleting a module constant only breaks the import: no information
        if isinstance(node, ast.Raise):
            self.add(node, ast.Pass(), parent, name, position, "remove raise")
        elif isinstance(node, DELETABLE) and not is_bare_annotation(node):
            self.add(node, ast.Pass(), parent, name, position, "delete statement")
        elif isinstance(node, ast.Return) and not isinstance(parent, ast.FunctionDef):
            # an early return (inside an if or a loop): deleting it falls through
            self.add(node, ast.Pass(), parent, name, position, "delete statement")
        if isinstance(node, ast.Return) and node.value is not None:
            self.return_sites(node)
        if isinstance(node, ast.If | ast.While):
            self.add(node.test, negated(node.test), node, "test", None, "negate condition")

    def return_sites(self, node: ast.Return) -> None:
        value = node.value
        if isinstance(value, ast.Tuple) and len(value.elts) == 2:
            first, second = value.elts
            if ast.dump(first) != ast.dump(second):
                swapped = ast.Tuple(elts=[second, first], ctx=ast.Load())
                self.add(value, swapped, node, "value", None, "swap returned values")
        elif self.returns_bool[-1] and value is not None and not isinstance(value, ast.Constant):
            self.add(value, negated(value), node, "value", None, "negate returned value")

    def expression_sites(
        self, parent: ast.AST, name: str, position: int | None, node: ast.AST
    ) -> None:
        def add(replacement: ast.AST, operator: str) -> None:
            self.add(node, replacement, parent, name, position, operator)

        if isinstance(node, ast.BinOp) and type(node.op) in BINARY_SWAPS:
            add(ast.BinOp(node.left, BINARY_SWAPS[type(node.op)](), node.right), "arithmetic")
        elif isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                ops = list(node.ops)
                ops[k] = COMPARE_SWAPS[type(op)]()
                add(ast.Compare(node.left, ops, node.comparators), "comparison")
        elif isinstance(node, ast.BoolOp):
            other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            add(ast.BoolOp(other, node.values), "and/or")
        elif isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.UAdd):
            add(node.operand, "remove unary " + type(node.op).__name__.lower())
        elif isinstance(node, ast.IfExp):
            add(ast.IfExp(negated(node.test), node.body, node.orelse), "negate condition")
        elif isinstance(node, ast.comprehension):
            for k, condition in enumerate(node.ifs):
                self.add(condition, negated(condition), node, "ifs", k, "negate condition")
        elif isinstance(node, ast.Constant):
            self.constant_sites(node, add)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in CALL_SWAPS
        ):
            swapped = ast.Name(CALL_SWAPS[node.func.id], ast.Load())
            add(ast.Call(swapped, node.args, node.keywords), "swap call")

    @staticmethod
    def constant_sites(node: ast.Constant, add: Callable[[ast.AST, str], None]) -> None:
        value = node.value
        if isinstance(value, bool):
            add(ast.Constant(not value), "flip boolean")
        elif isinstance(value, int):
            add(ast.Constant(value + 1), "constant + 1")
            add(ast.Constant(value - 1), "constant - 1")
        elif isinstance(value, str) and value in RULE_IDS:
            following = RULE_IDS[(RULE_IDS.index(value) + 1) % len(RULE_IDS)]
            add(ast.Constant(following), "rule ID")


def negated(test: ast.expr) -> ast.expr:
    return ast.UnaryOp(ast.Not(), test)


def is_bare_annotation(node: ast.AST) -> bool:
    """`keys: list[int]` without a value only informs mypy: deleting it changes nothing."""
    return isinstance(node, ast.AnnAssign) and node.value is None


def is_all_assignment(node: ast.AST) -> bool:
    return isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
    )


def sites(tree: ast.Module) -> list[Site]:
    """Every mutation site of a module's tree, in a fixed order (the same for the same text)."""
    finder = SiteFinder()
    finder.walk(tree)
    return finder.sites


def module_file(module: str) -> Path:
    """The source file of a module, found without importing the module itself."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise ValueError(f"no module {module!r}")
    return Path(spec.origin).resolve()


def mutants_of(engine: str, module: str) -> list[Mutant]:
    """Every mutant of one module, in site order."""
    tree = ast.parse(module_file(module).read_text("utf-8"))
    found: list[Mutant] = []
    seen: Counter[tuple[str, str, str, str]] = Counter()
    for index, site in enumerate(sites(tree)):
        before, after = ast.unparse(site.node), ast.unparse(site.replacement)
        identity = (site.function, site.operator, before, after)
        occurrence = seen[identity]
        seen[identity] += 1
        text = f"{site.operator}\n{before}\n{after}\n{occurrence}"
        found.append(
            Mutant(
                engine, module, index, getattr(site.node, "lineno", site.statement.lineno),
                site.statement.lineno, site.function, site.operator, before, after,
                hashlib.sha256(text.encode("utf-8")).hexdigest()[:10],
            )
        )  # fmt: skip
    return found


def mutated_tree(mutant: Mutant) -> ast.Module:
    """The module's tree with the mutant's change made (the file is only read)."""
    tree = ast.parse(module_file(mutant.module).read_text("utf-8"))
    site = sites(tree)[mutant.index]
    if ast.unparse(site.node) != mutant.before or site.operator != mutant.operator:
        raise RuntimeError(f"{mutant.module} changed since its mutants were listed")
    site.apply()
    return ast.fix_missing_locations(tree)


def diff_lines(mutant: Mutant) -> tuple[str, str]:
    """The source line of the change, before and after (a one-line diff)."""
    source = module_file(mutant.module).read_text("utf-8")
    tree = ast.parse(source)
    site = sites(tree)[mutant.index]
    line = source.splitlines()[mutant.line - 1]
    node = site.node
    first, last = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
    if getattr(node, "end_lineno", None) == mutant.line and first is not None and last:
        start, stop = line.encode()[:first], line.encode()[last:]
        if isinstance(site.replacement, ast.Pass):
            changed = start.decode() + "pass"
        else:
            changed = start.decode() + ast.unparse(site.replacement) + stop.decode()
        return line.strip(), changed.strip()
    # a node over several lines: its first line, then the change in short
    return short(line.strip() + " …", 90), f"{short(mutant.before)}  →  {short(mutant.after)}"


# -- the worker: one mutant, one fresh process ---------------------------------------------
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


def default_suite() -> Path:
    from dekal.conformance.vectors import suite_directory

    return Path(str(suite_directory()))


def judge_suite(job: dict[str, Any]) -> dict[str, Any]:
    """Run the suite on one engine, with one module mutated (or none), in this process.

    Stops at the first case that does not pass (the mutant is killed). With `coverage`, also
    returns the executed lines of the engine's rule modules.
    """
    from dekal.conformance.client import InProcessEngine
    from dekal.conformance.runner import run_case

    cases = load_suite(Path(job["suite_dir"]))
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
        engine = InProcessEngine(factory, f"dekal-{job['engine']}", job["case_timeout"])
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
    """`--worker`: read one job (JSON) on stdin, print one verdict (JSON), exit at once."""
    job = json.loads(sys.stdin.read())
    verdict = judge_suite(job)
    sys.stdout.write("\n" + VERDICT_MARK + json.dumps(verdict) + "\n")
    sys.stdout.flush()
    os._exit(0)  # a mutant's hung worker thread must not hold the process


VERDICT_MARK = "@@verdict "


def run_worker(job: dict[str, Any], wall_limit: float) -> dict[str, Any]:
    """One job in a fresh process; a process past its wall limit is killed (a timeout)."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker"]
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


# -- the measurement -----------------------------------------------------------------------
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


# -- reports -------------------------------------------------------------------------------
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


# -- the command ---------------------------------------------------------------------------
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
        help="a conformance suite directory (default: the installed suite)",
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
