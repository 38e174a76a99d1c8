"""`dekal play --record` keeps its record on disk as the game goes (dekal.cli._play.record):
a kill mid-game, or a disk that fills up, leaves a whole, readable record of the moves played
so far; under --json a write that fails is one JSON error object naming --record.

Each test plays a real `dekal play --json` process, answering each prompt with its first
legal action, and reads the record with the reference's record reader (dekal_ref.record).
"""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dekal_ref.record import parse_record, replay

DEKAL = str(Path(sys.executable).parent / "dekal")
LIMIT = 120  # seconds: no game here takes a tenth of it


@contextmanager
def playing(
    record: Path, *extra: str, file_size: int | None = None
) -> Iterator[subprocess.Popen[str]]:
    """A `dekal play --json` against one random bot, reaped when the block ends."""

    def limit_file_size() -> None:  # Python ignores SIGXFSZ: a write past it fails (EFBIG)
        if file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    game = subprocess.Popen(
        [DEKAL, "play", "--bots", "random", "--seed", "3", "--json", "--record", str(record),
         *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=limit_file_size,
    )  # fmt: skip
    try:
        yield game
    finally:
        if game.poll() is None:
            game.kill()
        game.communicate(timeout=LIMIT)


def answer_prompts(game: subprocess.Popen[str], prompts: int) -> list[dict[str, object]]:
    """Answer `prompts` prompts with their first legal action; every line read, in order."""
    assert game.stdout is not None and game.stdin is not None
    seen: list[dict[str, object]] = []
    while prompts > 0:
        line = game.stdout.readline()
        if not line:
            break
        seen.append(json.loads(line))
        legal = seen[-1].get("legal")
        if "prompt" in seen[-1] and isinstance(legal, list):
            game.stdin.write(f"{legal[0]}\n")
            game.stdin.flush()
            prompts -= 1
    return seen


def moves_in(record: Path) -> int:
    parsed = parse_record(record.read_text(encoding="utf-8"))
    replay(parsed)  # every move is legal: the record is whole
    return sum(len(played.moves) for played in parsed.rounds)


def test_a_killed_game_leaves_a_readable_record_of_the_moves_played(tmp_path: Path) -> None:
    record = tmp_path / "game.dkr"
    with playing(record) as game:
        answer_prompts(game, 10)  # the record is written before each prompt
        answer_prompts(game, 1)  # the 11th prompt: the record holds the 10 answers and more
        game.send_signal(signal.SIGKILL)
        game.wait(LIMIT)
    assert moves_in(record) >= 10 * 2  # each answer of seat 0 and the bot's reply at least


def test_a_disk_that_fills_up_mid_game_is_one_json_error_and_the_record_stays_whole(
    tmp_path: Path,
) -> None:
    record = tmp_path / "game.dkr"
    with playing(record, file_size=1_200) as game:
        seen = answer_prompts(game, 200)  # far more than the record can take
        game.wait(LIMIT)
    assert game.returncode == 2
    error = seen[-1]["error"]
    assert isinstance(error, dict) and error["field"] == "--record"
    assert "cannot write" in str(error["message"])
    assert moves_in(record) > 0  # what was written before the disk filled up
