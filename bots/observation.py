"""What a seat may know: the public view of a position, and nothing else (rules M3, T1).

Nobody may look at a face-down card, not even its owner (M3), and a pick stays secret until
every seat has picked (T1). So every seat knows exactly the same thing: the face-up cards,
the centre, the card in hand, the removed cards, the pile's size, the totals, whose move it
is and which seats have picked (not where). That is the *public view* of spec/notation.md
("Positions", "Reading a public view"), and an Observation is that view as a value:

    slide/lowest/single 1.1 push@0:1 0 ??.?/????/????/????|.???/????/????/???? -,- 3 #68 - 0,0

A bot decides from an Observation alone, so what it decides cannot depend on a hidden value.
The unseen cards are the 100-card deck (M1) less every visible card; the face-down cells and
the pile are a uniformly random split of them (dekal.bots.sampler draws such splits).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from dekal.position import from_reference
from dekal.state import FastState
from dekal.tables import LEGAL
from dekal_ref.actions import Action, PushMove, Reveal, Take
from dekal_ref.deal import DECK, check_players
from dekal_ref.errors import IllegalAction, NotationError
from dekal_ref.notation import HOLE, parse_value, value_symbol
from dekal_ref.position import (
    POSITION_FIELDS,
    parse_position,
    position_line,
    read_shared_fields,
    seat_grids,
)
from dekal_ref.reading import SEAT_MAX, read_number, shown
from dekal_ref.state import GameState, Phase, Rules

FACE_DOWN = None
"""A face-down cell of an Observation: its value is unknown to every seat (M3)."""

Cell = int | None
"""One cell as a seat sees it: a face-up value 1–10, HOLE (0), or FACE_DOWN (None)."""

TAKING = (Phase.TAKE, Phase.PUSH)


@dataclass(frozen=True)
class Observation:
    """The public view of a position (spec/notation.md): what every seat may know.

    `grids[s][i]` is seat s's cell i (a1 = 0 … d4 = 15): a face-up value, HOLE or FACE_DOWN.
    `picked[s]` says whether seat s has made its secret pick this turn (T1), never where.
    `hand` is the value waiting to be pushed (phase push@S:V), `pile` the pile's size.
    """

    rules: Rules
    round: int
    turn: int
    phase: Phase
    start: int | None
    grids: tuple[tuple[Cell, ...], ...]
    picked: tuple[bool, ...]
    centre: tuple[int, ...]
    hand: int | None
    pile: int
    removed: tuple[int, ...]
    totals: tuple[int, ...]

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def token(self) -> int | None:
        """T5: the token passes left once per turn, from the round's starting seat."""
        return None if self.start is None else (self.start + self.turn - 1) % self.players

    @property
    def to_act(self) -> int | None:
        """The seat that must take (TAKE) or push (PUSH) next (T3, T4); None in other phases."""
        if self.start is None or self.phase not in TAKING:
            return None
        taken = self.players - len(self.centre) - (self.phase is Phase.PUSH)
        return (self.start + self.turn - 1 + taken) % self.players

    def face_down_cells(self, seat: int) -> list[int]:
        return [cell for cell, value in enumerate(self.grids[seat]) if value is FACE_DOWN]

    @cached_property
    def words(self) -> tuple[tuple[int, int], ...]:
        """Per seat (visible grid word, face-down mask): the packed form of dekal.bits, with
        face-down cells written as empty (0) since their values are unknown."""
        packed = []
        for cells in self.grids:
            word = sum((value or 0) << (4 * cell) for cell, value in enumerate(cells))
            down = sum(1 << cell for cell, value in enumerate(cells) if value is FACE_DOWN)
            packed.append((word, down))
        return tuple(packed)

    def __str__(self) -> str:
        return format_public_view(self)


class _ViewFields(NamedTuple):
    """An Observation seen through dekal_ref.position.PositionFields, so that the one
    definition of the position line (position_line) writes the public view too."""

    rules: Rules
    round: int
    turn: int
    phase: Phase
    start: int | None
    to_act: int | None
    hand: int | None
    picks: tuple[int | None, ...]  # any cell for a made pick: public=True writes '?'
    centre: tuple[int, ...]
    pile: tuple[int, ...]  # only its length is written (public=True)
    removed: tuple[int, ...]
    totals: tuple[int, ...]


def _grid_text(cells: tuple[Cell, ...]) -> str:
    symbols = ["?" if value is FACE_DOWN else value_symbol(value) for value in cells]
    return "/".join("".join(symbols[row : row + 4]) for row in range(0, 16, 4))


def format_public_view(obs: Observation) -> str:
    """The public view line (spec/notation.md, "Positions"): `read_public_view` reads it back."""
    fields = _ViewFields(
        obs.rules, obs.round, obs.turn, obs.phase, obs.start, obs.to_act, obs.hand,
        tuple(0 if made else None for made in obs.picked), obs.centre, (0,) * obs.pile,
        obs.removed, obs.totals,
    )  # fmt: skip
    return position_line(fields, [_grid_text(cells) for cells in obs.grids], public=True)


def observation_of(state: GameState | FastState) -> Observation:
    """The public view of a full position: every hidden value dropped (M3, T1)."""
    fast = state if isinstance(state, FastState) else from_reference(state)
    grids = tuple(
        tuple(FACE_DOWN if down >> cell & 1 else (word >> (4 * cell)) & 0xF for cell in range(16))
        for word, down in zip(fast.grids, fast.down, strict=True)
    )
    return Observation(
        rules=fast.rules,
        round=fast.round,
        turn=fast.turn,
        phase=fast.phase,
        start=fast.start,
        grids=grids,
        picked=tuple(pick is not None for pick in fast.picks),
        centre=fast.centre,
        hand=fast.hand,
        pile=len(fast.pile),
        removed=fast.removed,
        totals=fast.totals,
    )


def _read_cells(text: str, seat: int) -> tuple[Cell, ...]:
    rows = text.split("/")
    if len(rows) != 4 or any(len(row) != 4 for row in rows):
        raise NotationError(
            "grids", f"seat {seat}'s grid {shown(text)} must be 4 rows of 4 cells joined by '/'"
        )
    cells: list[Cell] = []
    for symbol in "".join(rows):
        if symbol == "?":
            cells.append(FACE_DOWN)
        elif symbol == ".":
            cells.append(HOLE)
        elif symbol in "abcdefghij":
            raise NotationError(
                "grids", f"seat {seat}: a public view writes a face-down card as '?', not its value"
            )
        else:
            cells.append(parse_value(symbol, "grids"))
    return tuple(cells)


def _view_fields(text: str) -> list[str]:
    fields = text.split(None, len(POSITION_FIELDS))
    if len(fields) != len(POSITION_FIELDS):
        raise NotationError(
            "view",
            f"a public view has {len(POSITION_FIELDS)} fields ({' '.join(POSITION_FIELDS)}),"
            f" not {len(fields) if len(fields) <= len(POSITION_FIELDS) else 'more'}",
        )
    return fields


def _read_view(text: str) -> Observation:
    fields = _view_fields(text)
    grids = tuple(
        _read_cells(cells, seat) for seat, cells in enumerate(seat_grids(fields[4], "a view"))
    )
    shared = read_shared_fields(fields, len(grids))
    picks_f, pile_f = fields[5], fields[7]
    picks = picks_f.split(",", SEAT_MAX + 1)
    if len(picks) != len(grids) or any(pick not in ("?", "-") for pick in picks):
        raise NotationError(
            "picks", f"one '?' (picked) or '-' (not yet) per seat: {len(grids)} expected"
        )
    if pile_f == "-":
        pile = 0
    elif pile_f.startswith("#"):
        pile = read_number(pile_f[1:], "pile", most=len(DECK), least=1)
    else:
        raise NotationError("pile", f"{shown(pile_f)}: a public view writes the pile as #N or -")
    return Observation(
        rules=shared.rules,
        round=shared.round,
        turn=shared.turn,
        phase=shared.phase,
        start=shared.start,
        grids=grids,
        picked=tuple(pick == "?" for pick in picks),
        centre=shared.centre,
        hand=shared.hand,
        pile=pile,
        removed=shared.removed,
        totals=shared.totals,
    )


def visible_cards(obs: Observation) -> Counter[int]:
    """Every card whose value every seat can see: face-up cells, centre, hand, removed."""
    seen = Counter(value for cells in obs.grids for value in cells if value)
    seen.update(obs.centre)
    seen.update(obs.removed)
    if obs.hand is not None:
        seen[obs.hand] += 1
    return seen


def unseen_cards(obs: Observation) -> Counter[int]:
    """The 100-card deck (M1) less every visible card: what the face-down cells and the pile
    hold between them, in some order no seat knows (M3)."""
    return Counter(DECK) - visible_cards(obs)


def check_view(obs: Observation) -> None:
    """M2, M1, T1: a view that no deal of the 100 cards can show is refused, naming the rule."""
    check_players(obs.players)
    seen = visible_cards(obs)
    for value, count in sorted(seen.items()):
        if count > 10:
            raise IllegalAction(
                "M1", f"the view shows {count} cards of value {value}; the deck has ten of each"
            )
    hidden = sum(len(obs.face_down_cells(seat)) for seat in range(obs.players))
    count = sum(seen.values()) + hidden + obs.pile
    if count != len(DECK):
        raise IllegalAction(
            "M1",
            f"the view holds {count} cards ({sum(seen.values())} visible, {hidden} face down,"
            f" {obs.pile} in the pile); the deck has {len(DECK)}",
        )
    for seat, made in enumerate(obs.picked):
        if made and not obs.face_down_cells(seat):
            raise IllegalAction("T1", f"seat {seat} has picked but has no face-down card")


def read_public_view(text: str) -> Observation:
    """Read a public view line; a full position is read too, and hidden first.

    NotationError naming the field if the text is not the notation, or not canonical (it
    must be exactly what format_public_view writes); IllegalAction naming the rule (M1, M2,
    T1) if no deal of the 100 cards could show this view.
    """
    stripped = text.strip()
    _view_fields(stripped)
    if "?" in stripped or "#" in stripped:
        obs = _read_view(stripped)
        canonical = format_public_view(obs)
        if canonical != stripped:
            raise NotationError(
                "view",
                f"{shown(stripped)} is not in canonical form (it reads as {shown(canonical, 400)})",
            )
    else:
        obs = observation_of(parse_position(stripped))
    check_view(obs)
    return obs


def legal_actions(obs: Observation, seat: int) -> list[Action]:
    """The seat's legal actions, in the reference's order (dekal_ref.actions.legal_actions
    restricted to the seat): they depend on the public view only.

    REVEAL: the seat's face-down cells in cell order, if it has not picked yet (T1).
    TAKE: each distinct centre value, ascending, if the seat is to take (T3).
    PUSH: the legal pushes into the seat's hole, in notation order, if it is to push (T4).

    ValueError (field "seat") for a seat not at the table (M4): an empty list would read as
    "nothing to decide".
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < obs.players:
        raise ValueError(f"seat: 0 to {obs.players - 1} at this table (M4), not {repr(seat)[:40]}")
    if obs.phase is Phase.REVEAL:
        return [] if obs.picked[seat] else [Reveal(seat, c) for c in obs.face_down_cells(seat)]
    if obs.to_act != seat:
        return []
    if obs.phase is Phase.TAKE:
        return [Take(seat, value) for value in sorted(set(obs.centre))]
    hole = obs.grids[seat].index(HOLE)
    return [PushMove(seat, push) for push, _ in LEGAL[obs.rules.push][hole]]
