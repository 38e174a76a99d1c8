"""The core install is the light one, and every optional library is imported one way.

pyproject.toml's dependencies are the core (issue 20: ≤ 150 MB, no compiled kernel, Dask,
plots or OpenSpiel); its extras are dekal.extras.EXTRAS; and every import of an optional
library in the installed packages sits in a `with needed(...)` block (or is for the type
checker only), so a missing one is always a one-line MissingExtra naming its extra.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

import pytest

from dekal.extras import EXTRA_OF_MODULE, EXTRAS

ROOT = Path(__file__).resolve().parents[2]
CORE_MODULES = {
    "typer": "typer",
    "rich": "rich",
    "z3": "z3-solver",
    "jsonschema": "jsonschema",
    "hypothesis": "hypothesis",
}
"""What the conformance suite (fuzz included), score, push, replay, solve, puzzle and prove
import, by module, with the distribution that brings it."""
CORE = set(CORE_MODULES.values())


def _project() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        project = tomllib.load(handle)["project"]
    assert isinstance(project, dict)
    return project


def _name(requirement: str) -> str:
    """The distribution a requirement names: "numba>=0.60" -> "numba"."""
    found = re.match(r"[A-Za-z0-9._-]+(\[[^\]]*\])?", requirement)
    assert found is not None
    return found.group(0)


def _expanded(extra: str, table: dict[str, list[str]]) -> set[str]:
    """The distributions an extra brings, its `dekal[...]` references followed."""
    names: set[str] = set()
    for requirement in table[extra]:
        name = _name(requirement)
        if name.startswith("dekal["):
            for inner in name[len("dekal[") : -1].split(","):
                names |= _expanded(inner, table)
        else:
            names.add(name)
    return names


def _extras() -> dict[str, list[str]]:
    table = _project()["optional-dependencies"]
    assert isinstance(table, dict)
    return table


def test_the_core_dependencies_are_the_light_ones() -> None:
    dependencies = _project()["dependencies"]
    assert isinstance(dependencies, list)
    assert {_name(d) for d in dependencies} == CORE


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_each_extra_brings_what_dekal_extras_says(extra: str) -> None:
    assert _expanded(extra, _extras()) == set(EXTRAS[extra])


def test_all_is_every_extra_and_test_pulls_them_all() -> None:
    table = _extras()
    every = set().union(*(set(libraries) for libraries in EXTRAS.values()))
    assert _expanded("all", table) == every
    assert every <= _expanded("test", table)


ROOMS = ("engine", "conformance", "dekal_ref", "cli", "proofs", "spec", "bots", "simulation")


def _optional_imports_outside_needed(tree: ast.Module) -> list[str]:
    """Imports of an optional library not inside `with needed(...)` nor `if TYPE_CHECKING`."""
    found: list[str] = []

    def visit(node: ast.AST, guarded: bool) -> None:
        if isinstance(node, ast.With):
            guarded = guarded or any(
                isinstance(item.context_expr, ast.Call)
                and isinstance(item.context_expr.func, ast.Name)
                and item.context_expr.func.id == "needed"
                for item in node.items
            )
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            guarded = True
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules = [node.module]
        for module in modules:
            if module.split(".")[0] in EXTRA_OF_MODULE and not guarded:
                found.append(f"line {node.lineno}: {module}")
        for child in ast.iter_child_nodes(node):
            visit(child, guarded)

    visit(tree, False)
    return found


def test_every_optional_library_is_imported_inside_needed() -> None:
    stray = {
        str(path.relative_to(ROOT)): found
        for room in ROOMS
        for path in sorted((ROOT / room).rglob("*.py"))
        if (found := _optional_imports_outside_needed(ast.parse(path.read_text())))
    }
    assert stray == {}


def _top_level_imports(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_every_library_the_wheel_imports_is_in_the_core_or_an_extra() -> None:
    """A library imported anywhere (a lazy import too) that no dependency brings would be a
    ModuleNotFoundError on a fresh install: `conformance fuzz` shrank with Hypothesis, which
    only [test] installed, until this test."""
    imported = {
        name
        for room in ROOMS
        for path in (ROOT / room).rglob("*.py")
        for name in _top_level_imports(ast.parse(path.read_text()))
    }
    ours = {"dekal", "dekal_ref", "__future__"}
    brought = set(CORE_MODULES) | set(EXTRA_OF_MODULE)
    assert imported - set(sys.stdlib_module_names) - ours - brought == set()


def test_the_guard_sees_an_unguarded_import() -> None:
    """The check above can fail: a bare `import numba` in a function is reported."""
    tree = ast.parse("def f():\n    import numba\n")
    assert _optional_imports_outside_needed(tree) == ["line 2: numba"]
