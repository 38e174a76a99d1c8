"""Every file or folder the docs point to exists (issue 13: docs that drift).

Checked: the relative links `[text](path)` and the backticked paths (`engine/bits.py`,
`spec/examples/`, `rules.md`) of README.md, docs/*.md and spec/*.md. A link resolves from the
page's folder; a backticked path from the page's folder or from the repository root; a bare
file name (`rules.md`) may also name a file anywhere in the repository.

Two kinds of name are outside the repository on purpose, and the pages say so (rules.md,
"Sources"): the French rule sources, cited by file name (`001_2e38e7eca016b80b.txt`), and
the product owner's rulings, both kept in the shared folder beside the repository
(`shared/seeds/`, `shared/RULINGS.md`) and not redistributed.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "spec").glob("*.md")])

LINK = re.compile(r"\]\(([^)\s]+)\)")
BACKTICKED = re.compile(r"`([^`\s]+)`")
FILE_NAME = re.compile(r"^[\w.-]+\.(?:md|py|json|jsonl|dkr|js|toml|txt|yml|yaml|sh|cfg)$")
PATH = re.compile(r"^[\w.-]+(?:/[\w.-]+)*/(?:[\w.-]+\.\w+)?$")  # a/b/, a/b/c.ext
SOURCE = re.compile(r"^\d{3}_[0-9a-f]{16}\.txt$")  # a French rule source, cited by name
PLACEHOLDER = re.compile(r"(?:^|/)[A-Z]+(?:/|$)")  # DIR/fuzz-1.jsonl: DIR is the reader's folder
OUTSIDE = ("shared/",)  # the shared folder beside the repository (rules.md, "Sources")


def tracked_names() -> set[str]:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return {Path(name).name for name in listed}


NAMES = tracked_names()


def pointers(text: str) -> list[str]:
    """The relative links and backticked paths of a page, code blocks left out."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    found = []
    for target in LINK.findall(prose):
        if not re.match(r"^[a-z]+:", target) and not target.startswith("#"):
            found.append(target.split("#")[0])
    for token in BACKTICKED.findall(prose):
        if FILE_NAME.match(token) or PATH.match(token):
            found.append(token)
    return [
        p
        for p in found
        if p and not SOURCE.match(p) and not PLACEHOLDER.search(p) and not p.startswith(OUTSIDE)
    ]


def exists(page: Path, pointer: str) -> bool:
    if (page.parent / pointer).exists() or (ROOT / pointer).exists():
        return True
    return "/" not in pointer and pointer in NAMES


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_file_a_page_points_to_exists(page: Path) -> None:
    missing = [p for p in pointers(page.read_text(encoding="utf-8")) if not exists(page, p)]
    assert missing == []


def test_the_check_sees_the_pointers_of_a_page() -> None:
    text = "See [rules](rules.md#s1), `engine/bits.py`, `spec/examples/` and `53T2/1.44/9999/TT11`."
    assert pointers(text) == ["rules.md", "engine/bits.py", "spec/examples/"]


def test_rules_say_where_the_sources_are_kept_and_that_they_are_not_redistributed() -> None:
    rules = (ROOT / "spec" / "rules.md").read_text(encoding="utf-8")
    assert "`shared/seeds/`" in rules and "not redistributed" in rules
