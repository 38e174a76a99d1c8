"""Every file, folder and module a page names exists (issue 13, then issue 20: docs that drift).

The pages: every Markdown file the repository tracks (tests/support/doc_pages.py). The names, read
from a page's prose and inline code spans (fenced blocks are run instead, by
tests/docs/test_docs_examples.py and the doctests):

* a link `[text](target)` that is not a URL or an anchor: resolves from the page's folder;
* a path, a word with a `/` that ends in a file extension or in `/` (`engine/bits.py`,
  `spec/examples/`): resolves from the page's folder or from the repository root;
* a file name, a word that ends in a known extension (`rules.md`, `CONTRACTS.md`): names a
  file the repository tracks, anywhere, spelled exactly (case included);
* a module name, a word `dekal.…` or `dekal_ref.…`: imports, its last parts read as
  attributes where they are not modules (`dekal.conformance.cases._vectors.load_cases`).

The commands of ```sh blocks are not run by the tests, so their paths are read too
(`python bench/solver.py --hard`), by the rule for paths.

Names that are not the repository's on purpose are listed in EXCEPTIONS below, each with
its reason; nothing else is skipped.
"""

from __future__ import annotations

import importlib
import re
import subprocess
from pathlib import Path

import pytest
from support.doc_pages import ROOT, fenced_blocks, pages, saved_files

EXTENSIONS = "md|py|json|jsonl|dkr|js|toml|txt|yml|yaml|sh|cfg|html|svg|xml|csv|ipynb"
LINK = re.compile(r"\]\(([^)\s]+)\)")
WORD = re.compile(r"[\w.~/-]*[\w/]")
FILE_NAME = re.compile(rf"^[\w.-]+\.(?:{EXTENSIONS})$")
PATH = re.compile(rf"^[\w.-]{{2,}}(?:/[\w.-]+)*/(?:[\w-][\w.-]*\.(?:{EXTENSIONS}))?$")
MODULE = re.compile(r"^dekal(?:_ref)?(?:\.\w+)+$")

# Each pattern names what the reader has or makes, not a file of the repository.
EXCEPTIONS: dict[str, str] = {
    r"^\d{3}_[0-9a-f]{16}\.txt$": "a French rule source, cited by file name and not "
    "redistributed (spec/rules.md, 'Sources')",
    r"^shared/": "the shared folder beside the repository: the sources and the product "
    "owner's rulings (spec/rules.md, 'Sources')",
    r"(?:^|[/.-])(?:DIR|FILE|SEED|NAME)(?:[/.-]|$)": "a placeholder the reader fills in "
    "(DIR/fuzz-1.jsonl, FILE.svg, dekal-play-SEED.dkr)",
    r"^(?:dekal\.|dekal\.bots\.|dekal\.simulation\.|engine/|bots/|simulation/)x(?:\.py)?$": "the "
    "placeholder module x of docs/contracts.md's rule for module names",
    r"^[\dT.?]+(?:/[\dT.?]+)+/?$": "a grid in notation (99.9/9999/9999/????)",
    r"^(?:report|mine|ours|known|badge|game|out|results|campaign|report-\w+|conformance|trend"
    r"|r-[\d.]+)\.\w+$": "a file "
    "the reader's own command writes or reads (--html report.html, --expect known.txt)",
    r"^/tmp/": "a file an example writes in the temporary folder",
    r"^~/": "a file in the reader's home folder",
    r"^(?:engine\.js|my-engine\.py|engine\.py)$": "the reader's own engine (an example "
    "command line) or, in examples/engines/js/README.md, its own folder's file",
    r"^\.dekal-": "a cache or output file the tools write",
    r"^pictures/$": "the folder docs/guide.md's `replay --svg DIR` example writes",
}


def tracked() -> tuple[set[str], set[str]]:
    """The names and the relative paths of every file the repository tracks."""
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return {Path(name).name for name in listed}, set(listed)


NAMES, PATHS = tracked()


def excepted(name: str) -> bool:
    return any(re.search(pattern, name) for pattern in EXCEPTIONS)


def prose(text: str) -> list[tuple[int, str]]:
    """(line number, text) of every line outside fenced blocks."""
    found, inside = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            inside = not inside
            continue
        if not inside:
            found.append((number, line))
    return found


def shell_paths(text: str) -> list[tuple[int, str, str]]:
    """(line, "path", name) of every path in the commands of a page's ```sh blocks."""
    found = []
    for block in fenced_blocks(text):
        if block.info in ("sh", "bash", "shell"):
            for offset, line in enumerate(block.lines):
                for word in (w.rstrip(".") for w in WORD.findall(line)):
                    if "/" in word and PATH.match(word) and not excepted(word):
                        found.append((block.first_line + offset, "path", word))
    return found


def names(text: str) -> list[tuple[int, str, str]]:
    """(line, kind, name) of every link, path, file name and module name a page's prose names."""
    found: list[tuple[int, str, str]] = []
    for number, line in prose(text):
        for target in LINK.findall(line):
            if not re.match(r"^[a-z]+:", target) and not target.startswith("#"):
                found.append((number, "link", target.split("#")[0]))
        words = WORD.findall(LINK.sub("]", line))
        for word in (w.rstrip(".") for w in words):
            if MODULE.match(word):
                found.append((number, "module", word))
            elif "/" in word and PATH.match(word):
                found.append((number, "path", word))
            elif FILE_NAME.match(word):
                found.append((number, "file", word))
    return [(n, kind, name) for n, kind, name in found if name and not excepted(name)]


def importable(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            thing: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attribute in parts[cut:]:
                thing = getattr(thing, attribute)
        except AttributeError:
            return False
        return True
    return False


def exists(page: Path, kind: str, name: str) -> bool:
    if kind == "link":
        return (page.parent / name).exists()
    if kind == "path":
        return (page.parent / name).exists() or (ROOT / name).exists()
    if kind == "file":
        return name in NAMES or (page.parent / name).exists()
    return importable(name)


PAGES = pages()


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_name_a_page_gives_exists(page: Path) -> None:
    where = page.relative_to(ROOT)
    text = page.read_text(encoding="utf-8")
    saved = {name for _, name, _ in saved_files(page)}  # "Save this as `NAME`": the reader's
    missing = [
        f"{where}:{number}: {kind} {name!r} does not exist"
        for number, kind, name in names(text) + shell_paths(text)
        if name not in saved and not exists(page, kind, name)
    ]
    assert missing == [], "\n".join(missing)


def test_the_check_reads_links_paths_file_names_and_modules() -> None:
    text = (
        "See [rules](rules.md#s1), `engine/bits.py`, spec/examples/, CONTRACTS.md and\n"
        "`dekal.conformance.cases._vectors.load_cases`, not `53T2/1.44/9999/TT11` or 1.44.\n"
        "```\nignored.md\n```\n"
    )
    assert [(kind, name) for _, kind, name in names(text)] == [
        ("link", "rules.md"),
        ("path", "engine/bits.py"),
        ("path", "spec/examples/"),
        ("file", "CONTRACTS.md"),
        ("module", "dekal.conformance.cases._vectors.load_cases"),
    ]


def test_a_name_that_is_not_there_is_caught() -> None:
    page = ROOT / "docs" / "guide.md"
    assert not exists(page, "file", "CONTRACTS.md")
    assert exists(page, "file", "contracts.md")
    assert not exists(page, "module", "dekal.conformance.no_such_room")
    assert not exists(page, "module", "dekal.conformance.cases._vectors.no_such_function")
    assert not exists(page, "link", "spec/rules.md")  # from docs/, the link is ../spec/rules.md


def test_rules_say_where_the_sources_are_kept_and_that_they_are_not_redistributed() -> None:
    rules = (ROOT / "spec" / "rules.md").read_text(encoding="utf-8")
    assert "`shared/seeds/`" in rules and "not redistributed" in rules


def test_the_paths_of_shell_commands_are_read() -> None:
    text = "```sh\npython bench/solver.py --hard\npython bench/gone.py\n```\n"
    assert shell_paths(text) == [(2, "path", "bench/solver.py"), (3, "path", "bench/gone.py")]
    assert not exists(ROOT / "README.md", "path", "bench/gone.py")
