"""No file of the project copies the text of a French rule source (the owner's rule: cite the
sources by file name, never copy their text; spec/rules.md, "Sources").

The sources are the four texts of the shared folder beside the repository, `shared/seeds/`
(spec/rules.md, "Sources"); they are not redistributed, so where the folder is absent (a
fresh clone, CI) these tests are skipped and say why.

A **copy** is a run of RUN or more consecutive words of a source found in a tracked (or new,
not ignored) .md, .py or .json file. Both texts are compared as words: runs of letters, case
folded, in NFC, so punctuation, quote marks, Markdown and line wrapping do not hide a copy.
Digits are not words: a sum such as 3 + 6 + 2 + 7 + 1 = 19 is a fact the spec may restate.

Why RUN = 6: a shorter run is vocabulary more than text. The sources share among themselves
129 distinct runs of four words and 81 of five (common French, such as the words for "the
cards of the", and names such as the first-player token's), the kind of words a page may
hold when it names a thing; a run of six is a clause. The project's English shares no run
longer than two words with the sources (measured when this test was written), so six leaves a
wide margin against a false alarm. The price: a quotation of five words or fewer is not caught.

The planted quotations below are cut from the sources when the tests run, so this file holds
none of their text.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from collections.abc import Iterable, Sequence

import pytest
from support.doc_pages import ROOT

RUN = 6
SEEDS = ROOT.parent / "shared" / "seeds"
SEED_FILES = (
    "000_d976f655e12a780a.txt",
    "001_2e38e7eca016b80b.txt",
    "002_bb9c5d214e1a339f.txt",
    "003_a669914516bf703d.txt",
)
CHECKED = ("*.md", "*.py", "*.json")
WORD = re.compile(r"[^\W\d_]+")

Run = tuple[str, ...]


def words(text: str) -> list[str]:
    """The words of `text`: runs of letters, case folded, in NFC."""
    return WORD.findall(unicodedata.normalize("NFC", text).casefold())


def runs(text_words: Sequence[str]) -> set[Run]:
    """Every run of RUN consecutive words."""
    return {tuple(text_words[i : i + RUN]) for i in range(len(text_words) - RUN + 1)}


def copied(text: str, sources: set[Run]) -> list[str]:
    """The source runs `text` holds, joined by spaces, in text order, overlapping runs merged
    (a quotation of nine words is one finding, not four)."""
    text_words = words(text)
    found: list[str] = []
    start = end = -1  # the words [start, end) of the last finding, extended while runs overlap
    for i in range(len(text_words) - RUN + 1):
        if tuple(text_words[i : i + RUN]) not in sources:
            continue
        if i >= end:
            start = i
            found.append("")
        end = i + RUN
        found[-1] = " ".join(text_words[start:end])
    return found


def source_runs(texts: Iterable[str]) -> set[Run]:
    return set().union(*(runs(words(text)) for text in texts))


def project_files() -> list[str]:
    """The .md, .py and .json files git tracks or would track (new, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *CHECKED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return sorted(name for name in listed if (ROOT / name).is_file())


@pytest.fixture(scope="module")
def seed_texts() -> dict[str, str]:
    if not SEEDS.is_dir():
        pytest.skip(f"the French sources are not here ({SEEDS}): they are not redistributed")
    missing = [name for name in SEED_FILES if not (SEEDS / name).is_file()]
    assert not missing, f"{SEEDS} lacks {missing}: the check would be silently weaker"
    return {name: (SEEDS / name).read_text(encoding="utf-8") for name in SEED_FILES}


@pytest.fixture(scope="module")
def sources(seed_texts: dict[str, str]) -> set[Run]:
    return source_runs(seed_texts.values())


def cut(text: str, first: int, count: int) -> str:
    """`count` words of `text` from its word number `first`, as written (punctuation and all)."""
    spans = [m.span() for m in WORD.finditer(unicodedata.normalize("NFC", text))]
    return unicodedata.normalize("NFC", text)[spans[first][0] : spans[first + count - 1][1]]


def test_no_project_file_copies_a_run_of_source_text(sources: set[Run]) -> None:
    copies = {
        name: found
        for name in project_files()
        if (found := copied((ROOT / name).read_text(encoding="utf-8"), sources))
    }
    assert not copies, "source text copied (paraphrase it, cite the file by name): " + "; ".join(
        f"{name}: {' | '.join(found)}" for name, found in copies.items()
    )


def test_a_planted_quotation_is_found_whatever_its_case_and_wrapping(
    seed_texts: dict[str, str], sources: set[Run]
) -> None:
    quotation = cut(seed_texts["002_bb9c5d214e1a339f.txt"], 20, 9)
    planted = f'Sources: `002_bb9c5d214e1a339f.txt` ("{quotation.upper()}"), in a page.'
    planted = planted.replace(" ", "\n", 4)  # wrapped as a page wraps its lines
    assert copied(planted, sources) == [" ".join(words(quotation))]


def test_a_run_one_word_shorter_is_not_a_copy(
    seed_texts: dict[str, str], sources: set[Run]
) -> None:
    fragment = cut(seed_texts["001_2e38e7eca016b80b.txt"], 20, RUN - 1)
    assert copied(f'it says "{fragment}", in English', sources) == []
    assert copied(cut(seed_texts["001_2e38e7eca016b80b.txt"], 20, RUN), sources) != []
