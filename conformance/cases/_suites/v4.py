"""Suite v4's written sources (spec/conformance/sources/v4/): the cases where the spec now
decides what correct engines disagreed on (issue 27), beside the cases generated toward the
situation map (dekal.conformance.cases._generate_v4)."""

from __future__ import annotations

from dekal.conformance.cases._source_files import read
from dekal.conformance.cases._source_types import FromPosition, Game

RETIRED: tuple[str, ...] = ()

DECIDED_GAMES: list[Game] = read("v4/decisions.jsonl", Game)
"""Actions written with other spacing, a variant name in capitals, missing set-up fields."""

DECIDED_POSITIONS: list[FromPosition] = read("v4/decisions_positions.jsonl", FromPosition)
"""A start under the lowest-card rule before the first reveal (F1); round 0 (T5)."""
