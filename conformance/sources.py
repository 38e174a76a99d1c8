"""The readable source of the conformance vectors (suite v1). APPEND ONLY.

Every case is written here with its ID, the rule IDs it tests and what it does; the
expected observations are not written by hand: `dekal.conformance.generate` plays each case
on the reference engine and freezes what it answers into spec/conformance/v1/*.jsonl.

IDs are stable: never change what an existing ID means, never reuse one. To add a case,
append it (new IDs continue the numbering); to retire one, move its ID to RETIRED.

Scripts are lists of items:

* `"reveal 0 a1"`, `"take 1 T"`, `"push 1 L"`: one action, which the reference must accept;
* `"!T3 take 0 5"`: an action the reference must refuse with exactly rule T3;
* `"!notation take 0 0"`: an action whose notation does not parse (kind `notation`);
* `"play N"`: N legal actions chosen by the case's seeded policy; `"play turn"`,
  `"play round"`: until the next turn starts or the round is scored;
* `"mirror round"`: every seat picks the same cell and pushes from the same side (grids
  dealt identical stay identical: a shared victory by construction);
* `"play N turns"`: until N more turns have started (or the round is scored);
* `"play match"`: rounds until the match is over, round r ≥ 2 dealt by `deal S` with
  S = the case's seed + 1000·(r − 1);
* `"deal SEED"`: the next round of a match, with the seeded deal of SEED (`deal SEED HOW`:
  that deal broken on purpose, see `Broken`);
* `"!M5 deal SEED"`: a new deal the reference must refuse with rule M5.

Suite v2 adds (conformance/sources_v2.py):

* `"deal @K"`: the next round dealt with the case's `later_deals[K]`;
* `"twin round"`: every seat picks the same cell, takes back the value it revealed and
  pushes from the same side (seats dealt the same cards stay identical, the others differ);
* `"ask CMD"` or `"ask CMD FIELD=JSON"`: one other request (`result`, `perft depth=-1`),
  its reply recorded (`"!bad_request ask result"` when it must be refused).

The cases live in one module per kind: sources_units (score, push), sources_games (scripted
games), sources_negative (typed refusals); perft below. Their shapes are in source_types.
"""

from __future__ import annotations

from dekal.conformance.source_types import (
    Arranged,
    Broken,
    Deal,
    Explicit,
    ForbiddenPushBlock,
    Game,
    Mirrored,
    Perft,
    PushBlock,
    PushCase,
    ScoreBlock,
    ScoreCase,
    Seeded,
    Twins,
)
from dekal.conformance.sources_games import GAMES
from dekal.conformance.sources_negative import NEGATIVE
from dekal.conformance.sources_units import PUSH, PUSHES_VARIANTS, SCORE

__all__ = [
    "Arranged",
    "Broken",
    "Deal",
    "Explicit",
    "ForbiddenPushBlock",
    "GAMES",
    "Game",
    "Mirrored",
    "NEGATIVE",
    "PERFT",
    "PUSH",
    "PUSHES_VARIANTS",
    "Perft",
    "PushBlock",
    "PushCase",
    "RETIRED",
    "SCORE",
    "ScoreBlock",
    "ScoreCase",
    "Seeded",
    "Twins",
]

RETIRED: tuple[str, ...] = ()


PERFT: list[Perft] = [
    Perft(
        "perft-0001",
        "turn 1, 2 players, slide: every joint reveal",
        Game("", "", (), deal=Seeded(601)),
        1,
    ),
    Perft("perft-0002", "turn 1, 2 players, slide, depth 2", Game("", "", (), deal=Seeded(601)), 2),
    Perft("perft-0003", "turn 1, 2 players, slide, depth 3", Game("", "", (), deal=Seeded(601)), 3),
    Perft(
        "perft-0004",
        "turn 1, 2 players, eject, depth 3",
        Game("", "", (), push="eject", deal=Seeded(602)),
        3,
    ),
    Perft(
        "perft-0005",
        "a take with equal values in the centre is one node",
        Game(
            "",
            "",
            (),
            players=3,
            first="chosen",
            first_player=0,
            deal=Arranged({"0:a1": "6", "1:a1": "6", "2:a1": "6"}, seed=16),
            script=("reveal 0 a1", "reveal 1 a1", "reveal 2 a1"),
        ),
        4,
    ),
    Perft(
        "perft-0006",
        "mid-round with a partial reveal: one seat has picked",
        Game("", "", (), players=3, deal=Seeded(606), script=("play 4 turns", "play 1"), seed=6),
        2,
    ),
    Perft(
        "perft-0007",
        "turn 15 of 4 players: small joint reveals",
        Game("", "", (), players=4, deal=Seeded(607), script=("play 14 turns",), seed=7),
        4,
    ),
    Perft(
        "perft-0008",
        "the last turn: sequences that reach the end of the round count 0 past it",
        Game("", "", (), players=2, deal=Seeded(608), script=("play 15 turns",), seed=8),
        5,
    ),
    Perft(
        "perft-0009",
        "the last turn of an eject game, 3 players",
        Game(
            "", "", (), players=3, push="eject", deal=Seeded(609), script=("play 15 turns",), seed=9
        ),
        5,
    ),
    Perft(
        "perft-0010",
        "a match round ending: phase next has no node",
        Game(
            "",
            "",
            (),
            players=2,
            threshold=500,
            deal=Seeded(610),
            script=("play 15 turns", "play 2"),
            seed=10,
        ),
        4,
    ),
    Perft(
        "perft-0011",
        "turn 14, 6 players, slide",
        Game("", "", (), players=6, deal=Seeded(611), script=("play 13 turns",), seed=11),
        2,
    ),
    Perft(
        "perft-0012",
        "turn 12, 5 players, eject, take phase",
        Game(
            "",
            "",
            (),
            players=5,
            push="eject",
            deal=Seeded(612),
            script=("play 11 turns", "play 6"),
            seed=12,
        ),
        3,
    ),
    Perft(
        "perft-0013",
        "depth 0 is one node and an empty divide",
        Game("", "", (), deal=Seeded(613)),
        0,
    ),
    Perft(
        "perft-0014",
        "a finished game has no nodes",
        Game("", "", (), deal=Seeded(614), script=("play round",), seed=14),
        2,
    ),
    Perft(
        "perft-0015",
        "turn 2, 2 players, chosen first player, depth 2",
        Game(
            "",
            "",
            (),
            first="chosen",
            first_player=1,
            deal=Seeded(615),
            script=("play turn",),
            seed=15,
        ),
        2,
    ),
    Perft(
        "perft-0016",
        "the last turn, one node past the end: 0 sequences",
        Game("", "", (), players=2, deal=Seeded(608), script=("play 15 turns",), seed=8),
        6,
    ),
]
