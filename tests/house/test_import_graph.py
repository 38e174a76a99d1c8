"""No import circle among the modules of the installed packages (issue 20), and the
conformance room's wings import only along their data flow (issue 26).

The graph: one node per module of the wheel (pyproject.toml's package-dir), an edge A -> B
when A imports B when it runs: at module level or inside a function (a lazy import is still
a dependency), but not under `if TYPE_CHECKING:` (never run). `from P import x` is an edge to
the module P.x when x is one, else to P. The reference (dekal_ref) is the ground floor: it
imports nothing of dekal, and its pictures (svg.py) depend on its state, not the reverse.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]


def _modules() -> dict[str, Path]:
    """Every module of the wheel by its dotted name, with its file."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        folders = tomllib.load(handle)["tool"]["setuptools"]["package-dir"]
    found: dict[str, Path] = {}
    for package, folder in folders.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def _imported(tree: ast.Module, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of `known` that `module` imports when it runs."""
    targets: set[str] = set()

    def resolve(base: str, level: int) -> str:
        if level == 0:
            return base
        parts = module.split(".")
        parts = parts if is_package else parts[:-1]
        parts = parts[: len(parts) - (level - 1)]
        return ".".join([*parts, base] if base else parts)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = resolve(node.module or "", node.level)
            for alias in node.names:
                inner = f"{base}.{alias.name}"
                targets.add(inner if inner in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return (targets & known) - {module}


def import_graph() -> nx.DiGraph:
    modules = _modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        tree = ast.parse(path.read_text())
        for target in _imported(tree, name, path.stem == "__init__", set(modules)):
            graph.add_edge(name, target)
    return graph


def test_no_module_of_the_wheel_is_in_an_import_circle() -> None:
    circles = [sorted(cycle) for cycle in nx.simple_cycles(import_graph())]
    assert circles == []


def test_the_reference_imports_nothing_of_dekal() -> None:
    graph = import_graph()
    reference = [node for node in graph if node.split(".")[0] == "dekal_ref"]
    reached = {target for node in reference for target in nx.descendants(graph, node)}
    assert {node for node in reached if node.split(".")[0] == "dekal"} == set()


def test_the_state_does_not_import_its_pictures() -> None:
    assert not nx.has_path(import_graph(), "dekal_ref.state", "dekal_ref.svg")


def test_the_graph_sees_a_lazy_import_and_resolves_relative_ones() -> None:
    """The check can fail: an import inside a function and a relative import are edges."""
    known = {"p", "p.a", "p.b", "p.c"}
    tree = ast.parse(
        "from . import b\ndef f():\n    from p.c import x\nif TYPE_CHECKING:\n    import p.a\n"
    )
    assert _imported(tree, "p.a", False, known) == {"p.b", "p.c"}


WINGS = ("drive", "cases", "judge", "fuzz", "report")
"""The conformance room's wings in the order its data flows (conformance/__init__.py): a wing
may import the wings before it, never one after it; fuzz and report, the two ends, do not
import each other."""


def _wing(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] == ["dekal", "conformance"] and len(parts) > 2 and parts[2] in WINGS:
        return parts[2]
    return None


def against_the_flow(graph: nx.DiGraph) -> list[tuple[str, str]]:
    """Every import from a wing into a wing that comes after it (or between fuzz and report)."""
    wrong = []
    for source, target in graph.edges:
        a, b = _wing(source), _wing(target)
        if a is None or b is None or a == b:
            continue
        if {a, b} == {"fuzz", "report"} or WINGS.index(b) > WINGS.index(a):
            wrong.append((source, target))
    return sorted(wrong)


def test_no_wing_of_the_conformance_room_imports_against_its_flow() -> None:
    assert against_the_flow(import_graph()) == []


def test_the_flow_check_sees_a_drive_module_importing_the_judge() -> None:
    graph = nx.DiGraph(
        [
            ("dekal.conformance.drive._adapter", "dekal.conformance.judge._runner"),
            ("dekal.conformance.judge._runner", "dekal.conformance.drive._adapter"),
            ("dekal.conformance.report._html", "dekal.conformance.fuzz._fuzz"),
        ]
    )
    assert against_the_flow(graph) == [
        ("dekal.conformance.drive._adapter", "dekal.conformance.judge._runner"),
        ("dekal.conformance.report._html", "dekal.conformance.fuzz._fuzz"),
    ]
