"""Suite v4's cases: generated to reach every feasible combination of the situation map.

For each combination of spec/situations.json that the cases so far leave unreached (pairs,
and triples for scoring, ranking and the first player), `design` turns its values into the
parameters of a designed round (dekal.conformance.cases._designed_rounds): the player count and
variants, the round and how it is entered (dealt, loaded from a position, played into by
new_round), the seat that starts, the values revealed on turn 1 and the pile the tie-break
draws from, the final grids (so the ranking), the totals before the round and the
threshold. The case is played on the reference and recorded; it is kept when the
reference's trace of it (dekal.conformance.judge._situations) reaches the combination, and what it
reaches besides is crossed off too. Perft at every depth in every phase, seeded deals of
every round and positions loaded or refused in every phase are built the same way.

Everything is derived from fixed seeds: generating twice gives the same cases.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dekal.conformance.cases._anchors import anchor_of
from dekal.conformance.cases._v4_design import Design, build
from dekal.conformance.cases._v4_geometry import geometry_game_cases
from dekal.conformance.cases._v4_phases import (
    deal_cases,
    deal_refusal_cases,
    perft_cases,
    position_cases,
)

Case = dict[str, Any]


DESIGNS = "v4/designs.jsonl"
"""The designs the search kept (spec/conformance/sources/v4/), one a line, in case order."""


def read_designs() -> list[Design]:
    from dekal.conformance.cases._source_files import lines

    designs = []
    for line in lines(DESIGNS):
        fields: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list) else v for k, v in line.fields.items()
        }
        designs.append(Design(**fields))
    return designs


def write_designs(designs: list[Design], path: Any) -> None:
    import dataclasses
    import json

    default = dataclasses.asdict(Design())
    with open(path, "w", encoding="utf-8") as out:
        for design in designs:
            fields = {k: v for k, v in dataclasses.asdict(design).items() if v != default[k]}
            out.write(json.dumps(fields, separators=(",", ":")) + "\n")


def v4_files(v3: dict[str, list[Case]]) -> dict[str, list[Case]]:
    """Suite v4: every case of v3 as it is, then the designed games of the search (their
    designs frozen in sources/v4/designs.jsonl), perft in every phase at every depth, deals
    of every round and positions in every phase, loaded and refused."""
    from dekal.conformance.cases._probe import probed_case

    designed = [
        build(design, f"game-{4000 + index:04d}") for index, design in enumerate(read_designs(), 1)
    ]
    files = {name: list(cases) for name, cases in v3.items()}

    def probed(cases: list[Case]) -> list[Case]:  # every game case is probed, as in v3
        return [probed_case(case) if case["kind"] == "game" else case for case in cases]

    files["games"] += probed(designed)
    files["games"] += probed(geometry_game_cases())
    files["negative"] += probed(deal_refusal_cases())
    files["perft"] += perft_cases()
    files["deal"] += deal_cases()
    files["position"] += probed(position_cases())
    files.update(decided_cases(files, probed))
    for cases in files.values():  # every must case names the section that decides it
        for case in cases:
            if case.get("level") == "must":
                case["anchor"] = anchor_of(case)
    return files


def decided_cases(
    files: dict[str, list[Case]], probed: Callable[[list[Case]], list[Case]]
) -> dict[str, list[Case]]:
    """The written cases where the spec now decides what engines disagreed on
    (dekal.conformance.cases._suites.v4): set-up refusals join `negative`, games `games`,
    positions `position`."""
    from dekal.conformance.cases._generate_games import game_case, position_case
    from dekal.conformance.cases._suites import v4

    games = [game_case(game) for game in v4.DECIDED_GAMES]
    return {
        "games": files["games"] + probed([c for c in games if c["kind"] == "game"]),
        "negative": files["negative"] + [c for c in games if c["kind"] != "game"],
        "position": files["position"] + [position_case(p) for p in v4.DECIDED_POSITIONS],
    }
