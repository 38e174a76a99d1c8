"""The progress of a long computation on standard error: a bar with its total and the time left.

`advise` and `annotate` play many worlds; the library tells `progress(done, total)` in
worlds, starting with (0, total) before the first is played, so the bar has its total at
once and its time left from the first batch on. Drawn only on a terminal: a pipe or a file
gets nothing (and a test's output stays clean).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from dekal.cli._common import err

Report = Callable[[int, int], None]
"""report(done, total): worlds played so far, of how many."""


@contextmanager
def progress_bar(label: str, unit: str = "worlds") -> Iterator[Report | None]:
    """A bar `label [####    ] 300/1000 worlds 0:00:04 left 0:00:09` on a terminal's
    standard error, gone when done; yields what to call as work is done (None: no terminal)."""
    if not err.is_terminal:
        yield None
        return
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def duration(seconds: float) -> str:
    """A rough duration in words: `under a second`, `about 40 s`, `about 7 min`, `about 2 h`."""
    if seconds < 1:
        return "under a second"
    if seconds < 90:
        return f"about {seconds:.0f} s"
    if seconds < 90 * 60:
        return f"about {seconds / 60:.0f} min"
    return f"about {seconds / 3600:.1f} h"
