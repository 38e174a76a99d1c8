"""The case sources of suite v1, read from spec/conformance/sources/v1/. APPEND ONLY.

Every case is written there with its ID, the rule IDs it tests and what it does; the
expected observations are not written by hand: `dekal.conformance.generate` plays each case
on the reference engine and freezes what it answers into spec/conformance/v1/*.jsonl. The
format of the source files, the script language and the rules for IDs (stable, never
reused; a retired ID goes to RETIRED) are in spec/conformance/sources/README.md.
"""

from __future__ import annotations

from dekal.conformance.cases._source_files import read
from dekal.conformance.cases._source_types import (
    ForbiddenPushBlock,
    Game,
    Perft,
    PushBlock,
    PushCase,
    PushesBlock,
    ScoreBlock,
    ScoreCase,
)

RETIRED: tuple[str, ...] = ()

SCORE: list[ScoreCase | ScoreBlock] = read("v1/score.jsonl", ScoreCase, ScoreBlock)
"""Single grids scored (S1, S2): cases written out, and blocks of random grids."""
PUSH: list[PushCase | PushBlock | ForbiddenPushBlock] = read(
    "v1/push.jsonl", PushCase, PushBlock, ForbiddenPushBlock
)
"""Single pushes (P1, P2): cases written out, every legal push per hole, every forbidden one."""
PUSHES: list[PushesBlock] = read("v1/pushes.jsonl", PushesBlock)
"""The legal pushes of each variant for each of the 16 hole positions."""
GAMES: list[Game] = read("v1/games.jsonl", Game)
"""Scripted games: whole games, first players, pushes, scoring, matches."""
NEGATIVE: list[Game] = read("v1/negative.jsonl", Game)
"""Typed negative cases: each breaks one rule and expects its refusal."""
PERFT: list[Perft] = read("v1/perft.jsonl", Perft)
"""Perft: the number of action sequences of a depth from a reached position."""
