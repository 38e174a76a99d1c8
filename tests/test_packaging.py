"""The wheel ships every package of the tree, under the names the build config maps."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
