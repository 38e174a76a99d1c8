"""A fuzz campaign on many workers (`dekal conformance fuzz --workers N | --scheduler ADDR`).

The run's games (numbered from 1, game k played from the seed dekal.conformance.fuzz._fuzz gives
it) are cut into chunks of CHUNK_GAMES, a cut that depends on the run alone. Each chunk is
played by dekal.simulation.runner.run_chunks on some worker, which starts its own engine
process for it (from an `EngineSpec`: the command line, the Python factory or the bundled
engine's name) and closes it when the chunk ends, however it ends. The chunks' games are
then merged in game order, as one run would have met them: each distinct deviation once,
from the first game that showed it; without --keep-going the report ends with the first
game that showed an unexpected one, so it is the report of the single-process run (the
shrinks' wall-clock seconds aside).

With --keep-going a chunk sets aside only the deviations it found itself (a single run sets
aside every deviation found in earlier games), so a later game may stop earlier than it
would have alone: the findings are the same kinds, the step counts may differ.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from dekal.conformance.drive._direct_engine import bundled_engine
from dekal.conformance.drive._engine_link import Engine
from dekal.conformance.drive._inprocess_engine import InProcessEngine, load_factory
from dekal.conformance.drive._subprocess_engine import SubprocessEngine
from dekal.conformance.fuzz._fuzz import (
    DEFAULT_SHRINK_SECONDS,
    SEED_STRIDE,
    Finding,
    FuzzReport,
    Mask,
    _smallest,
    game_situations,
    play_game,
)
from dekal.conformance.fuzz._games import seeded_chooser
from dekal.conformance.fuzz._lockstep import LockStep
from dekal.simulation._reaper import guarded
from dekal.simulation.runner import Progress, run_chunks

CHUNK_GAMES = 25
"""Games per chunk: each chunk starts one engine process, so not too few."""
BUNDLED = ("ref", "fast")


@dataclass(frozen=True)
class EngineSpec:
    """How a worker starts its own engine: a command line (or `ref`/`fast`, our engines), or
    a Python MODULE:FACTORY, with the per-request timeout."""

    command: str | None
    python: str | None
    timeout: float

    def start(self) -> Engine:
        """A fresh engine (EngineUnusable if it cannot be started)."""
        if self.command in BUNDLED:
            return bundled_engine(self.command, self.timeout)
        if self.command:
            return SubprocessEngine(self.command, self.timeout)
        assert self.python is not None
        return InProcessEngine(load_factory(self.python), self.python, self.timeout)


@dataclass(frozen=True)
class FuzzChunk:
    """Games first … first + count − 1 of a fuzz run (numbered from 1), and how to play them."""

    engine: EngineSpec
    seed: int
    first: int
    count: int
    expect: frozenset[str] = frozenset()
    keep_going: bool = False
    shrink_seconds: float = DEFAULT_SHRINK_SECONDS
    database: Path | None = None


@dataclass(frozen=True)
class PlayedGame:
    """One game of a chunk: its steps, and the deviations it was the first of (in its chunk)."""

    number: int
    steps: int
    abandoned: bool
    resyncs: int
    findings: tuple[Finding, ...]
    situations: frozenset[tuple[str, object]] = frozenset()
    """The situations of the map the game reached (merged into the run's map coverage)."""


@dataclass
class ChunkReport:
    games: list[PlayedGame] = field(default_factory=list)


def fuzz_chunk(chunk: FuzzChunk) -> ChunkReport:
    """Play a chunk's games on an engine of its own, closed however the chunk ends (even
    when the worker is terminated mid-chunk: dekal.simulation._reaper)."""
    engine = chunk.engine.start()
    with ExitStack() as stack:  # undone last first
        stack.callback(engine.close)  # (a second close does nothing)
        if isinstance(engine, SubprocessEngine) and engine.process is not None:
            # a worker terminated mid-chunk never reaches a close: the guard ends the group
            stack.enter_context(guarded(engine.process.pid))  # the engine leads its group
            stack.callback(engine.close)  # closed gently first; the guard then finds it gone
        return _play_chunk(chunk, engine)


def _play_chunk(chunk: FuzzChunk, engine: Engine) -> ChunkReport:
    """The loop of dekal.conformance.fuzz._fuzz.fuzz over the chunk's game numbers: it stops at
    the first unexpected deviation unless keep_going, and sets aside what it found itself."""
    lock = LockStep(engine, chunk.engine.timeout)
    mask = Mask(chunk.expect)
    report = ChunkReport()
    for number in range(chunk.first, chunk.first + chunk.count):
        game_seed = chunk.seed * SEED_STRIDE + number - 1
        steps_before = lock.steps
        game = play_game(lock, seeded_chooser(game_seed), mask, game_seed)
        steps = lock.steps - steps_before  # the game's steps, not its shrinks'
        findings = []
        earlier = mask
        for deviation in game.deviations:
            if deviation.key in mask.keys:
                continue
            shrunk, how = _smallest(
                lock, game, deviation.key, earlier, chunk.shrink_seconds, chunk.database
            )
            known = deviation.blame.rule in chunk.expect
            findings.append(Finding(deviation, number, game_seed, shrunk, known, how))
            mask = Mask(mask.rules, mask.keys | {deviation.key})
        report.games.append(
            PlayedGame(
                number,
                steps,
                game.abandoned,
                game.resyncs,
                tuple(findings),
                frozenset(game_situations(game)),
            )
        )
        if any(not f.known for f in findings) and not chunk.keep_going:
            break
    return report


def merge(reports: list[ChunkReport], keep_going: bool) -> FuzzReport:
    """The chunks' games in game order, as one run reports them (see the module docstring)."""
    merged = FuzzReport()
    seen = set()
    for report in reports:
        for game in report.games:
            merged.games += 1
            merged.steps += game.steps
            merged.abandoned += game.abandoned
            merged.resyncs += game.resyncs
            merged.situations |= game.situations
            for finding in game.findings:
                if finding.deviation.key not in seen:
                    seen.add(finding.deviation.key)
                    merged.findings.append(finding)
            if merged.unexpected and not keep_going:
                return merged
    return merged


def campaign(
    engine: EngineSpec,
    games: int,
    seed: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    expect: frozenset[str] = frozenset(),
    keep_going: bool = False,
    shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
    database: Path | None = None,
) -> FuzzReport:
    """Fuzz `games` games in chunks on the workers; `progress` is told the games done."""
    chunks = [
        FuzzChunk(
            engine,
            seed,
            first,
            min(CHUNK_GAMES, games + 1 - first),
            expect,
            keep_going,
            shrink_seconds,
            database,
        )
        for first in range(1, games + 1, CHUNK_GAMES)
    ]

    def tell(done: int, total: int) -> None:
        if progress is not None:
            progress(min(games, done * CHUNK_GAMES))

    told: Progress = tell
    reports = run_chunks(fuzz_chunk, chunks, workers=workers, scheduler=scheduler, progress=told)
    return merge(reports, keep_going)
