"""The case sources of suite v2, read from spec/conformance/sources/v2/: every case of v1
(dekal.conformance.cases._suites.v1), plus. APPEND ONLY.

Suite v2 keeps every v1 case ID whose check is unchanged (the v1 source is reused as is) and
adds cases with IDs never used before: twins of v1 checks for engines that lack a rule,
classes of situations v1 never reached, the answers of spec/protocol.md, notation refusals
at level must, the last seat's takes, and the optional features `seeded-deal` and
`position`. What each file holds and why: spec/conformance/sources/README.md.
"""

from __future__ import annotations

from dekal.conformance.cases._source_files import read
from dekal.conformance.cases._source_types import (
    DealRefusal,
    FromPosition,
    Game,
    Perft,
    Relevel,
    SeededDeals,
    UnitRefusal,
)
from dekal.conformance.cases._suites.v1 import GAMES, NEGATIVE, PERFT

RETIRED: tuple[str, ...] = ()

V2_GAMES: list[Game] = []
for _name in ("twins", "classes", "lowest", "protocol", "actions", "seat_five"):
    V2_GAMES += read(f"v2/{_name}.jsonl", Game, earlier=GAMES + NEGATIVE + V2_GAMES)
"""The games and set-ups v2 adds, file by file in this order."""

PERFT_TWINS: list[Perft] = read("v2/perft.jsonl", Perft, earlier=PERFT)
"""Every v1 perft case of a single round under the lowest-card rule, again under `chosen`."""
UNIT_REFUSALS: list[UnitRefusal] = read("v2/units.jsonl", UnitRefusal)
"""Single-grid requests (score, pushes, push) refused, or read leniently at level should."""
DEALS: list[SeededDeals | DealRefusal] = read("v2/deal.jsonl", SeededDeals, DealRefusal)
"""Feature seeded-deal: the deals of spec/rules.md, and the requests refused."""
POSITIONS: list[FromPosition] = read("v2/position.jsonl", FromPosition)
"""Feature position: games started from a position, and positions refused."""
PROMOTED_TO_MUST: tuple[str, ...] = tuple(
    item.id for item in read("v2/levels.jsonl", Relevel) if item.level == "must"
)
"""v1 cases at level should whose check is what spec/protocol.md says an engine must do."""
