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
"""

from __future__ import annotations

from dataclasses import dataclass, field

RETIRED: tuple[str, ...] = ()


# -- deals ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Seeded:
    """The seeded deal of spec/rules.md (SplitMix64 + Fisher–Yates) for round 1 of `seed`."""

    seed: int
    players: int | None = None  # a deal for another player count than the game's (M2)


@dataclass(frozen=True)
class Arranged:
    """Some cards placed by hand, the rest shuffled by `seed`.

    cells: "SEAT:CELL" -> value symbol, e.g. {"0:a1": "1", "1:a1": "1"};
    pile: the top of the set-aside pile, e.g. "35" (the rest of the pile follows).
    """

    cells: dict[str, str] = field(default_factory=dict)
    pile: str = ""
    seed: int = 0


@dataclass(frozen=True)
class Mirrored:
    """Every seat dealt the same 16 cards (shuffled by `seed`); the rest is the pile."""

    seed: int = 0


@dataclass(frozen=True)
class Explicit:
    """A deal written out in full (for deals the rules refuse)."""

    grids: tuple[str, ...]
    pile: str


@dataclass(frozen=True)
class Broken:
    """The seeded deal of `seed` broken on purpose: "extra-1" (a pile card 2 becomes a 1),
    "short-pile" (the pile's last card dropped), "drop-grid" (the last grid dropped); suite
    v2 adds "extra-grid" (grid 0 dealt twice more), "hole" (the last grid's d4 a hole),
    "short-grid" (the last grid's last row three cells) and "long-pile" (a 1 added to the
    pile)."""

    seed: int
    how: str


@dataclass(frozen=True)
class Twins:
    """The seats in `seats` dealt the same 16 cards, the other seats and the pile shuffled
    by `seed` (suite v2: shared places when not every seat shares)."""

    seats: tuple[int, ...]
    seed: int = 0


Deal = Seeded | Arranged | Mirrored | Explicit | Broken | Twins


# -- unit cases -------------------------------------------------------------------------
@dataclass(frozen=True)
class ScoreCase:
    id: str
    grid: str
    title: str
    rules: tuple[str, ...] = ("S1", "S2")


@dataclass(frozen=True)
class ScoreBlock:
    """`count` random grids over `alphabet` (values as symbols), IDs from `first`."""

    first: int
    count: int
    alphabet: str
    seed: int
    title: str


SCORE: list[ScoreCase | ScoreBlock] = [
    ScoreCase("score-0001", "1111/2222/3333/4444", "every row of four equal cards cancels"),
    ScoreCase("score-0002", "1234/5678/9T12/3456", "no two equal cards touch: nothing cancels"),
    ScoreCase(
        "score-0003", "1212/2121/1212/2121", "a checkerboard: equal cards touch only by corners"
    ),
    ScoreCase(
        "score-0004",
        "9993/4461/TT27/11TT",
        "the worked example of source 001 (Léa: 19 points, 5 cards)",
    ),
    ScoreCase("score-0005", "5512/3467/89T1/2346", "one horizontal pair at a1-b1"),
    ScoreCase("score-0006", "5123/5467/89T1/2346", "one vertical pair at a1-a2"),
    ScoreCase(
        "score-0007", "5123/4567/89T1/2346", "a pair only by a corner (a1, b2) does not cancel"
    ),
    ScoreCase(
        "score-0008",
        "7771/2347/5687/9T27",
        "a group of three in a row all cancels, not just a pair",
    ),
    ScoreCase("score-0009", "7123/7456/7789/1234", "an L-shaped group of four cancels whole"),
    ScoreCase("score-0010", "TTTT/TTTT/TTTT/TTTT", "sixteen tens: one group, score 0"),
    ScoreCase(
        "score-0011", "T9T9/9T9T/T9T9/9T9T", "a checkerboard of 9 and T: score 152, 16 cards"
    ),
    ScoreCase("score-0012", "1234/1234/1234/1234", "four vertical columns of equal cards"),
    ScoreCase("score-0013", "3333/3113/3113/3333", "a ring around a square: two groups"),
    ScoreCase("score-0014", "1231/2312/3123/1231", "diagonal stripes never cancel"),
    ScoreCase(
        "score-0015", "6226/2662/2662/6226", "pairs at the centre and the edges, corners apart"
    ),
    ScoreCase("score-0016", "8T88/T8T8/88T8/T8T8", "a snake-shaped group winding through the grid"),
    ScoreCase("score-0017", "TT12/3456/789T/123T", "tens at opposite corners: two pairs"),
    ScoreCase("score-0018", "5234/1678/9T23/4555", "a corner group of four at the bottom right"),
    ScoreCase("score-0019", "1234/5556/7891/2345", "a T-shaped group"),
    ScoreCase("score-0020", "4444/4334/4334/4444", "a frame of twelve 4s around a square of 3s"),
    ScoreCase("score-0021", "1T1T/1T1T/1T1T/1T1T", "vertical stripes: each column one group"),
    ScoreCase("score-0022", "9999/9999/9999/9998", "fifteen 9s and one 8: the 8 alone stays"),
    ScoreCase("score-0023", "1111/1111/1111/111T", "fifteen 1s and a ten: ten points, one card"),
    ScoreCase("score-0024", "2345/6789/T234/5678", "a permutation with no equal neighbours"),
    ScoreCase("score-0025", "5T5T/T5T5/5T5T/T5T5", "the highest checkerboard: score 120, 16 cards"),
    ScoreBlock(101, 120, "12", 1, "random grid over two values"),
    ScoreBlock(221, 80, "123", 2, "random grid over three values"),
    ScoreBlock(301, 60, "19T", 3, "random grid over 1, 9 and ten"),
    ScoreBlock(361, 60, "123456789T", 4, "random grid over all ten values"),
]


@dataclass(frozen=True)
class PushCase:
    """A push into `grid`; `refused` is the rule the reference must name, if any."""

    id: str
    grid: str
    push: str
    card: str
    variant: str
    title: str
    refused: str | None = None


@dataclass(frozen=True)
class PushBlock:
    """Every legal push for every hole position (16) of `variant`, IDs from `first`.

    The grid around each hole is random over `alphabet` (seeded), the card too."""

    first: int
    variant: str
    alphabet: str
    seed: int


@dataclass(frozen=True)
class ForbiddenPushBlock:
    """For every hole position, every push the variant forbids into that hole, IDs from
    `first` under the prefix `prefix` (e.g. "P1-neg")."""

    prefix: str
    first: int
    variant: str
    seed: int


PUSH: list[PushCase | PushBlock | ForbiddenPushBlock] = [
    PushCase("push-0001", "5T32/1.44/9999/TT11", "L", "7", "slide", "the example of the CLI help"),
    PushCase(
        "push-0002",
        ".234/5678/9T12/3456",
        "R",
        "T",
        "slide",
        "corner hole a1 from the right: row 1 shifts left",
    ),
    PushCase(
        "push-0003",
        ".234/5678/9T12/3456",
        "B",
        "T",
        "slide",
        "corner hole a1 from the bottom: column a shifts up",
    ),
    PushCase("push-0004", "1234/5678/9T12/345.", "L", "1", "slide", "corner hole d4 from the left"),
    PushCase("push-0005", "1234/5678/9T12/345.", "T", "1", "slide", "corner hole d4 from the top"),
    PushCase(
        "push-0006",
        "1234/5678/9T12/345.",
        "L1",
        "9",
        "eject",
        "eject along full row 1: d1 drops into the hole",
    ),
    PushCase(
        "push-0007",
        "1234/5678/9T12/345.",
        "B1",
        "9",
        "eject",
        "eject up full column a: a1 drops into the hole",
    ),
    PushCase(
        "push-0008",
        "1.34/5678/9T12/3456",
        "T3",
        "2",
        "eject",
        "eject down column c: c4 drops into the hole at b1",
    ),
    PushCase(
        "push-0009",
        "1.34/5678/9T12/3456",
        "R1",
        "2",
        "eject",
        "eject along the hole's own row behaves as a slide",
    ),
    PushCase(
        "push-0010",
        "1.34/5678/9T12/3456",
        "T",
        "2",
        "slide",
        "edge hole b1 from the top would drop straight in",
        refused="P1",
    ),
    PushCase(
        "push-0011",
        "1.34/5678/9T12/3456",
        "T2",
        "2",
        "eject",
        "eject straight into the hole is forbidden too",
        refused="P2",
    ),
    PushCase(
        "push-0012",
        "1.34/5678/9T12/3456",
        "L2",
        "2",
        "slide",
        "slide pushes only the hole's row or column",
        refused="P1",
    ),
    PushCase(
        "push-0013",
        "1.34/5678/9T12/3456",
        "L",
        "2",
        "eject",
        "an eject push must name its line",
        refused="P2",
    ),
    PushCase(
        "push-0014",
        "1234/5678/9T12/3456",
        "L",
        "2",
        "slide",
        "a grid without a hole takes no push",
        refused="T4",
    ),
    PushCase(
        "push-0015",
        "1.34/5678/9T12/3456",
        "L1",
        "2",
        "slide",
        "slide with the hole's own line named is the same push as L",
    ),
    PushBlock(101, "slide", "123456789T", 11),
    PushBlock(201, "eject", "123456789T", 12),
    ForbiddenPushBlock("P1-neg", 101, "slide", 13),
    ForbiddenPushBlock("P2-neg", 101, "eject", 14),
]

PUSHES_VARIANTS = (("pushes-0001", "slide"), ("pushes-0017", "eject"))
"""Legal pushes for each of the 16 hole positions, per variant, IDs from the given one."""


# -- set-up and scripted games --------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    """A scripted game. `refuse_setup`: the rule new_game must be refused with."""

    id: str
    title: str
    rules: tuple[str, ...]
    players: int = 2
    push: str = "slide"
    first: str = "lowest"
    threshold: int | str | None = None
    """A number; or "exact" / "exact+1": the highest round-1 score, or one more (the
    generator plays the round once to learn it): the exact-hit trap of S4."""
    deal: Deal = Seeded(1)
    first_player: int | None = None
    script: tuple[str, ...] = ()
    seed: int = 0  # the policy's seed for "play" items
    legal: bool = False  # record the legal actions after every step
    refuse_setup: str | None = None
    level: str = "must"
    expect_start: int | None = None  # the source's own claim: the first player after the script
    # Suite v2 additions (defaults leave every v1 case as it was):
    later_deals: tuple[Deal, ...] = ()  # the deals of script items "deal @K"
    expect_places: tuple[int, ...] | None = None  # the source's claim: the final places
    rules_extra: tuple[tuple[str, object], ...] = ()  # set-up rules fields overridden as written
    omit_first_player: bool = False  # send new_game without the first_player field


def _full(players: int, seed: int) -> Seeded:
    return Seeded(seed * 10 + players)


GAMES: list[Game] = [
    # Whole single-round games, every player count and variant.
    *[
        Game(
            f"game-{1 + index:04d}",
            f"a whole {players}-player game, {push} pushes, {first} first player",
            (
                "T1",
                "T2",
                "T3",
                "T4",
                "T5",
                "P1" if push == "slide" else "P2",
                "F1" if first == "lowest" else "F3",
                "S1",
                "S2",
                "S3",
                "M1",
                "M2",
                "M3",
                "M4",
            ),
            players=players,
            push=push,
            first=first,
            deal=_full(players, 1 + index),
            first_player=None if first == "lowest" else (index % players),
            script=("play round",),
            seed=100 + index,
            legal=players <= 3,
        )
        for index, (players, push, first) in enumerate(
            (p, push, first)
            for p in (2, 3, 4, 5, 6)
            for push in ("slide", "eject")
            for first in ("lowest", "chosen")
        )
    ],
    # First player: F1, F2 ties, the pile-too-small ruling, F3.
    Game(
        "game-0101",
        "F1: the single lowest reveal takes the token (seat 2 of 3)",
        ("F1", "T2", "T3"),
        players=3,
        deal=Arranged({"0:a1": "5", "1:a1": "4", "2:a1": "2"}, seed=1),
        script=("reveal 0 a1", "reveal 1 a1", "reveal 2 a1", "play turn"),
        expect_start=2,
    ),
    Game(
        "game-0102",
        "F2: two seats tie on the lowest card; the lower draw (seat 1) starts",
        ("F1", "F2", "T2"),
        players=3,
        deal=Arranged({"0:a1": "1", "1:a1": "1", "2:a1": "3"}, pile="52", seed=2),
        script=("reveal 0 a1", "reveal 1 a1", "reveal 2 a1", "play turn"),
        expect_start=1,
    ),
    Game(
        "game-0103",
        "F2: the tied seats tie again on their draws and draw again",
        ("F2",),
        players=2,
        deal=Arranged({"0:b2": "1", "1:c3": "1"}, pile="4431", seed=3),
        script=("reveal 0 b2", "reveal 1 c3", "play turn"),
        expect_start=1,
    ),
    Game(
        "game-0104",
        "F2: three tied, two tie again, only they draw again",
        ("F2",),
        players=4,
        deal=Arranged({"0:a1": "2", "1:a1": "2", "2:a1": "9", "3:a1": "2"}, pile="363T8", seed=4),
        script=("reveal 0 a1", "reveal 1 a1", "reveal 2 a1", "reveal 3 a1", "play turn"),
        expect_start=3,
    ),
    Game(
        "game-0105",
        "F2 ruling: the pile (4 cards) cannot serve 5 tied seats: the lowest tied seat starts",
        ("F2",),
        players=6,
        deal=Arranged(
            {"0:a1": "7", "1:a1": "1", "2:a1": "1", "3:a1": "1", "4:a1": "1", "5:a1": "1"}, seed=5
        ),
        script=tuple(f"reveal {s} a1" for s in range(6)) + ("play turn",),
        expect_start=1,
    ),
    Game(
        "game-0106",
        "F2 ruling: tied twice, then the pile runs out: lowest seat still tied starts",
        ("F2",),
        players=6,
        deal=Arranged(
            {"0:a1": "3", "1:a1": "1", "2:a1": "4", "3:a1": "5", "4:a1": "6", "5:a1": "1"},
            pile="2255",
            seed=6,
        ),
        script=tuple(f"reveal {s} a1" for s in range(6)) + ("play turn",),
        expect_start=1,
    ),
    Game(
        "game-0107",
        "F2 ruling: 3 tied, 2 tie again, 1 card left for 2 seats: lower of those two starts",
        ("F2",),
        players=6,
        deal=Arranged(
            {"0:a1": "1", "1:a1": "1", "2:a1": "5", "3:a1": "1", "4:a1": "7", "5:a1": "8"},
            pile="3224",
            seed=7,
        ),
        script=tuple(f"reveal {s} a1" for s in range(6)) + ("play turn",),
        expect_start=1,
    ),
    Game(
        "game-0108",
        "F3: the chosen first player keeps the token whatever is revealed",
        ("F3", "T2", "T3", "T5"),
        players=3,
        first="chosen",
        first_player=2,
        deal=Arranged({"0:a1": "1", "1:a1": "9", "2:a1": "T"}, seed=8),
        script=("reveal 0 a1", "reveal 1 a1", "reveal 2 a1", "play turn", "play turn"),
        expect_start=2,
    ),
    Game(
        "game-0109",
        "T5: the token passes left every turn (4 players, 5 turns)",
        ("T5", "T3"),
        players=4,
        first="chosen",
        first_player=3,
        deal=Seeded(109),
        script=("play turn",) * 5,
    ),
    Game(
        "game-0110",
        "T3: a seat may take back its own revealed card; the last seat gets the last card",
        ("T3",),
        players=3,
        first="chosen",
        first_player=1,
        deal=Arranged({"0:a1": "2", "1:a1": "5", "2:a1": "8"}, seed=10),
        script=(
            "reveal 0 a1",
            "reveal 1 a1",
            "reveal 2 a1",
            "take 1 5",
            "push 1 R",
            "take 2 2",
            "push 2 B",
            "take 0 8",
            "push 0 R",
        ),
    ),
    Game(
        "game-0111",
        "T3: two equal cards in the centre are one choice",
        ("T3",),
        players=3,
        first="chosen",
        first_player=0,
        deal=Arranged({"0:d4": "6", "1:d4": "6", "2:d4": "3"}, seed=11),
        script=(
            "reveal 0 d4",
            "reveal 1 d4",
            "reveal 2 d4",
            "take 0 6",
            "push 0 L",
            "take 1 6",
            "push 1 T",
            "take 2 3",
            "push 2 T",
        ),
        legal=True,
    ),
    # Pushes inside games: corner holes, the eject full-line push.
    Game(
        "game-0201",
        "P1: corner hole a1 takes a push from the right or from below only",
        ("P1", "T4"),
        players=2,
        first="chosen",
        first_player=0,
        deal=Seeded(201),
        script=(
            "reveal 0 a1",
            "reveal 1 d4",
            "play 1",
            "!P1 push 0 L",
            "!P1 push 0 T",
            "push 0 R",
            "play 1",
            "!P1 push 1 R",
            "!P1 push 1 B",
            "push 1 T",
        ),
        seed=1,
        legal=True,
    ),
    Game(
        "game-0202",
        "P2: an eject push along a full row drops its far card into the hole",
        ("P2", "T4"),
        players=2,
        push="eject",
        first="chosen",
        first_player=1,
        deal=Seeded(202),
        script=(
            "reveal 0 a1",
            "reveal 1 c3",
            "play 1",
            "push 1 L1",
            "play 1",
            "push 0 B4",
            "play round",
        ),
        seed=2,
        legal=True,
    ),
    Game(
        "game-0203",
        "P2: eject along the hole's own line is the slide push",
        ("P2",),
        players=3,
        push="eject",
        first="chosen",
        first_player=0,
        deal=Seeded(203),
        script=(
            "reveal 0 b2",
            "reveal 1 b2",
            "reveal 2 b2",
            "play 1",
            "push 0 L2",
            "play 1",
            "push 1 T2",
            "play 1",
            "push 2 R2",
            "play turn",
        ),
        seed=3,
    ),
    Game(
        "game-0204",
        "P1: in a slide game a push naming the hole's own line is the same push",
        ("P1",),
        players=2,
        first="chosen",
        first_player=0,
        deal=Seeded(204),
        script=(
            "reveal 0 c2",
            "reveal 1 a3",
            "play 1",
            "push 0 R2",
            "play 1",
            "push 1 B1",
            "play turn",
        ),
        seed=4,
    ),
    # Scoring and winners at the end of a game.
    Game(
        "game-0301",
        "S3: identical grids played identically share the victory (2 players)",
        ("S3", "S1", "S2"),
        players=2,
        first="chosen",
        first_player=0,
        deal=Mirrored(1),
        script=("mirror round",),
        seed=31,
    ),
    Game(
        "game-0302",
        "S3: identical grids played identically share the victory (3 players)",
        ("S3",),
        players=3,
        first="chosen",
        first_player=2,
        deal=Mirrored(2),
        script=("mirror round",),
        seed=32,
    ),
    Game(
        "game-0303",
        "S3: equal scores, the fewer cards left wins",
        ("S3",),
        players=2,
        first="chosen",
        first_player=0,
        deal=Seeded(5),
        script=("play round",),
        seed=15,
    ),
    # Matches over several rounds.
    Game(
        "match-0001",
        "S4/F4/M5: a 2-player match to 100; every round dealt anew, the start rotates",
        ("S4", "F4", "M5", "T2"),
        players=2,
        threshold=100,
        deal=Seeded(401),
        script=("play match",),
        seed=401,
    ),
    Game(
        "match-0002",
        "F4: a 3-player match with a chosen first player, start rotating left",
        ("F4", "F3", "S4", "M5"),
        players=3,
        first="chosen",
        first_player=1,
        threshold=150,
        deal=Seeded(402),
        script=("play match",),
        seed=402,
    ),
    Game(
        "match-0003",
        "S4: the threshold hit exactly ends the match",
        ("S4",),
        players=2,
        first="chosen",
        first_player=0,
        threshold="exact",
        deal=Seeded(403),
        script=("play round",),
    ),
    Game(
        "match-0004",
        "S4: one point under the threshold, the match goes on",
        ("S4", "M5"),
        players=2,
        first="chosen",
        first_player=0,
        threshold="exact+1",
        deal=Seeded(403),
        script=("play round", "deal 1403", "play turn"),
    ),
    Game(
        "match-0005",
        "S4 ruling: equal lowest totals share the match victory",
        ("S4",),
        players=2,
        first="chosen",
        first_player=0,
        threshold=1,
        deal=Mirrored(5),
        script=("mirror round",),
        seed=35,
    ),
    Game(
        "match-0006",
        "S4: a 6-player eject match, F1 on round 1 only",
        ("S4", "F4", "F1", "P2"),
        players=6,
        push="eject",
        threshold=80,
        deal=Seeded(406),
        script=("play match",),
        seed=406,
    ),
]


# -- typed negative cases ---------------------------------------------------------------------
NEGATIVE: list[Game] = [
    # T1: reveal at the wrong moment, twice, a face-up card, off the grid.
    Game(
        "T1-neg-0001",
        "T1: reveal while seat 0 must take",
        ("T1", "B1"),
        players=2,
        first="chosen",
        first_player=0,
        deal=Seeded(501),
        script=("reveal 0 a1", "reveal 1 a1", "!T1 reveal 1 b1", "play turn"),
    ),
    Game(
        "T1-neg-0002",
        "T1: a seat reveals twice in one turn",
        ("T1", "B1"),
        players=3,
        deal=Seeded(502),
        script=("reveal 0 a1", "!T1 reveal 0 b1", "reveal 1 a1", "reveal 2 a1"),
    ),
    Game(
        "T1-neg-0003",
        "T1: reveal a face-up card (pushed in last turn)",
        ("T1", "B1"),
        players=2,
        first="chosen",
        first_player=0,
        deal=Arranged({"0:d1": "4", "1:a1": "7"}, seed=503),
        script=(
            "reveal 0 d1",
            "reveal 1 a1",
            "take 0 4",
            "push 0 L",
            "play 2",
            "!T1 reveal 0 a1",
            "reveal 0 d1",
            "reveal 1 b4",
        ),
    ),
    Game(
        "T1-neg-0004",
        "T1: a card pushed in from the right is face up; the cards it shifted stay face down",
        ("T1", "B1", "P1"),
        players=2,
        first="chosen",
        first_player=0,
        deal=Arranged({"0:a1": "4", "1:a1": "7"}, seed=504),
        script=(
            "reveal 0 a1",
            "reveal 1 a1",
            "take 0 4",
            "push 0 R",
            "play 2",
            "!T1 reveal 0 d1",
            "reveal 0 a1",
            "!T1 reveal 0 c1",
            "reveal 1 b2",
        ),
    ),
    Game(
        "T1-neg-0005",
        "T1: reveal while a card waits to be pushed",
        ("T1", "B1"),
        players=2,
        first="chosen",
        first_player=1,
        deal=Seeded(505),
        script=(
            "reveal 0 a1",
            "reveal 1 a1",
            "play 1",
            "!T1 reveal 0 b1",
            "!T1 reveal 1 b1",
            "play turn",
        ),
    ),
    Game(
        "T1-neg-0006",
        "T1: an eject push puts the new card face up; a moved card keeps its face",
        ("T1", "B1", "P2"),
        players=2,
        push="eject",
        first="chosen",
        first_player=0,
        deal=Arranged({"0:a1": "4", "1:a1": "7"}, seed=506),
        script=(
            "reveal 0 a1",
            "reveal 1 a1",
            "take 0 4",
            "push 0 L2",
            "play 2",
            "!T1 reveal 0 a2",
            "reveal 0 a1",
        ),
    ),
    # T3: take before all revealed, out of turn, a value not in the centre.
    Game(
        "T3-neg-0001",
        "T3: take before every seat has revealed",
        ("T3", "B1"),
        players=3,
        first="chosen",
        first_player=0,
        deal=Arranged({"0:a1": "5", "1:a1": "6", "2:a1": "7"}, seed=511),
        script=(
            "!T3 take 0 5",
            "reveal 0 a1",
            "reveal 1 a1",
            "!T3 take 0 5",
            "reveal 2 a1",
            "play turn",
        ),
    ),
    Game(
        "T3-neg-0002",
        "T3: take out of turn (the token holder takes first)",
        ("T3", "B1"),
        players=3,
        first="chosen",
        first_player=1,
        deal=Arranged({"0:a1": "4", "1:a1": "5", "2:a1": "6"}, seed=12),
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
    Game(
        "T3-neg-0003",
        "T3: take a value that is not in the centre",
        ("T3", "B1"),
        players=2,
        first="chosen",
        first_player=0,
        deal=Arranged({"0:a1": "4", "1:a1": "4"}, seed=13),
        script=(
            "reveal 0 a1",
            "reveal 1 a1",
            "!T3 take 0 5",
            "!T3 take 0 T",
            "take 0 4",
            "push 0 R",
            "!T3 take 1 7",
            "take 1 4",
        ),
    ),
    Game(
        "T3-neg-0004",
        "T3: the second equal card is gone once taken twice",
        ("T3", "B1"),
        players=3,
        first="chosen",
        first_player=0,
        deal=Arranged({"0:a1": "4", "1:a1": "4", "2:a1": "9"}, seed=14),
        script=(
            "reveal 0 a1",
            "reveal 1 a1",
            "reveal 2 a1",
            "take 0 4",
            "push 0 B",
            "take 1 4",
            "push 1 B",
            "!T3 take 2 4",
            "take 2 9",
        ),
    ),
    # T4: push with no card waiting, push by the wrong seat, take while a push is pending.
    Game(
        "T4-neg-0001",
        "T4: push when no card was taken",
        ("T4", "B1"),
        players=2,
        first="chosen",
        first_player=0,
        deal=Seeded(521),
        script=("!T4 push 0 L", "reveal 0 b2", "reveal 1 b2", "!T4 push 0 L", "play turn"),
    ),
    Game(
        "T4-neg-0002",
        "T4: the wrong seat pushes",
        ("T4", "B1"),
        players=3,
        first="chosen",
        first_player=2,
        deal=Seeded(522),
        script=(
            "reveal 0 b2",
            "reveal 1 b2",
            "reveal 2 b2",
            "play 1",
            "!T4 push 0 L",
            "!T4 push 1 L",
            "play turn",
        ),
    ),
    Game(
        "T4-neg-0003",
        "T4: take again while the taken card waits",
        ("T4", "B1"),
        players=3,
        first="chosen",
        first_player=0,
        deal=Arranged({"0:a1": "4", "1:a1": "5", "2:a1": "6"}, seed=15),
        script=(
            "reveal 0 a1",
            "reveal 1 a1",
            "reveal 2 a1",
            "take 0 5",
            "!T4 take 0 4",
            "!T4 take 1 4",
            "push 0 R",
            "take 1 4",
        ),
    ),
    # P1 / P2 inside games.
    Game(
        "P1-neg-0001",
        "P1: a slide push from the edge the hole touches",
        ("P1", "B1"),
        players=2,
        first="chosen",
        first_player=0,
        deal=Seeded(531),
        script=(
            "reveal 0 b1",
            "reveal 1 a2",
            "play 1",
            "!P1 push 0 T",
            "push 0 B",
            "play 1",
            "!P1 push 1 L",
            "!P1 push 1 L3",
            "push 1 R",
        ),
    ),
    Game(
        "P1-neg-0002",
        "P1: a slide push into another row than the hole's",
        ("P1", "B1"),
        players=2,
        first="chosen",
        first_player=1,
        deal=Seeded(532),
        script=(
            "reveal 0 c3",
            "reveal 1 c3",
            "play 1",
            "!P1 push 1 L1",
            "!P1 push 1 T2",
            "push 1 L3",
            "play turn",
        ),
    ),
    Game(
        "P2-neg-0001",
        "P2: eject straight into the hole and eject without a line",
        ("P2", "B1"),
        players=2,
        push="eject",
        first="chosen",
        first_player=0,
        deal=Seeded(541),
        script=(
            "reveal 0 a1",
            "reveal 1 d2",
            "play 1",
            "!P2 push 0 L1",
            "!P2 push 0 T1",
            "!P2 push 0 R",
            "push 0 R3",
            "play 1",
            "!P2 push 1 R2",
            "push 1 L2",
        ),
    ),
    # M4: no such seat.
    Game(
        "M4-neg-0001",
        "M4: a seat number past the last seat",
        ("M4", "B1"),
        players=3,
        first="chosen",
        first_player=0,
        deal=Seeded(551),
        script=(
            "!M4 reveal 3 a1",
            "!M4 reveal 9 a1",
            "play 3",
            "!M4 take 3 5",
            "play 1",
            "!M4 push 7 L",
        ),
    ),
    Game(
        "M4-neg-0002",
        "M4 comes before T1/T3/T4 (rule precedence)",
        ("M4", "B1"),
        players=2,
        deal=Seeded(552),
        script=("reveal 0 a1", "!M4 reveal 2 a1", "reveal 1 a1", "!M4 take 2 5", "!M4 push 5 L"),
    ),
    # T5 / S4 / M5: after the end, between rounds.
    Game(
        "T5-neg-0001",
        "T5: any action after a single-round game is over",
        ("T5", "B1"),
        players=2,
        deal=Seeded(561),
        script=(
            "play round",
            "!T5 reveal 0 a1",
            "!T5 take 0 5",
            "!T5 push 1 L",
            "!T5 reveal 7 a1",
            "!T5 deal 1561",
        ),
    ),
    Game(
        "S4-neg-0001",
        "S4: any action or deal after the match is over",
        ("S4", "B1"),
        players=2,
        threshold=1,
        deal=Seeded(562),
        script=("play round", "!S4 reveal 0 a1", "!S4 take 1 3", "!S4 deal 1562", "!S4 push 0 R"),
    ),
    Game(
        "M5-neg-0001",
        "M5: actions between rounds wait for the new deal",
        ("M5", "B1"),
        players=3,
        threshold=300,
        deal=Seeded(563),
        script=(
            "play round",
            "!M5 reveal 0 a1",
            "!M5 take 0 5",
            "!M5 push 0 L",
            "deal 1563",
            "play turn",
        ),
    ),
    Game(
        "M5-neg-0002",
        "M5: a new deal before the round is scored",
        ("M5", "B1"),
        players=2,
        threshold=100,
        deal=Seeded(564),
        script=("!M5 deal 1564", "play turn", "!M5 deal 1564", "play 3", "!M5 deal 1564"),
    ),
    # Set-up refusals: M1, M2, M3, F1, F3.
    Game(
        "M2-neg-0001",
        "M2: one player is not a game",
        ("M2",),
        players=1,
        deal=Explicit(("1234/5678/9T12/3456",), ""),
        refuse_setup="M2",
    ),
    Game(
        "M2-neg-0002",
        "M2: seven players",
        ("M2",),
        players=7,
        deal=Explicit(("1234/5678/9T12/3456",) * 7, ""),
        refuse_setup="M2",
    ),
    Game(
        "M2-neg-0003",
        "M2: the rules say 3 players, the deal has 2 grids",
        ("M2",),
        players=3,
        deal=Seeded(571, players=2),
        refuse_setup="M2",
    ),
    Game(
        "M3-neg-0001",
        "M3: a grid with a hole",
        ("M3",),
        players=2,
        deal=Explicit(("1234/5678/9T12/345.", "1234/5678/9T12/3456"), "6"),
        refuse_setup="M3",
    ),
    Game(
        "M3-neg-0002",
        "M3: a hole in the second grid",
        ("M3",),
        players=2,
        deal=Explicit(("1234/5678/9T12/3456", "1234/5678/9T12/.456"), "6"),
        refuse_setup="M3",
    ),
    Game(
        "M1-neg-0001",
        "M1: eleven 1s and nine 2s",
        ("M1",),
        players=2,
        deal=Broken(577, "extra-1"),
        refuse_setup="M1",
    ),
    Game(
        "M1-neg-0002",
        "M1: a pile one card short",
        ("M1",),
        players=2,
        deal=Broken(578, "short-pile"),
        refuse_setup="M1",
    ),
    Game(
        "M1-neg-0003",
        "M1: a new round dealt without the 100 cards",
        ("M1", "B1"),
        players=2,
        threshold=300,
        deal=Seeded(572),
        script=("play round", "!M1 deal 1572 extra-1", "deal 1572"),
    ),
    Game(
        "M2-neg-0004",
        "M2: a new round dealt for the wrong number of players",
        ("M2", "B1"),
        players=2,
        threshold=300,
        deal=Seeded(573),
        script=("play round", "!M2 deal 1573 drop-grid", "deal 1573"),
    ),
    Game(
        "F3-neg-0001",
        "F3: the chosen variant without a first player",
        ("F3",),
        players=2,
        first="chosen",
        deal=Seeded(574),
        refuse_setup="F3",
    ),
    Game(
        "F3-neg-0002",
        "F3: the chosen first player is not a seat",
        ("F3",),
        players=3,
        first="chosen",
        first_player=3,
        deal=Seeded(575),
        refuse_setup="F3",
    ),
    Game(
        "F1-neg-0001",
        "F1: a first player given with the lowest-card rule",
        ("F1",),
        players=2,
        first_player=0,
        deal=Seeded(576),
        refuse_setup="F1",
    ),
    # Notation that does not parse is refused as notation, not as a rule (level should).
    Game(
        "B1-neg-0001",
        "B1: unparsable actions are notation refusals that change nothing",
        ("B1",),
        players=2,
        deal=Seeded(581),
        script=(
            "!notation jump 0 a1",
            "!notation take 0 0",
            "!notation reveal x a1",
            "!notation reveal 0 e1",
            "!notation reveal 1 a5",
            "reveal 0 a1",
            "!notation push 0 X",
            "reveal 1 a1",
        ),
        level="should",
    ),
    Game(
        "B1-neg-0002",
        "B1: a deal grid of 15 cells is a notation error, not a rule",
        ("B1", "M3"),
        players=2,
        deal=Explicit(("1234/5678/9T12/345", "1234/5678/9T12/3456"), "6"),
        refuse_setup="notation",
        level="should",
    ),
]


# -- perft ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Perft:
    id: str
    title: str
    game: Game
    depth: int


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
