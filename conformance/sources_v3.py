"""The readable source of suite v3: every case of v2, re-levelled where v2 asked more than the
rules, probed at every step, plus. APPEND ONLY.

What v3 changes, and why (issue 18):

* **must means the rules of Dékal.** A must-level case tests a rule, or an answer the
  protocol requires (a refusal where one is due, with its rule or kind). Which refusal comes
  first when one request is wrong in several ways of different kinds (a notation error and an
  unsupported variant, M2 and `unsupported`), leniency toward spellings that are not ambiguous
  (a seat `01` or `+1`), and which kind a malformed single grid gets (`score` on a grid with
  a hole: `notation` or S1) are `should`: reported, never failing a run (TO_SHOULD). The order
  among refusals *of the rules* (the game is over before the seat is checked, the seat before
  the phase, the phase before the move) stays must: it is what the rules decide.
* **probing.** Every game case carries `"probe": true`: at each position it reaches, the
  runner sends actions the reference refuses there (dekal.conformance.probe).
* **new cases**: the unparseable actions of B1-neg-0007/0008 without the lenient and
  competing spellings, at level must; the request fields of the wrong JSON type and an
  unknown command (bad_request); tie-breaks whose pile holds exactly as many cards as tied
  seats; a match whose last round ranks the seats otherwise than the totals; and one
  otherwise valid position per rule that makes a position unreachable (refused with it),
  and per way a position line fails to read.
"""

from __future__ import annotations

from dekal.conformance.source_twins import twins as _twins
from dekal.conformance.source_types import Arranged, FromPosition, Game, Seeded

RETIRED: tuple[str, ...] = ()

_ORDER = "the order among refusals of different kinds in one request"
TO_SHOULD: dict[str, str] = {
    **{f"proto-{n:04d}": _ORDER for n in (*range(11, 16), *range(18, 23))},
    "B1-neg-0006": _ORDER + " (notation before M5 in new_round)",
    "B1-neg-0124": _ORDER + " (notation before T4 in push)",
    "B1-neg-0125": _ORDER + " (notation before T4 in push)",
    "B1-neg-0007": "leniency (seats 01, +1) and notation before M4 (reveal 9 e1, take 9 0); "
    "the must-level part is B1-neg-0009",
    "B1-neg-0008": "leniency (seats 01, +1) and notation before M4 (reveal 9 e1, take 9 0); "
    "the must-level part is B1-neg-0010",
    "B1-neg-0107": "the kind a holed grid gets in score (notation, or S1's 16 cards)",
    "B1-neg-0110": "the kind a grid with two holes gets in pushes (notation, or T4)",
    "B1-neg-0123": "the kind a grid with two holes gets in push (notation, or T4)",
}
TO_SHOULD_V3 = {
    "proto-0024": "the kind a push variant that is not text gets (bad_request, or unsupported "
    "as a variant nobody claims): spec/protocol.md lists no such field among bad_request's",
}
"""v3's own cases asked at level should, with why."""
"""v2 cases at level must that v3 asks at level should, with why."""

_UNREADABLE = (
    "!notation jump 0 a1",
    "!notation take 0 0",
    "!notation reveal x a1",
    "!notation reveal 0 e1",
    "!notation reveal 1 a5",
    "!notation reveal 0",
    "!notation reveal 0 a1 b1",
    "!notation REVEAL 0 a1",
)
ACTIONS: list[Game] = [
    Game(
        f"B1-neg-{number:04d}",
        "B1: actions that do not parse (bad verbs, cells off the grid, too few or many words, "
        f"values 0 11 1.5, pushes L5 L22 X) are notation refusals ({first})",
        ("B1",),
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
            "play 1",
            "!notation push 1 L5",
            "!notation push 1 L22",
            "!notation push 1 X",
            "!notation push 1",
            "play turn",
        ),
        seed=number,
    )
    for number, first in ((9, "lowest"), (10, "chosen"))
]

_BAD_FIELDS: tuple[
    tuple[str, str, tuple[tuple[str, object], ...], tuple[tuple[str, object], ...]], ...
] = (
    ("rules.players written as text", "B1", (("players", "2"),), ()),
    ("rules.push that is not a string", "B1", (("push", 5),), ()),
    ("first_player written as text", "F3", (), (("first_player", "0"),)),
    ("a deal that is not an object", "M3", (), (("deal", "4543/1993/7277/2T35"),)),
    ("a pile that is not a string", "M3", (), (("deal.pile", 7),)),
)
REQUESTS: list[Game] = [
    *[
        Game(
            f"proto-{number:04d}",
            f"a request field of the wrong JSON type is bad_request: {title}",
            (rule,),
            players=2,
            first="chosen",
            first_player=0,
            deal=Seeded(640 + number),
            rules_extra=rules_extra,
            setup_extra=setup_extra,
            refuse_setup="bad_request",
        )
        for number, (title, rule, rules_extra, setup_extra) in enumerate(_BAD_FIELDS, start=23)
    ],
    Game(
        "proto-0028",
        "an unknown command is bad_request and changes nothing",
        ("B1",),
        players=2,
        first="chosen",
        first_player=1,
        deal=Seeded(648),
        script=("!bad_request ask dance", "play 3", "!bad_request ask dance step=1", "play turn"),
        seed=28,
    ),
]

_SIX = tuple(f"reveal {seat} a1" for seat in range(6))
TIES: list[Game] = [
    Game(
        "game-0601",
        "F2: four seats tie and the pile holds exactly four cards: one draw each decides "
        "(seat 1 draws the 3)",
        ("F2", "T2"),
        players=6,
        deal=Arranged(
            {"0:a1": "1", "1:a1": "1", "2:a1": "6", "3:a1": "1", "4:a1": "8", "5:a1": "1"},
            pile="5397",
            seed=601,
        ),
        script=(*_SIX, "play turn"),
        expect_start=1,
    ),
    Game(
        "game-0602",
        "F2: two seats tie, draw equal cards, and the two cards left are exactly enough: the "
        "second draw decides (seat 4)",
        ("F2", "T2"),
        players=6,
        deal=Arranged(
            {"0:a1": "5", "1:a1": "9", "2:a1": "2", "3:a1": "7", "4:a1": "2", "5:a1": "3"},
            pile="4462",
            seed=602,
        ),
        script=(*_SIX, "play turn"),
        expect_start=4,
    ),
    Game(
        "game-0603",
        "F2: four seats tie, exactly four cards: the last seat (5) draws the lowest and starts",
        ("F2", "T2", "M4"),
        players=6,
        deal=Arranged(
            {"0:a1": "8", "1:a1": "2", "2:a1": "2", "3:a1": "2", "4:a1": "9", "5:a1": "2"},
            pile="9753",
            seed=603,
        ),
        script=(*_SIX, "play turn"),
        expect_start=5,
    ),
]
"""Tie-breaks at the pile's edge: exactly as many cards as tied seats (the ruling of
game-0105…0107 is for fewer)."""

RANKINGS: list[Game] = [  # seeds picked so that the last round's order is not the totals'
    Game(
        f"match-{number:04d}",  # v2 used match-0001…0010
        "S4: a match of several rounds is ranked by totals, not by the last round "
        f"({players} players)",
        ("S4", "S2", "M5", "F4"),
        players=players,
        first="chosen",
        first_player=0,
        threshold=threshold,
        deal=Seeded(seed),
        script=("play match",),
        seed=seed,
    )
    for number, players, threshold, seed in (
        (101, 2, 100, 614),
        (102, 3, 150, 611),
        (103, 4, 100, 611),
    )
]

_FRESH = Game("", "", (), players=2, first="chosen", first_player=0, deal=Seeded(721))
_FRESH_LOWEST = Game("", "", (), players=2, deal=Seeded(722))
_TAKE = Game(
    "", "", (), players=2, first="chosen", first_player=0, deal=Seeded(723), script=("play 2",)
)
_PUSHED = Game(
    "", "", (), players=2, first="chosen", first_player=0, deal=Seeded(724), script=("play 4",)
)
_TURN2 = Game("", "", (), players=2, deal=Seeded(725), script=("play turn",), seed=1)
_ROUND_TWO = Game(
    "", "", (), players=2, threshold=300, deal=Seeded(727), script=("play round", "deal 1727")
)
_ROUND = Game(
    "", "", (), players=2, first="chosen", first_player=0, deal=Seeded(726), script=("play round",)
)


def _refused(
    number: int, title: str, rule: str, reach: Game, *edit: tuple[int, str]
) -> FromPosition:
    return FromPosition(f"position-{number:04d}", title, (rule,), reach, edit=edit, refused=rule)


UNREACHABLE: list[FromPosition] = [
    _refused(301, "T5: turn 17", "T5", _FRESH, (1, "1.17")),
    _refused(302, "T5: a game over at turn 1", "T5", _FRESH, (2, "over")),
    _refused(303, "F1: the first player still unknown on turn 2", "F1", _TURN2, (3, "-")),
    _refused(304, "M4: the start is seat 2 of 2 players (no such seat)", "M4", _FRESH, (3, "2")),
    _refused(
        305,
        "F2: a card removed under the chosen rule",
        "F2",
        _FRESH,
        (7, "{pile_rest}"),
        (8, "{pile_top}"),
    ),
    _refused(306, "M5: a single-round game in round 2", "M5", _FRESH, (1, "2.1")),
    _refused(307, "M5: a single-round game between rounds", "M5", _ROUND, (2, "next")),
    _refused(308, "T1: a pick made in the take phase", "T1", _TAKE, (5, "a1,-")),
    _refused(
        309, "T3: a take phase with an empty centre", "T3", _TAKE, (6, "-"), (7, "{centre}{pile}")
    ),
    _refused(
        310, "T1: a face-up card on turn 1 before any push", "T1", _FRESH, (4, "{grid0_up}|{grid1}")
    ),
    _refused(
        311,
        "T4: the hole in the grid of the seat that has pushed",
        "T4",
        _PUSHED,
        (4, "{grid1}|{grid0}"),
    ),
    _refused(
        312,
        "S4: a match over with every total under its threshold",
        "S4",
        _ROUND,
        (0, "slide/chosen/1000"),
    ),
    _refused(
        313,
        "F2: cards removed before the first reveal (lowest rule)",
        "F2",
        _FRESH_LOWEST,
        (7, "{pile_rest}"),
        (8, "{pile_top}"),
    ),
    _refused(
        314,
        "F2: cards removed in a match's second round (lowest rule)",
        "F2",
        _ROUND_TWO,
        (7, "{pile_rest}"),
        (8, "{pile_top}"),
    ),
    _refused(315, "T5: round 0", "T5", _FRESH, (1, "0.1")),
    _refused(316, "T5: turn 0", "T5", _FRESH, (1, "1.0")),
    _refused(317, "M5: a single-round game in round 3 (lowest rule)", "M5", _TURN2, (1, "3.2")),
]
"""One otherwise valid position per rule that forbids it (dekal.conformance.reachable)."""

_NOTATION = "notation"
UNREADABLE_POSITIONS: list[FromPosition] = [
    FromPosition(f"position-{number:04d}", title, ("B1",), _FRESH, edit=edit, refused=_NOTATION)
    for number, title, edit in (
        (121, "a grid of five rows", ((4, "{grid0}/abcd|{grid1}"),)),
        (122, "a grid with a '?'", ((4, "????/????/????/????|{grid1}"),)),
        (123, "101 grids (seats are 0-99)", ((4, "|".join(["{grid0}"] * 101)),)),
        (124, "rules of two parts", ((0, "slide/chosen"),)),
        (125, "an unknown first-player rule", ((0, "slide/youngest/single"),)),
        (126, "three totals for two seats", ((9, "0,0,0"),)),
        (127, "three picks for two seats", ((5, "-,-,-"),)),
    )
]

POSITIONS: list[FromPosition] = UNREACHABLE + UNREADABLE_POSITIONS
V3_GAMES: list[Game] = ACTIONS + REQUESTS + TIES + RANKINGS
_twins(("B1-neg-0009", "B1-neg-0010"))
