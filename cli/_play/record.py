"""The record of `dekal play`, kept on disk as the game goes (issue 19, "records survive").

The record is written again, whole, each time the human is asked to decide (so it holds
every move played before the question, the bots' included) and when the game ends; each
write replaces the previous record at once (dekal._atomic): the text goes to a temporary
file beside it, is flushed to the disk, then renamed over it. So a kill, a crash or a disk
that fills up mid-game leaves the last record written, whole and readable by `dekal
replay`, with the moves played up to the last question; a write that fails is one error
(one JSON error object under --json) naming --record, and the game stops there.
"""

from __future__ import annotations

from pathlib import Path

from dekal._atomic import NotWritten, write_atomic


class RecordNotWritten(OSError):
    """The record could not be written whole (a full disk, a folder gone): the message says
    "--record PATH: cannot write: why"."""


def write_record(path: Path, text: str) -> None:
    """Replace the record at `path` by `text` at once (see the module docstring).
    RecordNotWritten if the text cannot be written whole: the previous record is then left
    as it was."""
    try:
        write_atomic(path, text)  # the one way every command writes a file
    except NotWritten as error:
        raise RecordNotWritten(f"--record {path}: cannot write: {error.why}") from None
