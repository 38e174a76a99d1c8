"""Suite v4's written sources (spec/conformance/sources/v4/): the cases where the spec now
decides what correct engines disagreed on (issue 27), beside the cases generated toward the
situation map (dekal.conformance.cases._generate_v4).

Every file `decisions*.jsonl` there is read, in the order of their names: each line is a
scripted game or set-up (Game) or a game from a reached position (FromPosition), told by its
fields, so a new decision is a new line or a new file, never a change here."""

from __future__ import annotations

from dekal.conformance.cases._source_files import read, source_root
from dekal.conformance.cases._source_types import FromPosition, Game

RETIRED: tuple[str, ...] = ()


def decision_files() -> list[str]:
    """The decided cases' files, `v4/decisions*.jsonl`, by name."""
    folder = source_root().joinpath("v4")
    names = (entry.name for entry in folder.iterdir())
    return sorted(f"v4/{n}" for n in names if n.startswith("decisions") and n.endswith(".jsonl"))


DECIDED: list[Game | FromPosition] = [
    item for name in decision_files() for item in read(name, Game, FromPosition)
]
DECIDED_GAMES: list[Game] = [item for item in DECIDED if isinstance(item, Game)]
"""Actions written with other spacing, a variant name in capitals, missing set-up fields."""

DECIDED_POSITIONS: list[FromPosition] = [item for item in DECIDED if isinstance(item, FromPosition)]
"""A start under the lowest-card rule before the first reveal (F1); round 0 (T5); `take@S`
naming another seat than the one to take (notation)."""
