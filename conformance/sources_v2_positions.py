"""Suite v2's games started from a position (feature position), and refused ones. APPEND ONLY."""

from __future__ import annotations

from dataclasses import replace

from dekal.conformance.source_twins import twins as _twins
from dekal.conformance.source_types import (
    Arranged,
    FromPosition,
    Game,
    Seeded,
)

POSITIONS: list[FromPosition] = [
    FromPosition(
        "position-0001",
        "from a fresh deal (lowest): the reveal decides the first player",
        ("F1", "T1"),
        Game("", "", (), players=2, deal=Seeded(701)),
        ("play turn",),
    ),
    FromPosition(
        "position-0002",
        "from a reveal with one pick made (3 players)",
        ("T1",),
        Game("", "", (), players=3, deal=Seeded(702), script=("play 3 turns", "play 1"), seed=2),
        ("play turn",),
    ),
    FromPosition(
        "position-0003",
        "from a take phase (take@S), chosen first player",
        ("T3",),
        Game(
            "",
            "",
            (),
            players=4,
            first="chosen",
            first_player=3,
            deal=Seeded(703),
            script=("play 5 turns", "play 4"),
            seed=3,
        ),
        ("play turn",),
    ),
    FromPosition(
        "position-0004",
        "from a push phase (push@S:V), eject",
        ("T4", "P2"),
        Game(
            "",
            "",
            (),
            players=3,
            push="eject",
            deal=Seeded(704),
            script=("play 7 turns", "play 4"),
            seed=4,
        ),
        ("!T4 take 0 5", "play turn"),
    ),
    FromPosition(
        "position-0005",
        "from a match between rounds (next): a new deal starts round 2, the start rotates",
        ("M5", "F4", "S4"),
        Game(
            "", "", (), players=2, threshold=300, deal=Seeded(705), script=("play round",), seed=5
        ),
        ("!M5 reveal 0 a1", "deal 1705", "play turn"),
    ),
    FromPosition(
        "position-0006",
        "from a finished single-round game (over): T5 refusals, result",
        ("T5", "S3"),
        Game(
            "",
            "",
            (),
            players=2,
            first="chosen",
            first_player=1,
            deal=Seeded(706),
            script=("play round",),
            seed=6,
        ),
        ("!T5 reveal 0 a1", "ask result"),
    ),
    FromPosition(
        "position-0007",
        "with cards removed by an F2 draw, mid-round",
        ("F2", "T3"),
        Game(
            "",
            "",
            (),
            players=3,
            deal=Arranged({"0:a1": "1", "1:a1": "1", "2:a1": "3"}, pile="52", seed=2),
            script=("reveal 0 a1", "reveal 1 a1", "reveal 2 a1", "play 2"),
            seed=7,
        ),
        ("play turn", "play turn"),
    ),
    FromPosition(
        "position-0008",
        "with match totals carried (round 2 of a match to 400)",
        ("S4", "F4"),
        Game(
            "",
            "",
            (),
            players=3,
            first="chosen",
            first_player=0,
            threshold=400,
            deal=Seeded(708),
            script=("play round", "deal 1708", "play 2 turns"),
            seed=8,
        ),
        ("play round",),
    ),
    FromPosition(
        "position-0009",
        "with an empty pile (6 players, every set-aside card drawn by F2)",
        ("F2", "T3"),
        Game(
            "",
            "",
            (),
            players=6,
            deal=Arranged(
                {"0:a1": "3", "1:a1": "1", "2:a1": "4", "3:a1": "5", "4:a1": "6", "5:a1": "1"},
                pile="2255",
                seed=6,
            ),
            script=tuple(f"reveal {s} a1" for s in range(6)),
            seed=9,
        ),
        ("play turn",),
    ),
    FromPosition(
        "position-0010",
        "from the last turn to the end of the round",
        ("T5", "S1", "S2", "S3"),
        Game(
            "",
            "",
            (),
            players=2,
            first="chosen",
            first_player=0,
            deal=Seeded(710),
            script=("play 15 turns",),
            seed=10,
        ),
        ("play round",),
    ),
    # Positions that do not parse: notation, naming the field.
    FromPosition(
        "position-0101",
        "nine fields",
        ("B1",),
        Game("", "", (), players=2, deal=Seeded(701)),
        edit=((9, ""),),
        refused="notation",
    ),
    FromPosition(
        "position-0102",
        "a public view cannot be loaded",
        ("B1",),
        Game("", "", (), players=2, deal=Seeded(701)),
        edit=((7, "#68"),),
        refused="notation",
    ),
    FromPosition(
        "position-0103",
        "an unknown phase",
        ("B1",),
        Game("", "", (), players=2, deal=Seeded(701)),
        edit=((2, "dance"),),
        refused="notation",
    ),
    FromPosition(
        "position-0104",
        "a centre not in ascending order is not canonical",
        ("B1",),
        Game(
            "",
            "",
            (),
            players=3,
            first="chosen",
            first_player=0,
            deal=Arranged({"0:a1": "5", "1:a1": "3", "2:a1": "4"}, seed=1),
            script=("reveal 0 a1", "reveal 1 a1", "reveal 2 a1"),
        ),
        edit=((6, "534"),),
        refused="notation",
    ),
    # Positions the rules cannot reach: illegal, naming the rule.
    FromPosition(
        "position-0201",
        "M1: a position with 101 cards",
        ("M1",),
        Game("", "", (), players=2, deal=Seeded(701)),
        edit=((8, "1"),),
        refused="M1",
    ),
    FromPosition(
        "position-0202",
        "M2: a position with one grid",
        ("M2",),
        Game("", "", (), players=2, first="chosen", first_player=0, deal=Seeded(701)),
        edit=((4, "{grid0}"), (5, "-"), (9, "0")),
        refused="M2",
    ),
    FromPosition(
        "position-0203",
        "F3: the chosen rule with no first player",
        ("F3",),
        Game("", "", (), players=2, first="chosen", first_player=0, deal=Seeded(701)),
        edit=((3, "-"),),
        refused="F3",
    ),
    FromPosition(
        "position-0204",
        "T1: a pick on a face-up card",
        ("T1",),
        Game(
            "",
            "",
            (),
            players=2,
            first="chosen",
            first_player=0,
            deal=Seeded(704),
            script=("play turn",),
            seed=4,
        ),
        edit=((5, "{faceup0},-"),),
        refused="T1",
    ),
    FromPosition(
        "position-0205",
        "S4: a match between rounds whose total already reached the threshold",
        ("S4",),
        Game(
            "", "", (), players=2, threshold=300, deal=Seeded(705), script=("play round",), seed=5
        ),
        edit=((0, "slide/lowest/20"),),
        refused="S4",
    ),
]


def _chosen_position(case_id: str, source: str) -> FromPosition:
    """The position case `source` reached under the `chosen` rule (seat 0 starts)."""
    _twins((source, case_id))
    item = next(p for p in POSITIONS if p.id == source)
    reach = replace(item.reach, first="chosen", first_player=0)
    return replace(item, id=case_id, title=f"{item.title} (chosen first player)", reach=reach)


POSITIONS += [
    _chosen_position("position-0011", "position-0002"),
    _chosen_position("position-0105", "position-0101"),
    _chosen_position("position-0106", "position-0102"),
    _chosen_position("position-0107", "position-0103"),
    _chosen_position("position-0206", "position-0201"),
]
