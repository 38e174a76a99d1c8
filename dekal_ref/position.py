"""The one-line position notation, FEN-like (spec/notation.md, "Positions").

Ten fields separated by single spaces:

    rules  round.turn  phase  start  grids  picks  centre  pile  removed  totals

    slide/lowest/single 1.1 reveal - abcd/efgh/ijab/cdef|… -,- - 1234… - 0,0

* rules: push variant / first-player rule / match threshold or `single`.
* phase: `reveal`, `take@S` (seat S takes), `push@S:V` (seat S pushes value V), `next`, `over`.
* start: the seat that held the token on turn 1 of this round, `-` while unknown.
* grids: one grid per seat joined by `|`. Face-up cards `1`–`9`, `T`; face-down cards
  `a`–`j` (a=1 … i=9, j=10); the hole `.`; in a public view a face-down card is `?`.
* picks: each seat's secret reveal this turn, a cell or `-` (public view: `?` once picked).
* centre, pile, removed: card values (`-` when empty); the pile top first (public: `#N`).
* totals: match totals, comma separated.

`format_position(parse_position(text)) == text` for every full position.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from dekal_ref.errors import NotationError
from dekal_ref.notation import (
    cell_name,
    parse_cell,
    parse_first_rule,
    parse_value,
    parse_variant,
    value_symbol,
)
from dekal_ref.reading import SEAT_MAX, read_number, shown
from dekal_ref.state import Card, Cells, GameState, Phase, Rules

POSITION_FIELDS = (
    "rules",
    "round.turn",
    "phase",
    "start",
    "grids",
    "picks",
    "centre",
    "pile",
    "removed",
    "totals",
)
"""The ten fields of a position, in order."""
HIDDEN_LETTERS = "abcdefghij"  # face-down card of value v is HIDDEN_LETTERS[v - 1]


def _cell_symbol(card: Card | None, public: bool) -> str:
    if card is None:
        return "."
    if not card.face_down:
        return value_symbol(card.value)
    return "?" if public else HIDDEN_LETTERS[card.value - 1]


def _cards(values: tuple[int, ...]) -> str:
    try:
        return _remembered_cards(values)
    except TypeError:  # cards given as a list: written out, not remembered
        return _cards_text(values)


def _cards_text(values: tuple[int, ...]) -> str:
    return "".join(value_symbol(v) for v in values) or "-"


# Remembered: a pure function of a tuple of numbers, and a game writes the same pile, centre
# and removed cards again at every position until they change.
_remembered_cards = functools.lru_cache(maxsize=1024)(_cards_text)


def format_grid_cells(cells: Cells, public: bool = False) -> str:
    try:
        return _remembered_grid(cells, public)
    except TypeError:  # cells given as a list: written out, not remembered
        return _grid_text(cells, public)


def _grid_text(cells: Cells, public: bool) -> str:
    symbols = [_cell_symbol(card, public) for card in cells]
    return "/".join("".join(symbols[r * 4 : r * 4 + 4]) for r in range(4))


# Remembered: a grid is a tuple of frozen Cards, and the seats that did not act write theirs
# again at every position.
_remembered_grid = functools.lru_cache(maxsize=4096)(_grid_text)


class PositionFields(Protocol):
    """What the position line is written from: every engine's state has these fields."""

    @property
    def rules(self) -> Rules: ...
    @property
    def round(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def start(self) -> int | None: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def hand(self) -> int | None: ...
    @property
    def picks(self) -> tuple[int | None, ...]: ...
    @property
    def centre(self) -> tuple[int, ...]: ...
    @property
    def pile(self) -> tuple[int, ...]: ...
    @property
    def removed(self) -> tuple[int, ...]: ...
    @property
    def totals(self) -> tuple[int, ...]: ...


def position_line(state: PositionFields, grids: Sequence[str], public: bool = False) -> str:
    """The ten fields joined into one line; `grids` are the seats' grids already written.

    The one place the field order and formats live, so every engine writes the same line.
    """
    rules = state.rules
    threshold = "single" if rules.threshold is None else str(rules.threshold)
    phase = state.phase.value
    if state.phase is Phase.TAKE:
        phase = f"take@{state.to_act}"
    elif state.phase is Phase.PUSH:
        phase = f"push@{state.to_act}:{value_symbol(state.hand or 0)}"
    picks = ",".join(
        "-" if pick is None else ("?" if public else cell_name(pick)) for pick in state.picks
    )
    pile = _cards(state.pile)
    if public:
        pile = f"#{len(state.pile)}" if state.pile else "-"
    fields = [
        f"{rules.push}/{rules.first}/{threshold}",
        f"{state.round}.{state.turn}",
        phase,
        "-" if state.start is None else str(state.start),
        "|".join(grids),
        picks,
        _cards(state.centre),
        pile,
        _cards(state.removed),
        ",".join(str(t) for t in state.totals),
    ]
    return " ".join(fields)


def format_position(state: GameState, public: bool = False) -> str:
    """The position as one line. public=True hides what no player may see (M3, T1)."""
    return position_line(state, [format_grid_cells(grid, public) for grid in state.grids], public)


def _parse_cards(text: str, field: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    return tuple(parse_value(symbol, field) for symbol in text)


def _parse_cells(text: str, seat: int) -> Cells:
    rows = text.split("/")
    if len(rows) != 4 or any(len(row) != 4 for row in rows):
        raise NotationError(
            "grids", f"seat {seat}'s grid {shown(text)} must be 4 rows of 4 cells joined by '/'"
        )
    cells: list[Card | None] = []
    for symbol in "".join(rows):
        if symbol == ".":
            cells.append(None)
        elif symbol in HIDDEN_LETTERS:
            cells.append(Card(HIDDEN_LETTERS.index(symbol) + 1, face_down=True))
        elif symbol == "?":
            raise NotationError(
                "grids", "a public view ('?') cannot be loaded: the values are unknown"
            )
        else:
            cells.append(Card(parse_value(symbol, "grids"), face_down=False))
    return tuple(cells)


@dataclass(frozen=True)
class SharedFields:
    """What a full position and its public view write alike (spec/notation.md, Positions):
    everything but the grids' face-down cells, the picks and the pile, which the view hides."""

    rules: Rules
    round: int
    turn: int
    phase: Phase
    hand: int | None  # the value of push@S:V
    start: int | None
    centre: tuple[int, ...]
    removed: tuple[int, ...]
    totals: tuple[int, ...]


def seat_grids(grids_field: str, what: str) -> list[str]:
    """The grids field cut into one text per seat (at most SEAT_MAX + 1 of them)."""
    seats = grids_field.split("|", SEAT_MAX + 1)
    if len(seats) > SEAT_MAX + 1:
        raise NotationError("grids", f"more than {SEAT_MAX + 1} grids: {what} has one per seat")
    return seats


@dataclass(frozen=True)
class _CountNotJudged(Rules):
    """The rules of a position whose count of grids is not judged yet: a position is read
    whole, every field as notation, before the count is held to 2–6 (M2), in the order of
    spec/protocol.md ("`new_game` from a position"). Only parse_position builds one, and it
    never returns it."""

    def __post_init__(self) -> None:
        # every check of Rules but the player count's: the variant, the first rule, the threshold
        Rules(players=2, push=self.push, first=self.first, threshold=self.threshold)


def read_shared_fields(
    fields: Sequence[str], players: int, *, count_later: bool = False
) -> SharedFields:
    """Read the shared fields of a position or public view already cut into its ten fields,
    for `players` seats (the number of grids). Raises NotationError naming the field; the
    count of seats is M2 here, or, with `count_later`, left for the caller to judge after
    every field has been read (`Rules.players` may then be outside 2–6)."""
    rules_f, clock_f, phase_f, start_f, _, _, centre_f, _, removed_f, totals_f = fields
    parts = rules_f.split("/")
    if len(parts) != 3:
        raise NotationError(
            "rules", f"{shown(rules_f)}: write push/first/threshold, like slide/lowest/single"
        )
    rules = (_CountNotJudged if count_later else Rules)(
        players=players,
        push=parse_variant(parts[0], "rules"),
        first=parse_first_rule(parts[1], "rules"),
        threshold=None if parts[2] == "single" else read_number(parts[2], "rules"),
    )
    round_text, _, turn_text = clock_f.partition(".")
    phase_name, _, detail = phase_f.partition("@")
    try:
        phase = Phase(phase_name)
    except ValueError:
        raise NotationError(
            "phase", f"{shown(phase_f)}: reveal, take@S, push@S:V, next or over"
        ) from None
    if phase in (Phase.TAKE, Phase.PUSH) and start_f == "-":
        # S is counted from the token's seat (T3, T4), and while the start is unknown no
        # seat holds the token (T5): no S is canonical then
        raise NotationError(
            "phase",
            f"{shown(phase_f)} names a seat, but the start is '-': no seat holds the token "
            "before turn 1's reveal (T5), so no take@S or push@S:V is canonical",
        )
    totals = tuple(read_number(total, "totals") for total in totals_f.split(",", SEAT_MAX + 1))
    if len(totals) != players:
        raise NotationError("totals", f"one total per seat: {players} expected")
    return SharedFields(
        rules=rules,
        round=read_number(round_text, "round.turn"),
        turn=read_number(turn_text, "round.turn"),
        phase=phase,
        hand=parse_value(detail.partition(":")[2], "phase") if phase is Phase.PUSH else None,
        start=None if start_f == "-" else read_number(start_f, "start", most=SEAT_MAX),
        centre=tuple(sorted(_parse_cards(centre_f, "centre"))),
        removed=_parse_cards(removed_f, "removed"),
        totals=totals,
    )


def parse_position(text: str) -> GameState:
    """Read a full position (not a public view). Raises NotationError naming the field, and
    only then IllegalAction M2 for a count of grids outside 2–6 (spec/protocol.md: notation
    first)."""
    fields = text.split()
    names = POSITION_FIELDS
    if len(fields) != len(names):
        raise NotationError(
            "position", f"a position has {len(names)} fields ({' '.join(names)}), not {len(fields)}"
        )
    grids = tuple(
        _parse_cells(g, seat) for seat, g in enumerate(seat_grids(fields[4], "a position"))
    )
    shared = read_shared_fields(fields, len(grids), count_later=True)
    picks_f, pile_f = fields[5], fields[7]
    picks = tuple(None if p == "-" else parse_cell(p) for p in picks_f.split(",", SEAT_MAX + 1))
    if len(picks) != len(grids):
        raise NotationError("picks", f"one pick (or '-') per seat: {len(grids)} expected")
    if pile_f.startswith("#"):
        raise NotationError(
            "pile", "a public view ('#N') cannot be loaded: the pile's cards are unknown"
        )
    state = GameState(
        rules=shared.rules,
        round=shared.round,
        turn=shared.turn,
        phase=shared.phase,
        start=shared.start,
        grids=grids,
        picks=picks,
        centre=shared.centre,
        hand=shared.hand,
        pile=_parse_cards(pile_f, "pile"),
        removed=shared.removed,
        totals=shared.totals,
    )
    canonical = format_position(state)
    if canonical != text.strip():
        raise NotationError(
            "position",
            f"{shown(text)} is not in canonical form (it reads as {shown(canonical, 400)})",
        )
    rules = state.rules  # read whole: only now is the count of grids held to 2–6 (M2)
    return replace(state, rules=Rules(rules.players, rules.push, rules.first, rules.threshold))
