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
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dekal.conformance.sources import (
    GAMES,
    NEGATIVE,
    PERFT,
    Arranged,
    Broken,
    Explicit,
    Game,
    Perft,
    Seeded,
    Twins,
)

RETIRED: tuple[str, ...] = ()
PROMOTED_TO_MUST = ("B1-neg-0001", "B1-neg-0002")
"""v1 cases at level should whose check is what spec/protocol.md says an engine must do."""


def _by_id(games: list[Game], case_id: str) -> Game:
    return next(game for game in games if game.id == case_id)


_LATER: list[Game] = []  # v2 games that lowest twins may copy (filled below)
TWIN_OF: dict[str, str] = {}
"""Case ID -> the ID of the case that makes the same check under the other first-player rule
(the test of coverage counts a check as run when either runs)."""


def _twins(*pairs: tuple[str, str]) -> None:
    for one, other in pairs:
        TWIN_OF[one], TWIN_OF[other] = other, one


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

# -- the answers of spec/protocol.md, as cases -----------------------------------------------
PRECEDENCE: list[Game] = [
    Game(
        "proto-0011",
        "M2 ranks before unsupported: an unknown push variant with a deal for 3 seats in a "
        "2-player game",
        ("M2",),
        players=2,
        deal=Seeded(631, players=3),
        rules_extra=(("push", "zigzag"),),
        refuse_setup="M2",
    ),
    Game(
        "proto-0012",
        "unsupported ranks before M3: an unknown push variant with a hole in a grid",
        ("M3",),
        players=2,
        deal=Explicit(("1234/5678/9T12/345.", "1234/5678/9T12/3456"), "6"),
        rules_extra=(("push", "zigzag"),),
        refuse_setup="unsupported",
    ),
    Game(
        "proto-0013",
        "unsupported ranks before M1: an unknown push variant with 101 cards",
        ("M1",),
        players=2,
        deal=Broken(633, "long-pile"),
        rules_extra=(("push", "zigzag"),),
        refuse_setup="unsupported",
    ),
    Game(
        "proto-0014",
        "notation ranks before unsupported: an unknown push variant with an unreadable grid",
        ("B1",),
        players=2,
        deal=Broken(634, "short-grid"),
        rules_extra=(("push", "zigzag"),),
        refuse_setup="notation",
    ),
    Game(
        "proto-0015",
        "unsupported ranks before F3: an unknown first-player rule without a first player",
        ("F3",),
        players=2,
        deal=Seeded(635),
        rules_extra=(("first", "youngest"),),
        refuse_setup="unsupported",
    ),
]
"""Where `unsupported` and `notation` rank in new_game (lowest rule; chosen twins follow)."""

PROTOCOL: list[Game] = [
    *[
        Game(
            f"proto-{number:04d}",
            f"result is refused (bad_request) until the round is scored ({first} first player)",
            ("S2", "S3"),
            players=2,
            first=first,
            first_player=None if first == "lowest" else 0,
            deal=Seeded(610 + number),
            script=(
                "!bad_request ask result",
                "play turn",
                "play 3",
                "!bad_request ask result",
                "play round",
                "ask result",
            ),
            seed=number,
        )
        for number, first in ((1, "lowest"), (2, "chosen"))
    ],
    Game(
        "proto-0003",
        "result answers in phase next (the round's scores and the totals so far), and is "
        "refused again once the next round has started",
        ("S4", "M5"),
        players=3,
        first="chosen",
        first_player=2,
        threshold=400,
        deal=Seeded(613),
        script=(
            "play round",
            "ask result",
            "!M5 reveal 0 a1",
            "ask result",
            "deal 1613",
            "!bad_request ask result",
            "play turn",
        ),
        seed=3,
    ),
    *[
        Game(
            f"proto-{number:04d}",
            f"a match threshold of {shown} is not a positive whole number: bad_request",
            ("S4",),
            players=2,
            first="chosen",
            first_player=0,
            deal=Seeded(620 + number),
            rules_extra=(("threshold", value),),
            refuse_setup="bad_request",
        )
        for number, (value, shown) in enumerate(
            ((0, "0"), (-100, "-100"), (1.5, "1.5"), ("100", 'the string "100"'), (True, "true")),
            start=4,
        )
    ],
    Game(
        "proto-0009",
        "a missing first_player is null: accepted with the lowest-card rule",
        ("F1", "T1"),
        players=2,
        deal=Seeded(629),
        omit_first_player=True,
        script=("play turn",),
        seed=9,
    ),
    Game(
        "proto-0010",
        "a missing first_player is null: refused with F3 under the chosen rule",
        ("F3",),
        players=2,
        first="chosen",
        deal=Seeded(630),
        omit_first_player=True,
        refuse_setup="F3",
    ),
    *PRECEDENCE,
    *[
        replace(
            game,
            id=f"proto-{number + 7:04d}",
            title=f"{game.title} (chosen first player)",
            first="chosen",
            first_player=0,
        )
        for game in PRECEDENCE
        for number in [int(game.id[-4:])]
    ],
    Game(
        "proto-0016",
        "a bad perft depth (negative, fractional, text, boolean, missing) is bad_request and "
        "changes nothing",
        ("B1",),
        players=2,
        first="chosen",
        first_player=0,
        deal=Seeded(636),
        script=(
            "!bad_request ask perft depth=-1",
            "!bad_request ask perft depth=1.5",
            '!bad_request ask perft depth="2"',
            "!bad_request ask perft depth=true",
            "!bad_request ask perft",
            "play 1",
            "ask perft depth=1",
            "play turn",
        ),
        seed=16,
    ),
    Game(
        "proto-0017",
        "a bad perft depth under the lowest-card rule",
        ("B1",),
        players=2,
        deal=Seeded(637),
        script=("!bad_request ask perft depth=-3", "ask perft depth=1", "play 2"),
        seed=17,
    ),
]


# -- actions that do not parse, at level must; the readers' leniency at level should --------
_UNREADABLE = (
    "!notation jump 0 a1",
    "!notation take 0 0",
    "!notation reveal x a1",
    "!notation reveal 0 e1",
    "!notation reveal 1 a5",
    "!notation reveal 01 a1",
    "!notation reveal -1 a1",
    "!notation reveal +1 a1",
    "!notation reveal 0",
    "!notation reveal 0 a1 b1",
    "!notation reveal 9 e1",
    "!notation REVEAL 0 a1",
)
ACTIONS: list[Game] = [
    *[
        Game(
            f"B1-neg-{number:04d}",
            "B1: actions that do not parse (bad verbs, seats 01 -1 +1, cells off the grid, "
            f"too few or many words, pushes L5 L22 X) are notation refusals ({first})",
            ("B1", "M4"),
            players=3,
            first=first,
            first_player=None if first == "lowest" else 2,
            deal=Arranged({"0:a1": "5", "1:a1": "3", "2:a1": "4"}, seed=40 + number),
            script=(
                *_UNREADABLE,
                "reveal 0 a1",
                "reveal 1 a1",
                "reveal 2 a1",
                "!notation take 1 11",
                "!notation take 1 1.5",
                "!notation take 9 0",
                "play 1",
                "!notation push 1 L5",
                "!notation push 1 L22",
                "!notation push 1 X",
                "!notation push 1",
                "play turn",
            ),
            seed=number,
        )
        for number, first in ((7, "lowest"), (8, "chosen"))
    ],
    Game(
        "game-0501",
        "notation.md: readers take upper-case cells, a lower-case t or 10 for ten, lower-case "
        "push sides",
        ("B1", "T1", "T3", "T4"),
        players=2,
        first="chosen",
        first_player=0,
        deal=Arranged({"0:a1": "T", "1:b2": "T"}, seed=51),
        script=("reveal 0 A1", "reveal 1 B2", "take 0 t", "push 0 r", "take 1 10", "push 1 b"),
        level="should",
    ),
]


# -- the last seat's takes (issue 8's mutation run: no case listed seat 5's legal takes) ------
_SEAT_FIVE_REVEALS = {"0:a1": "7", "1:a1": "3", "2:a1": "7", "3:a1": "T", "4:a1": "3", "5:a1": "1"}
"""Six a1 reveals whose centre 1 3 3 7 7 T holds two pairs: seat 5 reveals the single lowest
card, so it takes first under either first-player rule (chosen: by the set-up)."""

SEAT_FIVE: list[Game] = [
    Game(
        f"game-{number:04d}",
        "T3: seat 5 of a six-player game lists its takes, each centre value once, ascending "
        f"(1 3 7 T of 1 3 3 7 7 T), then seat 0 takes next ({first} first player)",
        ("T3", "M4"),
        players=6,
        first=first,
        first_player=None if first == "lowest" else 5,
        deal=Arranged(_SEAT_FIVE_REVEALS, seed=number),
        script=(
            *(f"reveal {seat} a1" for seat in range(6)),
            "take 5 7",
            "play turn",
            "play turn",  # the token has passed to seat 0: seat 5 takes last, from one card
        ),
        seed=number,
        legal=True,
        expect_start=5,
    )
    for number, first in ((115, "chosen"), (116, "lowest"))
]

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


# -- notation refusals of the single-grid commands ---------------------------------------------
@dataclass(frozen=True)
class UnitRefusal:
    """One `score`, `pushes` or `push` request the reference must refuse (or, `accepted`,
    read leniently: level should)."""

    id: str
    kind: str
    fields: tuple[tuple[str, str], ...]
    title: str
    refused: str  # "notation" or a rule ID
    level: str = "must"


_GRID = "1.34/5678/9T12/3456"
UNIT_REFUSALS: list[UnitRefusal] = [
    UnitRefusal(
        "B1-neg-0101", "score", (("grid", "1111/2222/3333/444"),), "a row of 3", "notation"
    ),
    UnitRefusal(
        "B1-neg-0102", "score", (("grid", "1111/2222/3333/44445"),), "a row of 5", "notation"
    ),
    UnitRefusal("B1-neg-0103", "score", (("grid", "1111/2222/3333"),), "three rows", "notation"),
    UnitRefusal(
        "B1-neg-0104", "score", (("grid", "1111/2222/3333/4444/5555"),), "five rows", "notation"
    ),
    UnitRefusal("B1-neg-0105", "score", (("grid", "1111/2222/3333/4440"),), "a 0", "notation"),
    UnitRefusal("B1-neg-0106", "score", (("grid", "1111/2222/3333/444X"),), "an X", "notation"),
    UnitRefusal(
        "B1-neg-0107",
        "score",
        (("grid", "1111/2222/3333/444."),),
        "a hole: a scored grid has 16 cards",
        "notation",
    ),
    UnitRefusal("B1-neg-0108", "score", (("grid", ""),), "an empty grid", "notation"),
    UnitRefusal(
        "B1-neg-0109",
        "pushes",
        (("grid", "1.34/5678/9T12/345"), ("variant", "slide")),
        "a row of 3",
        "notation",
    ),
    UnitRefusal(
        "B1-neg-0110",
        "pushes",
        (("grid", "1.34/5.78/9T12/3456"), ("variant", "slide")),
        "two holes: a grid has at most one",
        "notation",
    ),
    UnitRefusal(
        "B1-neg-0111",
        "pushes",
        (("grid", _GRID), ("variant", "zigzag")),
        "an unknown variant",
        "notation",
    ),
    UnitRefusal(
        "B1-neg-0112", "pushes", (("grid", _GRID), ("variant", "")), "an empty variant", "notation"
    ),
    UnitRefusal(
        "T4-neg-0101",
        "pushes",
        (("grid", "1234/5678/9T12/3456"), ("variant", "slide")),
        "no hole",
        "T4",
    ),
    UnitRefusal(
        "T4-neg-0102",
        "pushes",
        (("grid", "1234/5678/9T12/3456"), ("variant", "eject")),
        "no hole (eject)",
        "T4",
    ),
    *[
        UnitRefusal(
            f"B1-neg-{113 + index:04d}",
            "push",
            (("grid", grid), ("push", push), ("card", card), ("variant", variant)),
            title,
            refused,
        )
        for index, (grid, push, card, variant, title, refused) in enumerate(
            (
                (_GRID, "X", "5", "slide", "the push X", "notation"),
                (_GRID, "L5", "5", "slide", "the line 5", "notation"),
                (_GRID, "L22", "5", "eject", "the push L22", "notation"),
                (_GRID, "", "5", "slide", "an empty push", "notation"),
                (_GRID, "LR", "5", "slide", "two sides", "notation"),
                (_GRID, "L", "0", "slide", "the card 0", "notation"),
                (_GRID, "L", "11", "slide", "the card 11", "notation"),
                (_GRID, "L", "", "slide", "an empty card", "notation"),
                (_GRID, "L", "5", "zigzag", "an unknown variant", "notation"),
                ("1.34/5678/9T12/345", "L", "5", "slide", "a row of 3", "notation"),
                ("1.34/5.78/9T12/3456", "L", "5", "slide", "two holes", "notation"),
                (
                    "1234/5678/9T12/3456",
                    "X",
                    "5",
                    "slide",
                    "no hole and the push X: notation first",
                    "notation",
                ),
                (
                    "1234/5678/9T12/3456",
                    "L",
                    "5",
                    "zigzag",
                    "no hole and an unknown variant: notation first",
                    "notation",
                ),
                (
                    "1234/5678/9T12/3456",
                    "T",
                    "5",
                    "slide",
                    "no hole and a push from the hole's edge: T4 before P1",
                    "T4",
                ),
                ("1234/5678/9T12/3456", "L3", "5", "eject", "no hole, eject: T4 before P2", "T4"),
            )
        )
    ],
    UnitRefusal(
        "push-0016",
        "push",
        (("grid", _GRID), ("push", "l"), ("card", "t"), ("variant", "slide")),
        "lower-case push side and ten",
        "accepted",
        level="should",
    ),
    UnitRefusal(
        "push-0017",
        "push",
        (("grid", _GRID), ("push", "r1"), ("card", "10"), ("variant", "eject")),
        "lower-case eject push, ten written 10",
        "accepted",
        level="should",
    ),
]


# -- seeded deals (feature seeded-deal) --------------------------------------------------------
DEAL_SEEDS = (0, 1, 42, 2026, 123456789, 2**32, 2**63, 2**64 - 1)
DEAL_ROUNDS = (1, 2, 5)

DEAL_REFUSALS: tuple[tuple[dict[str, object], str, str], ...] = (
    ({"seed": -1, "players": 2, "round": 1}, "a negative seed", "bad_request"),
    ({"seed": 2**64, "players": 2, "round": 1}, "the seed 2^64", "bad_request"),
    ({"seed": 1.5, "players": 2, "round": 1}, "a fractional seed", "bad_request"),
    ({"seed": "42", "players": 2, "round": 1}, "a seed written as text", "bad_request"),
    ({"seed": True, "players": 2, "round": 1}, "a boolean seed", "bad_request"),
    ({"players": 2, "round": 1}, "no seed", "bad_request"),
    ({"seed": 42, "players": 1, "round": 1}, "one player (M2)", "M2"),
    ({"seed": 42, "players": 7, "round": 1}, "seven players (M2)", "M2"),
    ({"seed": 42, "players": "2", "round": 1}, "players written as text", "bad_request"),
    ({"seed": 42, "players": 2, "round": 0}, "round 0", "bad_request"),
    ({"seed": 42, "players": 2, "round": -2}, "a negative round", "bad_request"),
    ({"seed": 42, "players": 2, "round": 1001}, "round 1001 (rounds are 1 to 1000)", "bad_request"),
    ({"seed": 42, "players": 2}, "no round", "bad_request"),
)


# -- games started from a position (feature position) -----------------------------------------
@dataclass(frozen=True)
class FromPosition:
    """A game started from the position `reach` arrives at (played on the reference), then
    `script`; or that position altered by `edit`, which new_game must refuse (`refused`)."""

    id: str
    title: str
    rules: tuple[str, ...]
    reach: Game
    script: tuple[str, ...] = ()
    edit: tuple[tuple[int, str], ...] = ()
    """(field index, new text) pairs that alter the reached position; `{grid0}` stands for
    seat 0's grid, `{faceup0}` for a face-up cell of seat 0."""
    refused: str | None = None


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
