"""The record of `dekal play`, kept on disk as the game goes (issue 19, "records survive").

The record is written again, whole, each time the human is asked to decide (so it holds
every move played before the question, the bots' included) and when the game ends; each
write replaces the previous record at once: the text goes to a temporary file beside it, is
flushed to the disk, then renamed over it. So a kill, a crash or a disk that fills up
mid-game leaves the last record written, whole and readable by `dekal replay`, with the
moves played up to the last question; a write that fails is one error (one JSON error
object under --json) naming --record, and the game stops there.
"""

from __future__ import annotations

import os
from pathlib import Path


class RecordNotWritten(OSError):
    """The record could not be written whole (a full disk, a folder gone): the message says
    "--record PATH: cannot write: why"."""


def write_record(path: Path, text: str) -> None:
    """Replace the record at `path` by `text` at once (see the module docstring).
    RecordNotWritten if the text cannot be written whole: the previous record is then left
    as it was."""
    try:
        if path.exists() and not path.is_file():  # /dev/null, the one device --record takes
            with open(path, "w", encoding="utf-8") as device:
                device.write(text)
            return
        _replace(path, text)
    except OSError as error:
        why = error.strerror or str(error)
        raise RecordNotWritten(f"--record {path}: cannot write: {why}") from None


def _replace(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.writing")
    try:
        with open(temporary, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:  # a full disk, a Ctrl-C: no half-written file is left behind
        temporary.unlink(missing_ok=True)
        raise
