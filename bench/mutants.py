"""The mutants of bench/mutate.py: where a small change can go in a rule module's syntax tree,
and the change itself (`<` made `<=`, `and` made `or`, a constant off by one, a statement
deleted, a `raise` removed…), each with a key that survives unrelated edits.

A module's file is only read: a mutant is a changed syntax tree (`mutated_tree`), which the
worker (bench/mutant_worker.py) loads in place of the module.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
        "dekal.bits", "dekal.tables", "dekal._grid", "dekal.state", "dekal._game",
        "dekal.actions", "dekal.position", "dekal.ranking",
    ),
}  # fmt: skip


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
