"""Suite v2's refusals of the single-grid commands and its seeded deals. APPEND ONLY."""

from __future__ import annotations

from dekal.conformance.source_types import (
    UnitRefusal,
)

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
