"""The shapes case sources are written in: deals, unit cases, scripted games, perft, unit
refusals, seeded deals, games from a position and re-levelled cases. Each line of the data
files of spec/conformance/sources/ is one of them (read by dekal.conformance.cases._source_files;
the format and the script language are in spec/conformance/sources/README.md)."""

from __future__ import annotations

from dataclasses import dataclass, field


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


@dataclass(frozen=True)
class PushesBlock:
    """The legal pushes of `variant` for each of the 16 hole positions, IDs from `first`."""

    first: str
    variant: str


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
    # Suite v3 additions (defaults leave every v1 and v2 case as it was):
    setup_omit: tuple[str, ...] = ()
    """Set-up fields left out (`rules.push`, `rules.first`, `deal.pile`): a missing field."""
    setup_extra: tuple[tuple[str, object], ...] = ()
    """Set-up fields replaced as written: `first_player`, `deal`, or `deal.pile` (the deal's
    pile alone), to send values of the wrong JSON type."""


# -- perft ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Perft:
    id: str
    title: str
    game: Game
    depth: int


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


# -- seeded deals (feature seeded-deal) --------------------------------------------------------
@dataclass(frozen=True)
class SeededDeals:
    """The seeded deal of spec/rules.md for every seed, player count (2 to 6) and round."""

    seeds: tuple[int, ...]
    rounds: tuple[int, ...]


@dataclass(frozen=True)
class DealRefusal:
    """A `deal` request the reference must refuse with `refused` (a rule or an error kind)."""

    input: dict[str, object]
    title: str
    refused: str


# -- levels -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Relevel:
    """A case that a later suite asks at another level than the suite it comes from, and why."""

    id: str
    level: str
    why: str
