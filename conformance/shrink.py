"""Shrinking a fuzz game to the smallest one that shows the same deviation, with Hypothesis.

A fuzz game is a sequence of choices (dekal.conformance.fuzz_choices). The game that showed
a deviation is handed to Hypothesis's shrinker as a failing example, number for number; the
shrinker then tries smaller sequences (fewer steps, fewer players, plainer actions, no
steering) and keeps those whose game still shows a deviation of the same rule and field.
Hypothesis is used rather than a search of our own because its shrinker is far better at
this (it deletes and lowers choices in blocks, and it knows when to stop), and because its
example database replays the smallest game first on the next run: found again, it needs no
shrinking at all; gone (the bug was fixed), it is forgotten.

Three limits keep a shrink short: Hypothesis's own, a time budget in seconds (an attempt
after it ends fails at once, so the shrinker winds down), and the lock-step's short timeout
once the engine has hung (see dekal.conformance.lockstep).

The smallest game is ours to judge, not Hypothesis's: every attempt that shows the
deviation is compared with the best so far by its number of steps, then players, then
choices, so the answer is the same however the shrinker gets there.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from dekal.conformance.fuzz_choices import Chooser, drawn_chooser
from dekal.conformance.lockstep import Deviation, DeviationKey


class Played(Protocol):
    """A played game, as the shrinker sees it."""

    choices: list[int]

    @property
    def players(self) -> int: ...

    @property
    def length(self) -> int: ...

    def first(self, key: DeviationKey) -> Deviation | None: ...


G = TypeVar("G", bound=Played)


@dataclass
class Shrunk(Generic[G]):
    """The smallest game found, and whether the shrink ended within its budget."""

    game: G
    attempts: int
    complete: bool
    seconds: float


def default_database_path() -> Path:
    """Where the smallest games are kept between runs: $XDG_CACHE_HOME/dekal/fuzz-examples
    (~/.cache/dekal/fuzz-examples when XDG_CACHE_HOME is not set)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "dekal" / "fuzz-examples"


def database_key(engine: str, key: DeviationKey) -> bytes:
    """One entry of the example database per engine command line and deviation."""
    text = "\0".join(("dekal-fuzz/2", engine, *key))
    return b"dekal-fuzz." + hashlib.sha256(text.encode()).hexdigest()[:32].encode()


def _size(game: Played) -> tuple[int, int, int, list[int]]:
    return game.length, game.players, len(game.choices), game.choices


def shrink(
    play: Callable[[Chooser], G],
    found: G,
    key: DeviationKey,
    *,
    seconds: float,
    database: Path | None,
    db_key: bytes,
) -> Shrunk[G]:
    """The smallest game `play` makes that shows a deviation `key`, starting from `found`.

    `play(chooser)` plays one game with the chooser's choices and stops at the first
    deviation `key` (a game cut there). `database`: a directory for Hypothesis's example
    database, or None for one in memory (nothing kept between runs).
    """
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis import strategies as st
    from hypothesis.database import (
        DirectoryBasedExampleDatabase,
        ExampleDatabase,
        InMemoryExampleDatabase,
        choices_to_bytes,
    )
    from hypothesis.errors import Flaky, NoSuchExample, Unsatisfiable

    start = time.monotonic()
    deadline = start + seconds
    best = [found]
    attempts = [0]

    def shows_it(data: Any) -> bool:
        if time.monotonic() > deadline:
            return False  # the budget is spent: every attempt fails at once
        attempts[0] += 1
        game = play(drawn_chooser(data))
        if game.first(key) is None:
            return False
        if _size(game) < _size(best[0]):
            best[0] = game
        return True

    db: ExampleDatabase = (
        InMemoryExampleDatabase() if database is None else DirectoryBasedExampleDatabase(database)
    )
    # The found game goes in as a "secondary" example (one that failed but is not known to
    # be minimal): Hypothesis replays it, and shrinks it unless a smaller game stored by an
    # earlier run (a "primary" example) still shows the deviation.
    db.save(db_key + b".secondary", choices_to_bytes(found.choices))
    with_db = settings(
        database=db,
        derandomize=False,  # Hypothesis's own "ci" profile derandomizes: not with a database
        phases=[Phase.reuse, Phase.shrink],
        max_examples=2,
        deadline=None,
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    # NoSuchExample: not reproduced; Flaky: the budget ran out before the final replay.
    # Either way the best game so far stands.
    with contextlib.suppress(NoSuchExample, Flaky, Unsatisfiable):
        find(st.data(), shows_it, settings=with_db, database_key=db_key)
    elapsed = time.monotonic() - start
    return Shrunk(best[0], attempts[0], elapsed <= seconds, elapsed)
