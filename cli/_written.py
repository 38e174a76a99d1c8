"""What a command says about the files it writes: one `wrote FILE` line on standard error.

Every command that writes a file (show/puzzle --svg, replay --svg, simulate --plot,
conformance run/report --html/--badge/--junit, conformance fuzz --record/--save, annotate
--html) says so through `wrote`, and takes `--quiet` to say nothing. The line goes to
standard error in every mode, --json too: standard output stays the command's text or its one
JSON object, and a script that pipes it never reads a file name it did not ask for
(docs/guide.md, Files a command writes). A file written to standard output (`--svg -`) is
not said.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from dekal.cli._common import err

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
