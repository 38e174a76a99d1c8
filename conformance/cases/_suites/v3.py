"""The case sources of suite v3, read from spec/conformance/sources/v3/: every case of v2,
re-levelled where v2 asked more than the rules, probed at every step, plus. APPEND ONLY.

What v3 changes, and why (issue 18):

* **must means the rules of Dékal.** A must-level case tests a rule, or an answer the
  protocol requires (a refusal where one is due, with its rule or kind). Which refusal comes
  first when one request is wrong in several ways of different kinds, leniency toward
  spellings that are not ambiguous, and which kind a malformed single grid gets are
  `should`: reported, never failing a run (TO_SHOULD, from v3/levels.jsonl). The order among
  refusals *of the rules* stays must: it is what the rules decide.
* **probing.** Every game case carries `"probe": true`: at each position it reaches, the
  runner sends actions the reference refuses there (dekal.conformance.cases._probe).
* **new cases**: unparseable actions at level must, request fields of the wrong JSON type,
  tie-breaks at the pile's edge, matches ranked otherwise than their last round, and
  positions that no game reaches or that do not read (spec/conformance/sources/README.md).
"""

from __future__ import annotations

from dekal.conformance.cases._source_files import read
from dekal.conformance.cases._source_types import FromPosition, Game, Relevel

RETIRED: tuple[str, ...] = ()

V3_GAMES: list[Game] = []
for _name in ("actions", "requests", "ties", "rankings"):
    V3_GAMES += read(f"v3/{_name}.jsonl", Game, earlier=V3_GAMES)
"""The games and set-ups v3 adds, file by file in this order."""

POSITIONS: list[FromPosition] = read("v3/position_unreachable.jsonl", FromPosition) + read(
    "v3/position_unreadable.jsonl", FromPosition
)
"""One otherwise valid position per rule that forbids it (dekal.conformance.drive._reachable), then
one per way a position line fails to read."""

TO_SHOULD: dict[str, str] = {
    item.id: item.why for item in read("v3/levels.jsonl", Relevel) if item.level == "should"
}
"""The cases v3 asks at level should (v2's must-level ones and v3's own), with why."""
