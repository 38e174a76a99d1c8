"""What a game of Dékal is at one moment: an immutable state (rules T1–T5, S4).

A move never changes a state: `dekal_ref.game` returns a new one. Derived facts (whose
token it is, who acts next) are properties, computed from the stored fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from dekal_ref.errors import NotationError, RuleArgument
from dekal_ref.notation import HOLE, Grid
from dekal_ref.reading import shown

TURNS_PER_ROUND = 16  # T5: 16 turns reveal every original card
DEFAULT_THRESHOLD = 100  # S4


class Phase(StrEnum):
    """Where a turn stands. REVEAL (T1) → TAKE (T3) ⇄ PUSH (T4) → … → NEXT_ROUND or OVER."""

    REVEAL = "reveal"
    TAKE = "take"
    PUSH = "push"
    NEXT_ROUND = "next"  # a match round is scored; the next round needs a deal (M5)
    OVER = "over"  # the game (single round) or the match (S4) has ended


@dataclass(frozen=True)
class Rules:
    """The variant choices of one game (spec/rules.md, "Variants").

    push: "slide" (P1, default) or "eject" (P2).
    first: "lowest" (F1–F2, default) or "chosen" (F3).
    threshold: None for a single round; a number for a match played to it (S4).
    """

    players: int
    push: str = "slide"
    first: str = "lowest"
    threshold: int | None = None

    def __post_init__(self) -> None:
        players = self.players
        if not _whole(players) or not 2 <= players <= 6:
            raise RuleArgument(
                "M2", "players", f"Dékal is played by 2 to 6 players, not {_quoted(players)}"
            )
        if self.push not in ("slide", "eject"):
            raise NotationError(
                "variant", f"{_quoted(self.push)} is not a push variant: slide or eject"
            )
        if self.first not in ("lowest", "chosen"):
            raise NotationError(
                "first", f"{_quoted(self.first)} is not a first-player rule: lowest or chosen"
            )
        if self.threshold is not None and (not _whole(self.threshold) or self.threshold < 1):
            raise NotationError(
                "threshold",
                f"a match threshold is a positive whole number, not {_quoted(self.threshold)}",
            )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _quoted(value: object) -> str:
    """A value as an error message quotes it: at most about 40 characters, whatever it is."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of {value.bit_length()} bits"
    return shown(value) if isinstance(value, str) else shown(repr(value))[1:-1]


@dataclass(frozen=True)
class Card:
    """A card in a grid. Nobody may look at a face-down card (M3), yet the state knows it."""

    value: int
    face_down: bool


Cells = tuple[Card | None, ...]
"""One seat's grid: sixteen cells in reading order, None for the hole."""


@dataclass(frozen=True)
class GameState:
    rules: Rules
    round: int
    turn: int
    phase: Phase
    start: int | None  # the seat holding the token on turn 1 of this round (None: not yet known)
    grids: tuple[Cells, ...]
    picks: tuple[int | None, ...]  # each seat's secret reveal this turn (T1), None until made
    centre: tuple[int, ...]  # face-up cards in the centre, ascending (T1, T3)
    hand: int | None  # the card just taken, waiting for its push (T4)
    pile: tuple[int, ...]  # the set-aside pile, top first (M3, F2)
    removed: tuple[int, ...]  # cards drawn to break a first-player tie; they left play (F2)
    totals: tuple[int, ...]  # match totals after the rounds already scored (S4)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def token(self) -> int | None:
        """T5: the token passes left once per turn, from the round's starting seat."""
        if self.start is None:
            return None
        return (self.start + self.turn - 1) % self.players

    @property
    def taken(self) -> int:
        """How many seats have taken a card this turn (T3)."""
        if self.phase not in (Phase.TAKE, Phase.PUSH):
            return 0
        return self.players - len(self.centre)

    @property
    def to_act(self) -> int | None:
        """The seat that must take (TAKE) or push (PUSH) next; None in other phases."""
        token = self.token
        if token is None or self.phase not in (Phase.TAKE, Phase.PUSH):
            return None
        offset = self.taken if self.phase is Phase.TAKE else self.taken - 1
        return (token + offset) % self.players

    def values(self, seat: int) -> Grid:
        """The seat's grid as values (hole = 0), face-down cards included."""
        return tuple(HOLE if card is None else card.value for card in self.grids[seat])

    def face_down_cells(self, seat: int) -> list[int]:
        return [
            cell
            for cell, card in enumerate(self.grids[seat])
            if card is not None and card.face_down
        ]

    def card_count(self) -> int:
        """Cards anywhere in this round: grids, centre, hand, pile and removed (M1: always 100)."""
        in_grids = sum(card is not None for grid in self.grids for card in grid)
        return (
            in_grids
            + len(self.centre)
            + (self.hand is not None)
            + len(self.pile)
            + len(self.removed)
        )

    _repr_svg_: ClassVar[Callable[[GameState], str]]
    """The full position as SVG, for notebooks: dekal_ref.svg.position_svg, which sets it here
    when it is imported (dekal_ref/__init__.py imports it), so that the picture depends on
    the state and never the reverse (no import circle: tests/house/test_import_graph.py)."""
