"""Suite v2's cases of spec/protocol.md's answers (precedence, result, thresholds, perft
depths), unreadable actions and the readers' leniency, and the last seat's takes. APPEND ONLY."""

from __future__ import annotations

from dataclasses import replace

from dekal.conformance.source_types import (
    Arranged,
    Broken,
    Explicit,
    Game,
    Seeded,
)

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
