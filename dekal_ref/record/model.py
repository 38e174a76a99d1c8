"""The game record model: what a record holds (spec/notation.md, "Game records").

A record holds what happened and nothing that can be derived, except the result, which is
written down so that a reader sees it and a replay can check it:

* tags: format version, seats, variants (push P1/P2, first player F1–F4 and the chosen seat,
  threshold S4), the seed if the deals came from one (M3), and an optional event and date;
* per round: the explicit deal (every grid, the set-aside pile; M3, M5) and the actions in the
  order they were played (reveals T1, takes T3, pushes T4), shown one turn per line;
* the result: each scored round's points and cards left (S2) (and the running totals in a
  match, S4), and the final places (S3, S4) once the game or match is over.

Building a record checks only its shape (NotationError); the rules are checked by a replay
(dekal_ref.record.playback).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dekal_ref.actions import Action, NewRound, PushMove, Reveal, Take
from dekal_ref.deal import Deal
from dekal_ref.errors import NotationError
from dekal_ref.notation import value_symbol
from dekal_ref.state import Rules

FORMAT = "dekal-record/1"
"""The format and its version, as written in the `Format` tag and the JSON `format` field."""

Move = Reveal | Take | PushMove
"""An action inside a round. A new round is not a move: it is a new round block."""


@dataclass(frozen=True)
class SeatScore:
    """One seat's result in one round: points (S2) and cards left (S2)."""

    points: int
    remaining: int


@dataclass(frozen=True)
class RoundRecord:
    """One round: its deal (M3, M5), its moves in playing order, and its result if scored."""

    deal: Deal
    moves: tuple[Move, ...] = ()
    scores: tuple[SeatScore, ...] | None = None  # per seat, once the round is scored
    totals: tuple[int, ...] | None = None  # match totals after this round (S4); None if single

    def __post_init__(self) -> None:
        for seat, grid in enumerate(self.deal.grids):
            if len(grid) != 16 or any(not 1 <= value <= 10 for value in grid):
                raise NotationError("deal", f"seat {seat}'s grid must be 16 card values 1–10")
        if any(not 1 <= value <= 10 for value in self.deal.pile):
            raise NotationError("deal", "the set-aside pile holds card values 1–10 only")


@dataclass(frozen=True)
class GameRecord:
    """A game (one round) or a match (several rounds), as played.

    `first_player` is the seat given the token at set-up (variant "chosen", F3), else None.
    `places` is each seat's final place (1 = winner, shared places as in sport), written
    once the game or match is over; None while it is not.
    """

    rules: Rules
    rounds: tuple[RoundRecord, ...]
    first_player: int | None = None
    seed: int | None = None
    event: str | None = None
    date: str | None = None
    places: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not self.rounds:
            raise NotationError("rounds", "a record holds at least one round (its deal)")
        if self.seed is not None and self.seed < 0:
            raise NotationError("Seed", f"a seed is a number ≥ 0, not {self.seed}")
        players = self.rules.players
        for number, played in enumerate(self.rounds, start=1):
            for name, values in (("scores", played.scores), ("totals", played.totals)):
                if values is not None and len(values) != players:
                    raise NotationError(
                        name, f"round {number}: one entry per seat, {players} expected"
                    )
        if self.places is not None and len(self.places) != players:
            raise NotationError("places", f"one place per seat, {players} expected")
        for name, text in (("Event", self.event), ("Date", self.date)):
            if text is not None and not text.isprintable():
                raise NotationError(name, f"{text!r}: write one line of printable text")

    def steps(self) -> list[Action]:
        """Every step of the record in playing order: each round after the first begins with
        the NewRound that deals it (M5)."""
        steps: list[Action] = []
        for number, played in enumerate(self.rounds, start=1):
            if number > 1:
                steps.append(NewRound(played.deal))
            steps.extend(played.moves)
        return steps


def turn_groups(moves: Sequence[Move]) -> list[list[Move]]:
    """The moves cut into turns, one per line: a turn starts at a reveal that follows a move
    that is not a reveal (T1 starts every turn). Purely written form: no rule is checked."""
    groups: list[list[Move]] = []
    for move in moves:
        starts_turn = isinstance(move, Reveal) and (
            not groups or not isinstance(groups[-1][-1], Reveal)
        )
        if starts_turn or not groups:
            groups.append([])
        groups[-1].append(move)
    return groups


def format_cards(values: Sequence[int]) -> str:
    """The written form of a pile: its card symbols in order, '-' when it is empty."""
    return "".join(value_symbol(v) for v in values) or "-"
