"""The readable source of suite v2: every case of v1 (conformance/sources.py), plus. APPEND ONLY.

Suite v2 keeps every v1 case ID whose check is unchanged (the v1 source is reused as is) and
adds cases with IDs never used before. What was added, and why (the measurements of issue 8):

* twins: checks that do not depend on the first-player rule, the match or perft, written
  again for the rules an engine may lack (a `chosen`-only engine skipped 42 v1 cases that
  test nothing about the first player; T5's single-round refusal needed `match`);
* classes of situations no v1 case reached: shared places when not everyone shares, equal
  match totals with different cards left, a tie-break draw and then a new round, a turn-1
  tie in a later round (F4), wrong-sized deals in `new_round`, `result` before the round is
  scored, thresholds that are not positive whole numbers;
* notation refusals at level must in every command, and the reading edge cases of actions;
* the answers of spec/protocol.md to implementers' questions (precedence of `unsupported`,
  of a malformed deal, a missing `first_player`, bad perft depths);
* the optional features `seeded-deal` (the deals of spec/rules.md) and `position` (a game
  started from a one-line position).

Scripts are written as in conformance/sources.py.

Twins, classes and the lowest-card games are below; the protocol's answers are in
sources_v2_protocol, single-grid refusals and deals in sources_v2_units, games from a
position in sources_v2_positions.
"""

from __future__ import annotations

from dataclasses import replace

from dekal.conformance.source_twins import TWIN_OF
from dekal.conformance.source_twins import twins as _twins
from dekal.conformance.source_types import FromPosition, UnitRefusal
from dekal.conformance.sources import (
    GAMES,
    NEGATIVE,
    PERFT,
    Arranged,
    Game,
    Perft,
    Seeded,
    Twins,
)
from dekal.conformance.sources_v2_positions import POSITIONS
from dekal.conformance.sources_v2_protocol import ACTIONS, PRECEDENCE, PROTOCOL, SEAT_FIVE
from dekal.conformance.sources_v2_units import (
    DEAL_REFUSALS,
    DEAL_ROUNDS,
    DEAL_SEEDS,
    UNIT_REFUSALS,
)

__all__ = [
    "ACTIONS",
    "CLASSES",
    "DEAL_REFUSALS",
    "DEAL_ROUNDS",
    "DEAL_SEEDS",
    "FromPosition",
    "LOWEST_GAMES",
    "PERFT_TWINS",
    "POSITIONS",
    "PRECEDENCE",
    "PROMOTED_TO_MUST",
    "PROTOCOL",
    "RETIRED",
    "SEAT_FIVE",
    "TWINS",
    "TWIN_OF",
    "UNIT_REFUSALS",
    "UnitRefusal",
    "V2_GAMES",
]

RETIRED: tuple[str, ...] = ()
PROMOTED_TO_MUST = ("B1-neg-0001", "B1-neg-0002")
"""v1 cases at level should whose check is what spec/protocol.md says an engine must do."""


def _by_id(games: list[Game], case_id: str) -> Game:
    return next(game for game in games if game.id == case_id)


_LATER: list[Game] = []  # v2 games that lowest twins may copy (filled below)


def chosen_twin(case_id: str, source: str, first_player: int = 0) -> Game:
    """The v1 game `source` again under the `chosen` rule: its check does not depend on it."""
    _twins((source, case_id))
    game = _by_id(GAMES + NEGATIVE, source)
    return replace(
        game,
        id=case_id,
        title=f"{game.title} (chosen first player: as {source})",
        first="chosen",
        first_player=first_player,
        level="must",  # the twins of B1-neg-0001/0002 are must-level, as those are in v2
    )


def lowest_twin(case_id: str, source: str, **changes: object) -> Game:
    """The v1 game `source` (chosen) again under the lowest-card rule; `changes` arrange the
    deal so that the seat that started under `chosen` reveals the lowest card."""
    _twins((source, case_id))
    game = _by_id(GAMES + NEGATIVE + _LATER, source)
    title = f"{game.title} (lowest-card rule: as {source})"
    return replace(game, id=case_id, title=title, first="lowest", first_player=None, **changes)  # type: ignore[arg-type]


# -- twins: the same checks for engines that lack `lowest` or `match` ----------------------
TWINS: list[Game] = [
    chosen_twin("T1-neg-0007", "T1-neg-0002"),
    chosen_twin("M4-neg-0003", "M4-neg-0002"),
    chosen_twin("S4-neg-0002", "S4-neg-0001"),
    chosen_twin("M5-neg-0003", "M5-neg-0001"),
    chosen_twin("M5-neg-0004", "M5-neg-0002"),
    chosen_twin("M2-neg-0005", "M2-neg-0001"),
    chosen_twin("M2-neg-0006", "M2-neg-0002"),
    chosen_twin("M2-neg-0007", "M2-neg-0003"),
    chosen_twin("M3-neg-0003", "M3-neg-0001"),
    chosen_twin("M3-neg-0004", "M3-neg-0002"),
    chosen_twin("M1-neg-0004", "M1-neg-0001"),
    chosen_twin("M1-neg-0005", "M1-neg-0002"),
    chosen_twin("M1-neg-0006", "M1-neg-0003"),
    chosen_twin("M2-neg-0008", "M2-neg-0004"),
    chosen_twin("B1-neg-0003", "B1-neg-0001"),
    chosen_twin("B1-neg-0004", "B1-neg-0002"),
    *[
        lowest_twin(f"T1-neg-{8 + index:04d}", f"T1-neg-{source:04d}")
        for index, source in enumerate((1, 3, 4, 5, 6))
    ],
    lowest_twin("T3-neg-0005", "T3-neg-0001"),
    lowest_twin(
        "T3-neg-0006",
        "T3-neg-0002",
        deal=Arranged({"0:a1": "5", "1:a1": "4", "2:a1": "6"}, seed=12),
        script=(
            "reveal 0 a1",
            "reveal 1 a1",
            "reveal 2 a1",
            "!T3 take 0 4",
            "!T3 take 2 6",
            "take 1 4",
            "push 1 R",
            "!T3 take 0 5",
            "take 2 5",
        ),
    ),
    lowest_twin(
        "T3-neg-0007", "T3-neg-0003", deal=Arranged({"0:a1": "4", "1:a1": "4"}, pile="12", seed=13)
    ),
    lowest_twin(
        "T3-neg-0008",
        "T3-neg-0004",
        deal=Arranged({"0:a1": "4", "1:a1": "4", "2:a1": "9"}, pile="12", seed=14),
    ),
    *[
        lowest_twin(f"T4-neg-{4 + index:04d}", f"T4-neg-{source:04d}")
        for index, source in enumerate((1, 2, 3))
    ],
    lowest_twin("P1-neg-0003", "P1-neg-0002"),
    lowest_twin("M4-neg-0004", "M4-neg-0001"),
    *[
        Game(
            f"T5-neg-{number:04d}",
            f"T5: any action after a single-round game is over ({first} first player)",
            ("T5", "B1"),
            players=2,
            first=first,
            first_player=None if first == "lowest" else 1,
            deal=Seeded(561),
            script=(
                "play round",
                "!T5 reveal 0 a1",
                "!T5 take 0 5",
                "!T5 push 1 L",
                "!T5 reveal 7 a1",
                "!T5 take 1 T",
            ),
        )
        for number, first in ((2, "lowest"), (3, "chosen"))
    ],
]

PERFT_TWINS: list[Perft] = [
    Perft(
        f"perft-{17 + index:04d}",
        f"{item.title} (chosen first player: as {item.id})",
        replace(item.game, first="chosen", first_player=0),
        item.depth,
    )
    for index, item in enumerate(
        item for item in PERFT if item.game.first == "lowest" and item.game.threshold is None
    )
]


# -- classes of situations v1 never reached ---------------------------------------------------
CLASSES: list[Game] = [
    Game(
        "game-0304",
        "S3: two seats share first place, the third is third (places 1, 1, 3)",
        ("S3", "S1", "S2"),
        players=3,
        first="chosen",
        first_player=0,
        deal=Twins((0, 1), seed=5),
        script=("twin round",),
        seed=33,
        expect_places=(1, 1, 3),
    ),
    Game(
        "game-0305",
        "S3: one winner, two seats share second place (places 1, 2, 2)",
        ("S3", "S1", "S2"),
        players=3,
        first="chosen",
        first_player=1,
        deal=Twins((1, 2), seed=0),
        script=("twin round",),
        seed=34,
        expect_places=(1, 2, 2),
    ),
    Game(
        "game-0306",
        "S3: four players, the middle two share (places 1, 2, 2, 4)",
        ("S3",),
        players=4,
        first="lowest",
        deal=Twins((0, 3), seed=1),
        script=("twin round",),
        seed=36,
        expect_places=(1, 2, 2, 4),
    ),
    Game(
        "game-0307",
        "S3: four players, the middle two share (places 1, 2, 2, 4), chosen first player",
        ("S3",),
        players=4,
        first="chosen",
        first_player=3,
        deal=Twins((1, 2), seed=1),
        script=("twin round",),
        seed=37,
        expect_places=(1, 2, 2, 4),
    ),
    Game(
        "match-0007",
        "S4: equal match totals share the place even with different cards left (no S3 tie-break)",
        ("S4",),
        players=2,
        first="chosen",
        first_player=0,
        threshold=1,
        deal=Seeded(5),
        script=("play round",),
        seed=15,
        expect_places=(1, 1),
    ),
    Game(
        "match-0008",
        "F2 then M5: round 1 drew from the pile to break a tie; round 2 starts with its own "
        "pile and nothing removed",
        ("F2", "F4", "M5"),
        players=2,
        threshold=500,
        deal=Arranged({"0:b2": "1", "1:c3": "1"}, pile="4431", seed=3),
        script=("reveal 0 b2", "reveal 1 c3", "play round", "deal 1508", "play turn"),
        seed=8,
    ),
    Game(
        "match-0009",
        "F4: a tie for the lowest card on turn 1 of round 2 draws nothing: the start rotates",
        ("F4", "F1", "F2"),
        players=2,
        threshold=500,
        deal=Seeded(509),
        later_deals=(Arranged({"0:a1": "1", "1:a1": "1"}, pile="21", seed=9),),
        script=("play round", "deal @0", "reveal 0 a1", "reveal 1 a1", "play turn"),
        seed=9,
    ),
    Game(
        "match-0010",
        "F4: the single lowest card on turn 1 of round 2 does not take the token",
        ("F4", "F1"),
        players=3,
        threshold=500,
        deal=Seeded(510),
        later_deals=(Arranged({"0:a1": "9", "1:a1": "8", "2:a1": "1"}, seed=10),),
        script=(
            "play round",
            "deal @0",
            "reveal 0 a1",
            "reveal 1 a1",
            "reveal 2 a1",
            "play turn",
        ),
        seed=10,
    ),
    # new_round with a deal of the wrong size, and what ranks first.
    Game(
        "M2-neg-0009",
        "M2: a new round dealt with one grid too many",
        ("M2", "B1"),
        players=2,
        first="chosen",
        first_player=0,
        threshold=300,
        deal=Seeded(591),
        script=("play round", "!M2 deal 1591 extra-grid", "deal 1591", "play turn"),
    ),
    Game(
        "M3-neg-0005",
        "M3: a new round dealt with a hole in a grid",
        ("M3", "B1"),
        players=2,
        first="chosen",
        first_player=1,
        threshold=300,
        deal=Seeded(592),
        script=("play round", "!M3 deal 1592 hole", "deal 1592", "play turn"),
    ),
    Game(
        "M1-neg-0007",
        "M1: a new round dealt with 101 cards",
        ("M1", "B1"),
        players=3,
        first="chosen",
        first_player=2,
        threshold=300,
        deal=Seeded(593),
        script=("play round", "!M1 deal 1593 long-pile", "deal 1593", "play turn"),
    ),
    Game(
        "B1-neg-0005",
        "B1: a new round whose grid has a short row is a notation refusal, not a rule",
        ("B1", "M3"),
        players=2,
        first="chosen",
        first_player=0,
        threshold=300,
        deal=Seeded(594),
        script=("play round", "!notation deal 1594 short-grid", "deal 1594", "play turn"),
    ),
    Game(
        "B1-neg-0006",
        "B1 before M5: an unreadable deal is refused as notation even before the round ends",
        ("B1", "M5"),
        players=2,
        first="chosen",
        first_player=0,
        threshold=300,
        deal=Seeded(595),
        script=("!notation deal 1595 short-grid", "play turn", "!notation deal 1595 short-grid"),
    ),
    Game(
        "M5-neg-0005",
        "M5 before M2: a wrong-sized deal before the round is scored is refused with M5",
        ("M5", "B1"),
        players=2,
        first="chosen",
        first_player=1,
        threshold=300,
        deal=Seeded(596),
        script=("!M5 deal 1596 extra-grid", "play turn", "!M5 deal 1596 hole"),
    ),
    Game(
        "S4-neg-0003",
        "S4 before M2: a wrong-sized deal after the match is over is refused with S4",
        ("S4", "B1"),
        players=2,
        first="chosen",
        first_player=0,
        threshold=1,
        deal=Seeded(597),
        script=("play round", "!S4 deal 1597 drop-grid", "!S4 deal 1597 long-pile"),
    ),
]


_LATER += CLASSES

LOWEST_GAMES: list[Game] = [
    lowest_twin(
        "game-0112",
        "game-0109",
        deal=Arranged({"0:a1": "9", "1:a1": "8", "2:a1": "7", "3:a1": "1"}, seed=109),
    ),
    lowest_twin(
        "game-0113",
        "game-0110",
        deal=Arranged({"0:a1": "5", "1:a1": "2", "2:a1": "8"}, seed=10),
        script=(
            "reveal 0 a1",
            "reveal 1 a1",
            "reveal 2 a1",
            "take 1 2",
            "push 1 R",
            "take 2 5",
            "push 2 B",
            "take 0 8",
            "push 0 R",
        ),
    ),
    lowest_twin(
        "game-0114", "game-0111", deal=Arranged({"0:d4": "3", "1:d4": "6", "2:d4": "6"}, seed=11)
    ),
    lowest_twin("game-0205", "game-0201", deal=Arranged({"0:a1": "1", "1:d4": "9"}, seed=201)),
    lowest_twin("game-0206", "game-0204"),
    lowest_twin("game-0308", "game-0301"),
    lowest_twin("game-0309", "game-0302"),
    lowest_twin("game-0310", "game-0304"),
    lowest_twin("game-0311", "game-0305"),
    lowest_twin("P1-neg-0004", "P1-neg-0001", deal=Arranged({"0:b1": "1", "1:a2": "9"}, seed=531)),
]
"""The chosen-only games of v1 and v2 again under the lowest-card rule (deals arranged so
that the seat that started under `chosen` reveals the lowest card)."""

V2_GAMES: list[Game] = TWINS + CLASSES + LOWEST_GAMES + PROTOCOL + ACTIONS + SEAT_FIVE
_twins(
    ("game-0115", "game-0116"),
    ("game-0306", "game-0307"),
    ("T5-neg-0002", "T5-neg-0003"),
    ("proto-0001", "proto-0002"),
    ("B1-neg-0007", "B1-neg-0008"),
    ("proto-0016", "proto-0017"),
    *((f"proto-{n:04d}", f"proto-{n + 7:04d}") for n in range(11, 15)),
)
