"""Each room shows one public surface; everything else is marked internal (issue 26).

A module is public when no part of its dotted name starts with `_`; it is then named in
PUBLIC_MODULES below, and its room's `__all__` is pinned in ROOM_ALL (as Hypothesis pins
`hypothesis.strategies.__all__`): adding a public name is a decision made here, in review,
not an accident of a new file. Code in the docs (console lines, `>>>` lines, Python blocks)
only uses public names, and every name a room's `__all__` lists is importable from it.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from test_import_graph import _modules

ROOT = Path(__file__).resolve().parents[2]

ROOM_ALL: dict[str, list[str]] = {
    "dekal": [
        "actions", "batch", "bits", "draws", "engines", "extras", "fast", "kernel",
        "openspiel", "position", "ranking", "simulate", "state", "symmetry", "tables",
    ],
    "dekal.conformance": [
        "PROTOCOL_VERSION", "SUITE_VERSION", "SUITE_VERSIONS", "DirectEngine", "Run",
        "SubprocessEngine", "bundled_engine", "load_cases", "report_json", "run_suite",
    ],
    "dekal.proofs": ["limits", "portfolio", "puzzle", "puzzle_set", "search", "z3_solve"],
    "dekal.bots": [
        "advise", "annotate", "bot", "observation", "sampler", "serve", "table", "work",
    ],
    "dekal.simulation": ["games", "plots", "runner", "stats"],
    "dekal.cli": [],
    "dekal_ref": [
        "Action", "Card", "Deal", "DekalError", "GameState", "Grid", "IllegalAction",
        "NewRound", "NotationError", "Phase", "Push", "PushMove", "Reveal", "Rules", "Score",
        "Standing", "Take", "apply", "cancelled_cells", "format_grid", "format_position",
        "legal_actions", "legal_pushes", "new_game", "parse_action", "parse_cell",
        "parse_grid", "parse_position", "parse_push", "position_svg", "push", "push_card",
        "ranking", "reveal", "round_scores", "score_grid", "seeded_deal", "seeded_deals",
        "start_round", "take", "winners",
    ],
}  # fmt: skip

WINGS = ["drive", "cases", "judge", "fuzz", "report"]
"""The conformance room's wings, in the order its data flows (conformance/__init__.py)."""

PUBLIC_MODULES = (
    {room for room in ROOM_ALL}
    | {f"{room}.{name}" for room, names in ROOM_ALL.items() for name in names
       if room != "dekal.conformance" and name[0].islower() and room != "dekal_ref"}
    | {f"dekal.conformance.{wing}" for wing in WINGS}
    | {"dekal.conformance.serve", "dekal.conformance.generate", "dekal.spec"}
)  # fmt: skip
"""Every module of dekal a user may import. The reference (dekal_ref) is read as the rulebook:
all of it is public, and its package's `__all__` holds the names the docs import from it."""


def _unmarked(name: str) -> bool:
    return not any(p.startswith("_") and not p.endswith("__") for p in name.split("."))


def test_every_module_is_public_or_marked_internal() -> None:
    unmarked = {name for name in _modules() if _unmarked(name) and name.startswith("dekal.")}
    unmarked |= {"dekal"}
    assert unmarked - PUBLIC_MODULES == set(), "public by accident: add a leading `_` or list it"
    assert PUBLIC_MODULES - unmarked - {"dekal.cli", "dekal_ref"} == set(), "listed, not there"


@pytest.mark.parametrize("room", sorted(ROOM_ALL))
def test_each_room_all_is_held_to_its_documented_names(room: str) -> None:
    module = importlib.import_module(room)
    assert sorted(module.__all__) == sorted(ROOM_ALL[room])


@pytest.mark.parametrize("room", sorted(ROOM_ALL))
def test_every_name_of_a_room_all_is_importable(room: str) -> None:
    module = importlib.import_module(room)
    for name in module.__all__:
        if not hasattr(module, name):
            importlib.import_module(f"{room}.{name}")  # a public submodule
        assert getattr(module, name) is not None, f"{room}.{name}"


def test_the_conformance_rooms_example_runs() -> None:
    import doctest

    import dekal.conformance

    assert doctest.testmod(dekal.conformance).failed == 0


def test_each_wing_says_what_it_reads_and_what_it_hands_on() -> None:
    for wing in WINGS:
        doc = importlib.import_module(f"dekal.conformance.{wing}").__doc__ or ""
        assert "Reads:" in doc and "Hands on:" in doc, wing


def test_the_wings_hold_no_names_of_their_own() -> None:
    """A wing is a folder with a door sign: its modules are internal, its names come from
    `dekal.conformance` (so no name has two homes)."""
    for wing in WINGS:
        module = importlib.import_module(f"dekal.conformance.{wing}")
        own = [
            name
            for name, value in vars(module).items()
            if not name.startswith("__") and not isinstance(value, type(module))
        ]
        assert own == [], wing


CODE_LINE = re.compile(r"^\s*(\$ |>>> |\.\.\. )(.*)$")
DOTTED = re.compile(r"\b(dekal(?:_ref)?(?:\.\w+)+)")


def _doc_code(text: str) -> list[str]:
    """The lines of a page that are run or typed: console and doctest lines, Python blocks."""
    lines, in_python = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            in_python = line.strip() in ("```python", "```py")
            continue
        match = CODE_LINE.match(line)
        if in_python or match:
            lines.append(match.group(2) if match else line)
    return lines


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
            *sorted((ROOT / "spec").rglob("*.md"))]  # fmt: skip


def test_the_docs_code_uses_only_public_names() -> None:
    used = {
        (page.relative_to(ROOT).as_posix(), name)
        for page in _pages()
        for line in _doc_code(page.read_text(encoding="utf-8"))
        for name in DOTTED.findall(line)
    }
    internal = sorted((page, name) for page, name in used if not _unmarked(name))
    assert internal == []


def test_the_check_sees_an_internal_name_in_a_console_line() -> None:
    page = "text\n\n    $ python -m dekal.conformance.judge._coverage\n\n```python\nimport x\n```\n"
    assert _doc_code(page) == ["python -m dekal.conformance.judge._coverage", "import x"]
    assert not _unmarked(DOTTED.findall(_doc_code(page)[0])[0])
