"""The Markdown pages of the repository and the console examples they show (issue 20, part 4).

How a page's examples are read, the one convention for every page:

* A **console example** is a `$ ` line inside a fenced block (any fence: ```console, or a bare
  fence whose lines start with `$ `); a block indented in a list item is read without its
  indent. The lines after it, up to the next `$ ` line or the end of the block, are the
  output the command prints (standard output and standard error, as a terminal shows them).
* The output is compared **in full**: every line, in order (trailing spaces and blank lines
  at the very start and end aside). Where a page cuts an output short, it says so:
  - a line that is only `…` stands for any number of omitted lines (zero or more);
  - a `…` inside a line stands for any text within that line (a time, a path).
  Nothing else is skipped; ASCII `...` is compared as written.
* `<!-- deep -->` on the line just before a fence marks that block's examples as heavy: they
  run only under `pytest --hypothesis-profile=deep` (tests/docs/test_docs_examples.py counts them).
* `<!-- run by tests/test_x.py -->` on the line just before a fence: the block shows what
  another install prints (the core install, without an extra), and that test module runs it
  there; the runner checks only that the module names each of the block's commands.
* "Save this as `NAME`" in the paragraph just before a fence: the block is a file the reader
  saves under NAME, and the examples after it may use it (a page followed in order,
  tests/docs/test_docs_examples.py: its examples run top to bottom in one fresh folder).
"""

from __future__ import annotations

import difflib
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^( *)(`{3,})(.*)$")
DEEP_MARK = "<!-- deep -->"
RUN_BY = re.compile(r"^<!-- run by (tests/[\w/]+\.py) -->$")
CUT = "…"
SAVE_AS = re.compile(r"[Ss]ave this\s+as\s+`([^`\s]+)`")


def pages() -> list[Path]:
    """Every Markdown page the repository tracks (README.md, docs/, spec/, examples/ …)."""
    listed = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return sorted(ROOT / name for name in listed)


@dataclass(frozen=True)
class Example:
    """One `$ command` of a page, the output the page shows, and where it stands."""

    page: str  # relative to the repository root
    line: int  # 1-based line of the `$ ` line
    command: str
    expected: str
    deep: bool
    run_by: str | None = None  # a test module that runs the example on another install

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


@dataclass(frozen=True)
class Block:
    """A fenced block: its info string, first body line (1-based), body lines, deep mark."""

    info: str
    first_line: int
    lines: tuple[str, ...]
    deep: bool
    run_by: str | None = None
    saved_as: str | None = None  # "Save this as `NAME`" just before it: a file to save


def paragraph_before(lines: list[str], number: int) -> str:
    """The paragraph that ends just before line `number` (0-based), joined into one line."""
    end = number
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    start = end
    while start > 0 and lines[start - 1].strip():
        start -= 1
    return " ".join(line.strip() for line in lines[start:end])


def fenced_blocks(text: str) -> list[Block]:
    """The page's fenced blocks, each body read without the fence's indent."""
    found: list[Block] = []
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        opening = FENCE.match(lines[number])
        if opening is None:
            number += 1
            continue
        indent, ticks, info = len(opening.group(1)), opening.group(2), opening.group(3).strip()
        before = lines[number - 1].strip() if number > 0 else ""
        deep = before == DEEP_MARK
        run_by = found_run_by.group(1) if (found_run_by := RUN_BY.match(before)) else None
        body: list[str] = []
        end = number + 1
        while end < len(lines) and lines[end].strip() != ticks:
            body.append(lines[end][indent:] if lines[end][:indent].strip() == "" else lines[end])
            end += 1
        saves = SAVE_AS.findall(paragraph_before(lines, number))
        saved_as = saves[-1] if saves else None
        found.append(Block(info, number + 2, tuple(body), deep, run_by, saved_as))
        number = end + 1
    return found


def examples(page: Path) -> list[Example]:
    """Every console example of a page, in page order."""
    name = page.relative_to(ROOT).as_posix()
    found: list[Example] = []
    for block in fenced_blocks(page.read_text(encoding="utf-8")):
        starts = [i for i, line in enumerate(block.lines) if line.startswith("$ ")]
        for k, start in enumerate(starts):
            stop = starts[k + 1] if k + 1 < len(starts) else len(block.lines)
            output = "\n".join(block.lines[start + 1 : stop])
            line, command = block.first_line + start, block.lines[start][2:]
            found.append(Example(name, line, command, output, block.deep, block.run_by))
    return found


def tidy(output: str) -> list[str]:
    """The lines of an output, trailing spaces and leading/trailing blank lines dropped."""
    return [line.rstrip() for line in output.strip("\n").splitlines()]


def _pattern(expected: list[str]) -> re.Pattern[str]:
    parts = []
    for line in expected:
        if line.strip() == CUT:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(map(re.escape, line.split(CUT))) + r"\n")
    return re.compile("".join(parts))


def shows(expected: str, actual: str) -> bool:
    """The actual output is what the page shows, `…` read as the convention says."""
    wanted, got = tidy(expected), tidy(actual)
    return _pattern(wanted).fullmatch("".join(line + "\n" for line in got)) is not None


def first_difference(example: Example, actual: str) -> str:
    """Where the page and the output part: the page's line no output line matches, or the
    output going on after the page's last line."""
    wanted, got = tidy(example.expected), "".join(line + "\n" for line in tidy(actual))
    skipped = len(example.expected.split("\n")) - len(example.expected.lstrip("\n").split("\n"))
    for k, line in enumerate(wanted):
        if _pattern(wanted[: k + 1]).match(got) is None:
            return f"{example.page}:{example.line + 1 + skipped + k}: the page shows {line!r} here"
    return (
        f"{example.page}:{example.line + 1 + skipped + len(wanted) - 1}: the output goes on after "
        f"the page's last line (a line `{CUT}` marks a cut)"
    )


def difference(example: Example, actual: str) -> str:
    """A message that says where the page is and what differs: the first line that differs,
    then a unified diff (in which the page's `…` lines show as lines of their own)."""
    diff = difflib.unified_diff(
        tidy(example.expected),
        tidy(actual),
        fromfile=f"{example.where} (the page)",
        tofile="the command's output",
        lineterm="",
    )
    return (
        f"{example.where}: `$ {example.command}` prints other lines than the page shows\n"
        f"{first_difference(example, actual)}\n" + "\n".join(diff)
    )


def saved_files(page: Path) -> list[tuple[int, str, str]]:
    """The files a page asks its reader to save, in page order: (the block's first line,
    the name, the text)."""
    return [
        (block.first_line, block.saved_as, "\n".join(block.lines) + "\n")
        for block in fenced_blocks(page.read_text(encoding="utf-8"))
        if block.saved_as is not None
    ]


USES = re.compile(r"--python (\w+):|--(?:expect|cases) ([\w./-]+\.\w+)")


def files_used(command: str) -> list[str]:
    """The files of the working folder a `dekal` command reads: a --python module's source,
    an --expect or --cases file (a name with an extension, not a list of rules)."""
    return [f"{module}.py" if module else path for module, path in USES.findall(command)]
