"""The wheel ships every package of the tree, under the names the build config maps."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _config() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        setuptools = tomllib.load(handle)["tool"]["setuptools"]
    assert isinstance(setuptools, dict)
    return setuptools


def test_every_python_package_of_the_tree_is_listed_for_the_wheel() -> None:
    config = _config()
    mapping = config["package-dir"]
    assert isinstance(mapping, dict)
    folder_to_name = {folder: name for name, folder in mapping.items()}
    found = set()
    for top, name in folder_to_name.items():
        for init in (ROOT / top).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / top)
            found.add(".".join([name, *relative.parts]))
    listed = config["packages"]
    assert isinstance(listed, list)
    assert found <= set(listed), f"packages missing from pyproject.toml: {found - set(listed)}"


def test_no_generic_top_level_module_is_installed() -> None:
    mapping = _config()["package-dir"]
    assert isinstance(mapping, dict)
    assert {name.split(".")[0] for name in mapping} == {"dekal", "dekal_ref"}


def test_the_spec_and_its_vectors_are_installed_data() -> None:
    spec = resources.files("dekal.spec")
    assert spec.joinpath("rules.md").is_file()
    assert spec.joinpath("protocol.md").is_file()
    assert spec.joinpath("conformance", "v1", "manifest.json").is_file()


DOC_FILES = [ROOT / "README.md", *sorted(ROOT.glob("docs/*.md")), *sorted(ROOT.glob("spec/*.md"))]
IMPORT_LINE = re.compile(r"^\s*(?:>>> )?((?:from|import) dekal\S*( .*)?)$", re.MULTILINE)


def _documented_imports() -> list[str]:
    found = {m.group(1).strip() for doc in DOC_FILES for m in IMPORT_LINE.finditer(doc.read_text())}
    return sorted(found)


def test_the_docs_show_imports_of_every_room() -> None:
    text = "\n".join(_documented_imports())
    for package in ("dekal_ref", "dekal.proofs", "dekal import"):
        assert package in text


def test_no_folder_of_the_checkout_shadows_the_installed_package() -> None:
    # A folder named `dekal` at the root would be found first from the checkout root and hide
    # the installed dekal.cli, dekal.proofs, dekal.spec and dekal.conformance.
    assert not (ROOT / "dekal").exists()


@pytest.mark.parametrize("where", ["checkout root", "elsewhere"])
def test_every_documented_import_works(where: str, tmp_path: Path) -> None:
    rooms = "import dekal.cli._app, dekal.spec, dekal.conformance.serve"
    program = "\n".join([*_documented_imports(), rooms])
    cwd = ROOT if where == "checkout root" else tmp_path
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
