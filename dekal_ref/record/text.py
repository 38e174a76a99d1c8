"""The text (.dkr) form of a game record, PGN-like (spec/notation.md, "Game records").

    [Format "dekal-record/1"]
    [Players "2"]
    [Push "slide"]
    [First "lowest"]
    [Threshold "single"]
    [Seed "42"]

    round 1
    grid 0 TT12/7688/7127/21T1
    grid 1 35T8/2338/T495/4T5T
    pile 25566376374645612481935447358T196T78935165878718672994349226493T1992
    1. reveal 0 c1, reveal 1 a1, take 0 1, push 0 B, take 1 3, push 1 R
    2. reveal 0 b3, reveal 1 b1, take 1 T, push 1 L, take 0 1, push 0 B
    …
    16. …
    scores 23/4 21/3

    places 2 1

Tags carry the variants (P1/P2 push, F1–F4 first player, S4 threshold) and the seed (M3);
each round block holds its deal (M3, M5), one turn per line (T1 starts every turn) and its
result (S2, S4); `places` the final places (S3, S4). Parsing checks only the notation and
raises NotationError naming the tag or the line; the rules are checked by a replay.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dekal_ref.actions import NewRound, parse_action
from dekal_ref.deal import Deal
from dekal_ref.errors import NotationError
from dekal_ref.notation import FIRST_RULES, VARIANTS, format_grid, parse_grid, parse_value
from dekal_ref.reading import SEAT_MAX, SEED_MAX, is_digits, read_number, shown
from dekal_ref.record.model import (
    FORMAT,
    GameRecord,
    Move,
    RoundRecord,
    SeatScore,
    format_cards,
    turn_groups,
)
from dekal_ref.state import Rules

MAX_RECORD_CHARS = 8 * 1024 * 1024
"""The longest record read, text or JSON (8 MiB; a six-round match is about 10 KiB)."""
MAX_TAG_CHARS = 200
"""The longest tag value (an event's name, a date)."""

TAG_ORDER = (
    "Format",
    "Event",
    "Date",
    "Players",
    "Push",
    "First",
    "FirstSeat",
    "Threshold",
    "Seed",
)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_record(rec: GameRecord) -> str:
    """The canonical text of a record. `parse_record(format_record(r)) == r`."""
    rules = rec.rules
    tags: dict[str, str | None] = {
        "Format": FORMAT,
        "Event": rec.event,
        "Date": rec.date,
        "Players": str(rules.players),
        "Push": rules.push,
        "First": rules.first,
        "FirstSeat": None if rec.first_player is None else str(rec.first_player),
        "Threshold": "single" if rules.threshold is None else str(rules.threshold),
        "Seed": None if rec.seed is None else str(rec.seed),
    }
    lines = [f"[{name} {_quote(value)}]" for name, value in tags.items() if value is not None]
    for number, played in enumerate(rec.rounds, start=1):
        lines += ["", f"round {number}"]
        lines += [f"grid {seat} {format_grid(g)}" for seat, g in enumerate(played.deal.grids)]
        lines.append(f"pile {format_cards(played.deal.pile)}")
        for turn, group in enumerate(turn_groups(played.moves), start=1):
            lines.append(f"{turn}. " + ", ".join(str(move) for move in group))
        if played.scores is not None:
            lines.append("scores " + " ".join(f"{s.points}/{s.remaining}" for s in played.scores))
        if played.totals is not None:
            lines.append("totals " + " ".join(str(t) for t in played.totals))
    if rec.places is not None:
        lines += ["", "places " + " ".join(str(p) for p in rec.places)]
    return "\n".join(lines) + "\n"


_TAG_NAME = re.compile(r"[A-Za-z]+")
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_TURN = re.compile(r"([0-9]+)\.\s+(.+)", re.DOTALL)


class _Lines:
    """The record's lines with their line numbers, read front to back, one line ahead;
    blank lines and comment lines (starting with '#') are skipped.

    Lazy, so that memory stays one line whatever the record's length."""

    def __init__(self, text: str) -> None:
        self._source = enumerate(_split_lines(text), start=1)
        self._next = self._advance()

    def _advance(self) -> tuple[int, str] | None:
        for number, line in self._source:
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                return number, stripped
        return None

    def peek(self) -> str | None:
        return None if self._next is None else self._next[1]

    def take(self) -> tuple[int, str]:
        item = self._next
        assert item is not None  # callers peek first
        self._next = self._advance()
        return item


def _split_lines(text: str) -> Iterator[str]:
    """The lines of `text` (split at newlines), one at a time: a copy of one line at most."""
    start = 0
    while (end := text.find("\n", start)) != -1:
        yield text[start:end]
        start = end + 1
    yield text[start:]


def _line_error(number: int, message: str) -> NotationError:
    return NotationError(f"record line {number}", message)


def _number(text: str, number: int, what: str) -> int:
    try:
        return read_number(text, what)
    except NotationError as error:
        raise _line_error(number, f"{what}: {error.message}") from None


def _read_tag(line: str) -> tuple[str, str] | None:
    """`[Name "value"]` -> (Name, value as written, escapes kept); None if it is not a tag.

    Read by slicing and plain string scans rather than one regular expression: a regex with
    a group per character (or per escape) keeps a backtracking frame for each, which costs
    gigabytes on a tag of millions of characters. This is linear in time and memory."""
    name, space, quoted = line.removeprefix("[").partition(" ")
    if not (line.startswith("[") and space and _TAG_NAME.fullmatch(name)):
        return None
    if len(quoted) < 3 or not (quoted.startswith('"') and quoted.endswith('"]')):
        return None
    written = quoted[1:-2]
    # A backslash escapes the next character. Taking out the escaped backslashes, then the
    # escaped quotes, leaves a bare quote (which would end the value early) or a backslash
    # at the very end (which escapes nothing) exactly when the value is malformed.
    rest = written.replace("\\\\", "").replace('\\"', "")
    if '"' in rest or rest.endswith("\\"):
        return None
    return name, written


def _parse_tags(lines: _Lines) -> dict[str, str]:
    tags: dict[str, str] = {}
    while (line := lines.peek()) is not None and line.startswith("["):
        number, line = lines.take()
        tag = _read_tag(line)
        if tag is None:
            raise _line_error(number, f'{shown(line)} is not a tag: write [Name "value"]')
        name, written = tag
        if name not in TAG_ORDER:
            raise _line_error(number, f"unknown tag {shown(name)}; tags are {', '.join(TAG_ORDER)}")
        if name in tags:
            raise _line_error(number, f"the tag {name} is given twice")
        value = _ESCAPED.sub(r"\1", written) if len(written) <= 2 * MAX_TAG_CHARS else written
        if len(value) > MAX_TAG_CHARS:
            raise _line_error(
                number, f"the tag {name} is {len(value)} characters; at most {MAX_TAG_CHARS}"
            )
        tags[name] = value
    return tags


def _rules_from_tags(tags: dict[str, str]) -> Rules:
    if tags.get("Format") != FORMAT:
        found = tags.get("Format")
        raise NotationError(
            "Format",
            f'this reader reads [Format "{FORMAT}"], not {shown(found)}'
            if found
            else f'a record starts with the tag [Format "{FORMAT}"]',
        )
    if "Players" not in tags:
        raise NotationError("Players", 'a record names its number of seats: [Players "4"]')
    threshold = tags.get("Threshold", "single")
    if threshold != "single" and not is_digits(threshold):
        raise NotationError("Threshold", f"{shown(threshold)}: write single, or a number like 100")
    return Rules(
        players=read_number(tags["Players"], "Players", most=SEAT_MAX),
        push=_one_of(tags.get("Push", "slide"), VARIANTS, "Push"),
        first=_one_of(tags.get("First", "lowest"), FIRST_RULES, "First"),
        threshold=None if threshold == "single" else read_number(threshold, "Threshold"),
    )


def _one_of(value: str, choices: tuple[str, ...], tag: str) -> str:
    if value not in choices:
        raise NotationError(tag, f"{shown(value)}: write {' or '.join(choices)}")
    return value


def _optional_number(tags: dict[str, str], name: str, most: int) -> int | None:
    return read_number(tags[name], name, most=most) if name in tags else None


def _parse_pile(text: str, number: int) -> tuple[int, ...]:
    if text == "-":
        return ()
    try:
        return tuple(parse_value(symbol, "pile") for symbol in text)
    except NotationError as error:
        raise _line_error(number, f"pile: {error.message}") from None


def _parse_move(text: str, number: int) -> Move:
    try:
        action = parse_action(text)
    except NotationError as error:
        raise _line_error(number, f"{shown(text)}: {error.field}: {error.message}") from None
    assert not isinstance(action, NewRound)  # parse_action reads reveal, take and push only
    return action


def _head(line: str | None) -> str | None:
    """The first word of a line (its keyword), None at the end of the record."""
    return None if line is None else line.split(" ", 1)[0]


def _expect(lines: _Lines, keyword: str) -> tuple[int, str]:
    if lines.peek() is None:
        raise NotationError("record", f"the record ends where a {keyword!r} line was expected")
    number, line = lines.take()
    head, _, rest = line.partition(" ")
    if head != keyword:
        raise _line_error(number, f"expected a {keyword!r} line here, found {shown(line)}")
    return number, rest.strip()


def _seat_values(text: str, number: int, players: int, what: str) -> list[str]:
    items = text.split()
    if len(items) != players:
        raise _line_error(
            number, f"{what}: one entry per seat, {players} expected, not {len(items)}"
        )
    return items


def _parse_round(lines: _Lines, round_number: int, players: int) -> RoundRecord:
    number, rest = _expect(lines, "round")
    if rest != str(round_number):
        raise _line_error(
            number, f"expected 'round {round_number}', found {shown('round ' + rest)}"
        )
    grids = []
    for seat in range(players):
        number, rest = _expect(lines, "grid")
        seat_text, _, grid_text = rest.partition(" ")
        if seat_text != str(seat):
            raise _line_error(
                number, f"expected the grid of seat {seat}, found seat {shown(seat_text)}"
            )
        try:
            grids.append(parse_grid(grid_text, allow_hole=False))
        except NotationError as error:
            raise _line_error(number, f"grid of seat {seat}: {error.message}") from None
    number, rest = _expect(lines, "pile")
    deal = Deal(grids=tuple(grids), pile=_parse_pile(rest, number))
    moves: list[Move] = []
    turn = 0
    while (line := lines.peek()) is not None and line[0] in "0123456789":
        number, line = lines.take()
        match = _TURN.fullmatch(line)
        if match is None:
            raise _line_error(number, f"{shown(line)}: a turn line is 'N. action, action, …'")
        turn += 1
        if match.group(1) != str(turn):
            raise _line_error(number, f"expected turn {turn}, found turn {shown(match.group(1))}")
        moves.extend(_parse_move(item.strip(), number) for item in match.group(2).split(","))
    scores = None
    if _head(lines.peek()) == "scores":
        number, rest = _expect(lines, "scores")
        scores = tuple(
            _parse_seat_score(item, number)
            for item in _seat_values(rest, number, players, "scores")
        )
    totals = None
    if _head(lines.peek()) == "totals":
        number, rest = _expect(lines, "totals")
        totals = tuple(
            _number(item, number, "a total")
            for item in _seat_values(rest, number, players, "totals")
        )
    return RoundRecord(deal=deal, moves=tuple(moves), scores=scores, totals=totals)


def _parse_seat_score(item: str, number: int) -> SeatScore:
    points, slash, remaining = item.partition("/")
    if not slash:
        raise _line_error(number, f"{shown(item)}: a seat's score is POINTS/CARDS, like 19/5")
    return SeatScore(_number(points, number, "points"), _number(remaining, number, "cards left"))


def parse_record(text: str) -> GameRecord:
    """Read a record written as text. Raises NotationError naming the tag or the line.

    Blank lines, spaces around a line and comment lines (`# …`, not kept) are free; everything
    else is as format_record writes it, so `format_record(parse_record(t)) == t` for every
    canonical text t.
    """
    if len(text) > MAX_RECORD_CHARS:
        raise NotationError(
            "record", f"longer than {MAX_RECORD_CHARS} characters: a record is at most that long"
        )
    lines = _Lines(text)
    tags = _parse_tags(lines)
    rules = _rules_from_tags(tags)
    rounds: list[RoundRecord] = []
    while _head(lines.peek()) == "round":
        rounds.append(_parse_round(lines, len(rounds) + 1, rules.players))
    places = None
    if _head(lines.peek()) == "places":
        number, rest = _expect(lines, "places")
        places = tuple(
            _number(item, number, "a place")
            for item in _seat_values(rest, number, rules.players, "places")
        )
    if lines.peek() is not None:
        number, line = lines.take()
        raise _line_error(number, f"unexpected {shown(line)}: expected a round, places or the end")
    if not rounds:
        raise NotationError("record", "a record holds at least one round: 'round 1' and its deal")
    return GameRecord(
        rules=rules,
        rounds=tuple(rounds),
        first_player=_optional_number(tags, "FirstSeat", SEAT_MAX),
        seed=_optional_number(tags, "Seed", SEED_MAX),
        event=tags.get("Event"),
        date=tags.get("Date"),
        places=places,
    )
