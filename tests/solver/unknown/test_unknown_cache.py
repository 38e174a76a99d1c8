"""numba's on-disk cache of the --unknown kernels (proofs._unknown.tables.refresh_cache): numba
keys a file's cached code by that file alone, so every source a compiled file compiles in
(the shared tables, the two-`?` module) must be part of the digest each file's cache is
checked against, and a change to any of them drops every such file's cached code."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("numba")

PROOFS = Path(__file__).resolve().parents[3] / "proofs" / "_unknown"


def _compiled_in(path: Path) -> set[str]:
    """The file itself when it holds compiled functions, and the --unknown modules it imports."""
    tree = ast.parse(path.read_text())
    found = {path.name} if "@compiled" in path.read_text() else set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.module == "dekal.proofs._unknown":
            found |= {f"{alias.name}.py" for alias in node.names}
        elif (node.module or "").startswith("dekal.proofs._unknown."):
            found.add(f"{node.module.rsplit('.', 1)[1]}.py")  # type: ignore[union-attr]
    return found


def test_every_source_a_compiled_unknown_file_compiles_in_is_in_the_digest() -> None:
    from dekal.proofs._unknown import tables as tables

    for path in PROOFS.glob("*.py"):
        if "@compiled" in path.read_text():
            assert _compiled_in(path) <= set(tables.COMPILED_SOURCES), path.name


def test_a_change_to_the_tables_drops_the_other_files_cached_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dekal.proofs._unknown import tables as tables

    sources = tmp_path / "_unknown"
    sources.mkdir()
    for name in tables.COMPILED_SOURCES:
        shutil.copy(PROOFS / name, sources / name)
    monkeypatch.setattr(tables, "HERE", sources)
    cache = tmp_path / "cache"
    function = SimpleNamespace(stats=SimpleNamespace(cache_path=str(cache)))
    tables.refresh_cache(function, "/x/kernel.py")  # the stamp of these sources
    cached = cache / "kernel.expected-1.py311.nbi"
    cached.write_text("machine code")
    tables.refresh_cache(function, "/x/kernel.py")
    assert cached.exists(), "nothing changed: the cached code is kept"
    with (sources / "tables.py").open("a") as handle:
        handle.write("\n# a change to the tables\n")
    tables.refresh_cache(function, "/x/kernel.py")
    assert not cached.exists()
