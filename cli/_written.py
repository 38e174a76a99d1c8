"""What a command says about the files it writes: one `wrote FILE` line on standard error.

Every command that writes a file (show/puzzle --svg, replay --svg, simulate --plot,
conformance run/report --html/--badge/--junit, conformance fuzz --record/--save, annotate
--html) says so through `wrote`, and takes `--quiet` to say nothing. The line goes to
standard error in every mode, --json too: standard output stays the command's text or its one
JSON object, and a script that pipes it never reads a file name it did not ask for
(docs/guide.md, Files a command writes). A file written to standard output (`--svg -`) is
not said.

Each file is written whole or not at all (dekal._atomic, through `write_output`): a full
disk or a `ulimit -f` leaves the previous file as it was, and the error names the option.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from dekal._atomic import write_atomic
from dekal.cli._common import err, fail
from dekal_ref.reading import shown

Quiet = Annotated[
    bool,
    typer.Option("--quiet", "-q", help="Say nothing about the files written (no `wrote FILE`)."),
]


def wrote_line(paths: Sequence[Path | str]) -> str:
    """`wrote FILE`; for many files of one folder, the first and the last and how many."""
    if len(paths) == 1:
        return f"wrote {paths[0]}"
    return f"wrote {len(paths)} files: {paths[0]} … {paths[-1]}"


def wrote(paths: Path | str | Sequence[Path | str], quiet: bool = False) -> None:
    """Say on standard error which file (or files, in the order written) a command wrote."""
    listed = [paths] if isinstance(paths, (str, Path)) else list(paths)
    if quiet or not listed or listed == ["-"]:
        return
    err.print(Text(wrote_line(listed)), soft_wrap=True)


def write_output(path: Path | str, data: str | bytes, option: str) -> None:
    """Replace the file at `path` by `data` whole (dekal._atomic), or a one-line error
    naming `option`, exit 2 (the path was checked before the work; the disk can still
    refuse)."""
    try:
        write_atomic(path, data)
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        why = getattr(error, "why", None) or getattr(error, "strerror", None) or str(error)
        fail(f"{shown(str(path))}: cannot write: {why}", kind="input", field=option)
