"""No import circle among the modules of the installed packages (issue 20).

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

ROOT = Path(__file__).resolve().parent.parent


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
        "from . import b\n"
        "def f():\n    from p.c import x\n"
        "if TYPE_CHECKING:\n    import p.a\n"
    )
    assert _imported(tree, "p.a", False, known) == {"p.b", "p.c"}
