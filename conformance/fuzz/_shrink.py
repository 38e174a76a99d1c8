"""Shrinking a fuzz game to the smallest one that shows the same deviation, with Hypothesis.

A fuzz game is a sequence of choices (dekal.conformance.fuzz._games). The game that showed
a deviation is handed to Hypothesis's shrinker as a failing example, number for number; the
shrinker then tries smaller sequences (fewer steps, fewer players, plainer actions, no
steering) and keeps those whose game still shows a deviation of the same rule and field.
Hypothesis is used rather than a search of fresh random games (the fuzzer's first
shrinker) because it minimises the game that was found, choice by choice, so the example
stays the same story made shorter and plainer; and because its example database replays
the smallest game first on the next run: found again, it needs no shrinking at all; gone
(the bug was fixed), it is forgotten.

Four limits keep a shrink short: Hypothesis's own; a time budget in seconds (an attempt
after it ends passes at once, so the shrinker winds down); an attempt stops as soon as its
game is longer than the best so far; and the lock-step's short timeout once the engine has
hung (see dekal.conformance.fuzz._lockstep).

The smallest game is ours to judge, not Hypothesis's: every attempt that shows the
deviation is compared with the best so far by its number of steps, then players, then
choices. Hypothesis is seeded with the game's seed, so the same game shrinks the same way
(as long as the budget is not spent: then it depends on the machine's speed).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from dekal._atomic import write_atomic
from dekal.conformance.fuzz._games import Chooser, drawn_chooser
from dekal.conformance.fuzz._lockstep import Deviation, DeviationKey


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


def default_database_path() -> Path | None:
    """Where the smallest games are kept between runs: $XDG_CACHE_HOME/dekal/fuzz-examples
    (~/.cache/dekal/fuzz-examples when XDG_CACHE_HOME is not set); None, no database kept,
    when that folder ($XDG_CACHE_HOME, else $HOME) is not an existing folder this user may
    write in: nothing is ever made above a folder that does not exist (issue 29:
    `HOME=/nonexistent` must not create /nonexistent/.cache)."""
    cache = os.environ.get("XDG_CACHE_HOME")
    anchor = Path(cache) if cache else Path(os.environ.get("HOME") or "/nonexistent")
    if not (anchor.is_absolute() and anchor.is_dir() and os.access(anchor, os.W_OK | os.X_OK)):
        return None
    return (anchor if cache else anchor / ".cache") / "dekal" / "fuzz-examples"


def _whole_files_database(path: Path) -> Any:
    """Hypothesis's directory database, each example written whole in its own folder
    (dekal._atomic): Hypothesis writes it in /tmp and renames it, and falls back to a plain
    copy, which a full disk or `ulimit -f` cuts, when /tmp is another file system."""
    from hypothesis.database import DirectoryBasedExampleDatabase

    class WholeFiles(DirectoryBasedExampleDatabase):
        def save(self, key: bytes, value: bytes) -> None:
            metakeys = getattr(self, "_metakeys_name", None)
            if metakeys is None:  # another Hypothesis than the one this was written for
                super().save(key, value)
                return
            folder = self._key_path(key)
            if key != metakeys:
                self.save(metakeys, key)  # the list of keys, as Hypothesis keeps it
            with contextlib.suppress(OSError):  # a cache that cannot be written: no cache
                folder.mkdir(parents=True, exist_ok=True)  # below an existing folder
                target = self._value_path(key, value)
                if not target.exists():
                    write_atomic(target, value)

    return WholeFiles(path)


def database_folder(engine: str, key: DeviationKey) -> str:
    """One example database folder per engine command line and deviation."""
    text = "\0".join(("dekal-fuzz/2", engine, *key))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _size(game: Played) -> tuple[int, int, int, list[int]]:
    return game.length, game.players, len(game.choices), game.choices


class Shown(Exception):
    """An attempt showed the deviation: Hypothesis counts it as a failing example."""


def shrink(
    play: Callable[[Chooser, int], G],
    found: G,
    key: DeviationKey,
    *,
    seconds: float,
    database: Path | None,
    seed: int,
) -> Shrunk[G]:
    """The smallest game `play` makes that shows a deviation `key`, starting from `found`.

    `play(chooser, limit)` plays one game with the chooser's choices and stops at the first
    deviation `key` (a game cut there), or after `limit` steps: a game that goes on longer
    than the best so far cannot be smaller, so it is not played to its end. `database`: the
    folder of Hypothesis's example database for this deviation, or None for one in memory
    (nothing kept between runs). `seed` seeds Hypothesis's own choices, so that the same
    game shrinks the same way.
    """
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as seeded
    from hypothesis import strategies as st
    from hypothesis.database import (
        ExampleDatabase,
        InMemoryExampleDatabase,
        choices_to_bytes,
    )
    from hypothesis.errors import Flaky, Unsatisfiable

    class WithFoundGame(ExampleDatabase):
        """The example database, where the found game also shows as a "secondary" example
        (one that failed but is not known to be minimal): Hypothesis replays it first and
        shrinks it, unless a smaller game stored by an earlier run (a "primary" example)
        still shows the deviation, which then needs no shrinking at all."""

        def __init__(self, stored: ExampleDatabase, choices: list[int]) -> None:
            super().__init__()
            self.stored, self.found = stored, choices_to_bytes(choices)

        def save(self, key: bytes, value: bytes) -> None:
            self.stored.save(key, value)

        def delete(self, key: bytes, value: bytes) -> None:
            self.stored.delete(key, value)

        def fetch(self, key: bytes) -> Iterator[bytes]:
            yield from self.stored.fetch(key)
            if key.endswith(b".secondary"):
                yield self.found

    start = time.monotonic()
    deadline = start + seconds
    best = [found]
    attempts = [0]

    @given(st.data())
    def attempt(data: Any) -> None:
        if time.monotonic() > deadline:
            return  # the budget is spent: every attempt passes at once, the shrinker stops
        attempts[0] += 1
        game = play(drawn_chooser(data), best[0].length + 1)
        if game.first(key) is not None:
            if _size(game) < _size(best[0]):
                best[0] = game
            raise Shown

    stored: ExampleDatabase = (
        InMemoryExampleDatabase() if database is None else _whole_files_database(database)
    )
    attempt = seeded(seed)(attempt)  # seed() drops the database: settings() puts it back
    attempt = settings(
        database=WithFoundGame(stored, found.choices),
        derandomize=False,  # Hypothesis's own "ci" profile derandomizes: not with a database
        phases=[Phase.reuse, Phase.shrink],
        max_examples=2,
        report_multiple_bugs=False,  # an engine that cannot restart ends the shrink at once
        deadline=None,
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )(attempt)
    # Shown: the smallest game, replayed at the end; Flaky: the budget ran out before that
    # replay; Unsatisfiable: the found game did not show the deviation again. Either way
    # the best game so far stands.
    with contextlib.suppress(Shown, Flaky, Unsatisfiable):
        attempt()
    elapsed = time.monotonic() - start
    return Shrunk(best[0], attempts[0], elapsed <= seconds, elapsed)
