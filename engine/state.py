"""The optimized engine's game state: an immutable, hashable tuple of small ints (rules T1–T5, S4).

Each seat's grid is one 64-bit *grid word* (dekal.bits: cell i is the nibble at bits 4i..4i+3,
hole = 0) and its face-down cards a 16-bit mask (bit i: cell i is face down). Everything else
is a tuple of ints, so a state is its own cheap hash key: equal positions are equal tuples.
The fields mean exactly what dekal_ref.state.GameState's fields mean, and the derived facts
(token, taken, to_act) are computed the same way.
"""

from __future__ import annotations

from typing import NamedTuple

from dekal.bits import unpack
from dekal_ref.state import Card, GameState, Phase, Rules

TURNS_PER_ROUND = 16  # T5: 16 turns reveal every original card
TAKING = (Phase.TAKE, Phase.PUSH)


class FastState(NamedTuple):
    rules: Rules
    round: int
    turn: int
    phase: Phase
    start: int | None  # the seat holding the token on turn 1 of this round (None: not yet known)
    grids: tuple[int, ...]  # one grid word per seat
    down: tuple[int, ...]  # one 16-bit face-down mask per seat
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
        return (self.start + self.turn - 1) % self.rules.players

    @property
    def taken(self) -> int:
        """How many seats have taken a card this turn (T3): every centre card that is gone."""
        if self.phase not in TAKING:
            return 0
        return self.rules.players - len(self.centre)

    @property
    def to_act(self) -> int | None:
        """The seat that must take (TAKE) or push (PUSH) next; None in other phases."""
        if self.start is None or self.phase not in TAKING:
            return None
        players = self.rules.players
        # seats that took: players - len(centre); in PUSH the last of them still has to push
        offset = players - len(self.centre) - (self.phase is Phase.PUSH)
        return (self.start + self.turn - 1 + offset) % players

    def values(self, seat: int) -> tuple[int, ...]:
        """The seat's grid as sixteen values (hole = 0), face-down cards included."""
        return unpack(self.grids[seat])

    def face_down_cells(self, seat: int) -> list[int]:
        mask = self.down[seat]
        return [cell for cell in range(16) if mask >> cell & 1]

    def card_count(self) -> int:
        """Cards anywhere in this round: grids, centre, hand, pile and removed (M1: always 100)."""
        in_grids = sum(16 - self.values(seat).count(0) for seat in range(self.rules.players))
        in_hand = self.hand is not None
        return in_grids + len(self.centre) + in_hand + len(self.pile) + len(self.removed)

    def reference(self) -> GameState:
        """The reference form of this state (the same position; dekal.position.to_reference)."""
        grids = tuple(
            tuple(
                None if value == 0 else Card(value, face_down=bool(mask >> cell & 1))
                for cell, value in enumerate(unpack(word))
            )
            for word, mask in zip(self.grids, self.down, strict=True)
        )
        return GameState(
            rules=self.rules, round=self.round, turn=self.turn, phase=self.phase, start=self.start,
            grids=grids, picks=self.picks, centre=self.centre, hand=self.hand, pile=self.pile,
            removed=self.removed, totals=self.totals,
        )  # fmt: skip

    def _repr_svg_(self) -> str:
        """The full position as SVG, for notebooks: drawn from the reference form of the state."""
        return self.reference()._repr_svg_()
