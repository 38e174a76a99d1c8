"""The tests mirror the rooms of the product (issue 26): a newcomer finds the tests of the code
in front of them, and planted faults live in one place."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from collections import Counter
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent

FOLDERS = {
    "rules": "dekal_ref/ and spec/rules.md, spec/notation.md",
    "engine": "engine/ (dekal, dekal.kernel)",
    "solver": "proofs/ and `dekal solve`, `puzzle`, `prove`",
    "solver/unknown": "proofs/_unknown/: `dekal solve --unknown` (spec/solo-unknown.md)",
    "bots": "bots/ and `dekal advise`, `annotate`, `play`",
    "simulation": "simulation/ and `dekal simulate`",
    "cli": "what every command shares: help, errors, paths, signals, the core install",
    "hostile": "bad input and hostile engines, schedulers and files",
    "docs": "every page's examples and figures",
    "house": "the layout itself: imports, public surface, packaging, the test command",
    "conformance": "the conformance room, one folder per wing",
    "conformance/drive": "conformance/drive/",
    "conformance/cases": "conformance/cases/",
    "conformance/judge": "conformance/judge/",
    "conformance/fuzz": "conformance/fuzz/",
    "conformance/report": "conformance/report/",
    "support": "tools the tests share (the CLI walker, doc pages, the browser)",
    "miniatures": "planted faults: misreadings of one rule, planted in the reference",
    "miniatures/engines": "broken engine processes: crash, hang, flood, fork, ignore SIGTERM",
    "miniatures/bots": "broken bot programs (spec/bot-protocol.md): illegal, late, crash, garbage",
}
"""Every folder of tests/, and what it tests."""


def test_every_test_file_lives_in_a_folder_of_a_room() -> None:
    folders = {path.parent.relative_to(TESTS).as_posix() for path in TESTS.rglob("*.py")}
    assert folders - {"."} <= set(FOLDERS), "a folder of tests/ that names no room"
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == [], "a test file outside a room"


def test_test_file_names_are_unique_across_the_tree() -> None:
    """Test modules are imported by their file name (tests/conftest.py puts every folder on
    the path): two files of one name would shadow each other."""
    names = Counter(path.name for path in TESTS.rglob("*.py") if path.name != "__init__.py")
    assert [name for name, count in names.items() if count > 1] == []


def test_each_conformance_wing_has_its_tests() -> None:
    wings = {p.name for p in (ROOT / "conformance").iterdir() if (p / "__init__.py").exists()}
    assert {f"conformance/{wing}" for wing in wings} <= set(FOLDERS)
    for wing in wings:
        assert list((TESTS / "conformance" / wing).glob("test_*.py")), wing


def test_the_checkout_tracks_no_symbolic_link() -> None:
    """A link committed from one machine (a helper's worktree, a local venv) points nowhere on
    another; every file of the checkout is a real file."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    listing = subprocess.run(
        ["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    links = [line.split("\t", 1)[1] for line in listing.splitlines() if line.startswith("120000")]
    assert links == []


MOST_MODULES = 20
"""How many modules one folder of the product may hold side by side: a newcomer takes in a
folder's names at a glance; past this, a room splits into wings along its data flow
(conformance/'s five, proofs/_unknown/, cli/_solver/, bots/_players/...)."""


def test_no_folder_of_the_product_holds_more_than_twenty_modules_side_by_side() -> None:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        setuptools = tomllib.load(handle)["tool"]["setuptools"]
    rooms = {ROOT / folder for folder in setuptools["package-dir"].values()}
    folders = {init.parent for room in rooms for init in room.rglob("__init__.py")}
    crowded = {
        folder.relative_to(ROOT).as_posix(): count
        for folder in folders
        if (count := sum(1 for p in folder.glob("*.py") if p.name != "__init__.py")) > MOST_MODULES
    }
    assert crowded == {}
