"""Game records: a whole game or match written down, PGN-like, with a JSON twin (spec/notation.md).

A record holds what happened and nothing that can be derived, except the result, which is
written down so that a reader sees it and a replay can check it:

* tags: format version, seats, variants (push, first player and the chosen seat, threshold),
  the seed if the deals came from one, and an optional event and date;
* per round: the explicit deal (every grid, the set-aside pile) and the actions in the order
  they were played (reveals, takes, pushes), shown one turn per line;
* the result: each scored round's points and cards left (and the running totals in a match),
  and the final places once the game or match is over.

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

Parsing checks only the notation; `replay` plays the record on the reference engine and
refuses an illegal action (B1) or a written result that the replay contradicts, with a
ReplayError naming the round, the turn, the action and the rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from dekal_ref import game
from dekal_ref.actions import Action, NewRound, PushMove, Reveal, Take, apply, parse_action
from dekal_ref.deal import Deal, seeded_deals
from dekal_ref.errors import IllegalAction, NotationError
from dekal_ref.notation import format_grid, parse_grid, parse_value, value_symbol
from dekal_ref.position import format_position, parse_position
from dekal_ref.ranking import ranking, round_scores
from dekal_ref.state import GameState, Phase, Rules

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


# --- Text ---------------------------------------------------------------------------------

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


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cards(values: Sequence[int]) -> str:
    return "".join(value_symbol(v) for v in values) or "-"


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
        lines.append(f"pile {_cards(played.deal.pile)}")
        for turn, group in enumerate(turn_groups(played.moves), start=1):
            lines.append(f"{turn}. " + ", ".join(str(move) for move in group))
        if played.scores is not None:
            lines.append("scores " + " ".join(f"{s.points}/{s.remaining}" for s in played.scores))
        if played.totals is not None:
            lines.append("totals " + " ".join(str(t) for t in played.totals))
    if rec.places is not None:
        lines += ["", "places " + " ".join(str(p) for p in rec.places)]
    return "\n".join(lines) + "\n"


_TAG = re.compile(r'^\[([A-Za-z]+) "((?:[^"\\]|\\.)*)"\]$')
_TURN = re.compile(r"^(\d+)\.\s+(.+)$")


class _Lines:
    """The record's lines with their line numbers, read front to back; blank lines and
    comment lines (starting with '#') are skipped."""

    def __init__(self, text: str) -> None:
        self.items = [
            (number, line.strip())
            for number, line in enumerate(text.split("\n"), start=1)
            if line.strip() and not line.strip().startswith("#")
        ]
        self.index = 0

    def peek(self) -> str | None:
        return self.items[self.index][1] if self.index < len(self.items) else None

    def take(self) -> tuple[int, str]:
        item = self.items[self.index]
        self.index += 1
        return item


def _line_error(number: int, message: str) -> NotationError:
    return NotationError(f"record line {number}", message)


def _number(text: str, number: int, what: str) -> int:
    if not text.isdigit():
        raise _line_error(number, f"{what} must be a number ≥ 0, not {text!r}")
    return int(text)


def _parse_tags(lines: _Lines) -> dict[str, str]:
    tags: dict[str, str] = {}
    while (line := lines.peek()) is not None and line.startswith("["):
        number, line = lines.take()
        match = _TAG.match(line)
        if match is None:
            raise _line_error(number, f'{line!r} is not a tag: write [Name "value"]')
        name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
        if name not in TAG_ORDER:
            raise _line_error(number, f"unknown tag {name!r}; tags are {', '.join(TAG_ORDER)}")
        if name in tags:
            raise _line_error(number, f"the tag {name} is given twice")
        tags[name] = value
    return tags


def _rules_from_tags(tags: dict[str, str]) -> Rules:
    if tags.get("Format") != FORMAT:
        found = tags.get("Format")
        raise NotationError(
            "Format",
            f'this reader reads [Format "{FORMAT}"], not {found!r}'
            if found
            else f'a record starts with the tag [Format "{FORMAT}"]',
        )
    if "Players" not in tags:
        raise NotationError("Players", 'a record names its number of seats: [Players "4"]')
    if not tags["Players"].isdigit():
        raise NotationError("Players", f"{tags['Players']!r} is not a number of players")
    threshold = tags.get("Threshold", "single")
    if threshold != "single" and not threshold.isdigit():
        raise NotationError("Threshold", f"{threshold!r}: write single, or a number like 100")
    return Rules(
        players=int(tags["Players"]),
        push=tags.get("Push", "slide"),
        first=tags.get("First", "lowest"),
        threshold=None if threshold == "single" else int(threshold),
    )


def _optional_number(tags: dict[str, str], name: str) -> int | None:
    if name not in tags:
        return None
    if not tags[name].isdigit():
        raise NotationError(name, f"{tags[name]!r} is not a number ≥ 0")
    return int(tags[name])


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
        raise _line_error(number, f"{text!r}: {error.field}: {error.message}") from None
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
        raise _line_error(number, f"expected a {keyword!r} line here, found {line!r}")
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
        raise _line_error(number, f"expected 'round {round_number}', found 'round {rest}'")
    grids = []
    for seat in range(players):
        number, rest = _expect(lines, "grid")
        seat_text, _, grid_text = rest.partition(" ")
        if seat_text != str(seat):
            raise _line_error(number, f"expected the grid of seat {seat}, found seat {seat_text!r}")
        try:
            grids.append(parse_grid(grid_text, allow_hole=False))
        except NotationError as error:
            raise _line_error(number, f"grid of seat {seat}: {error.message}") from None
    number, rest = _expect(lines, "pile")
    deal = Deal(grids=tuple(grids), pile=_parse_pile(rest, number))
    moves: list[Move] = []
    turn = 0
    while (line := lines.peek()) is not None and line[0].isdigit():
        number, line = lines.take()
        match = _TURN.match(line)
        if match is None:
            raise _line_error(number, f"{line!r}: a turn line is 'N. action, action, …'")
        turn += 1
        if int(match.group(1)) != turn:
            raise _line_error(number, f"expected turn {turn}, found turn {match.group(1)}")
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
        raise _line_error(number, f"{item!r}: a seat's score is POINTS/CARDS, like 19/5")
    return SeatScore(_number(points, number, "points"), _number(remaining, number, "cards left"))


def parse_record(text: str) -> GameRecord:
    """Read a record written as text. Raises NotationError naming the tag or the line.

    Blank lines, spaces around a line and comment lines (`# …`, not kept) are free; everything
    else is as format_record writes it, so `format_record(parse_record(t)) == t` for every
    canonical text t.
    """
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
        raise _line_error(number, f"unexpected {line!r}: expected a round, places or the end")
    if not rounds:
        raise NotationError("record", "a record holds at least one round: 'round 1' and its deal")
    return GameRecord(
        rules=rules,
        rounds=tuple(rounds),
        first_player=_optional_number(tags, "FirstSeat"),
        seed=_optional_number(tags, "Seed"),
        event=tags.get("Event"),
        date=tags.get("Date"),
        places=places,
    )


# --- JSON ---------------------------------------------------------------------------------


def record_to_json(rec: GameRecord) -> dict[str, Any]:
    """The JSON twin of a record. `rules` and `deal` are shaped as in spec/protocol.md."""
    rules = rec.rules
    ranking_list = None
    if rec.places is not None:
        places = rec.places
        order = sorted(range(len(places)), key=lambda seat: (places[seat], seat))
        ranking_list = [{"place": places[seat], "seat": seat} for seat in order]
    return {
        "format": FORMAT,
        "event": rec.event,
        "date": rec.date,
        "rules": {
            "players": rules.players,
            "push": rules.push,
            "first": rules.first,
            "threshold": rules.threshold,
        },
        "first_player": rec.first_player,
        "seed": rec.seed,
        "rounds": [
            {
                "deal": {
                    "grids": [format_grid(g) for g in played.deal.grids],
                    "pile": _cards(played.deal.pile),
                },
                "turns": [[str(m) for m in group] for group in turn_groups(played.moves)],
                "scores": None
                if played.scores is None
                else [
                    {"seat": seat, "points": s.points, "remaining": s.remaining}
                    for seat, s in enumerate(played.scores)
                ],
                "totals": None if played.totals is None else list(played.totals),
            }
            for played in rec.rounds
        ],
        "ranking": ranking_list,
    }


def _json_field(obj: Any, key: str, kinds: tuple[type, ...], where: str, optional: bool) -> Any:
    if not isinstance(obj, dict):
        raise NotationError(where, "must be a JSON object")
    value = obj.get(key)
    if value is None:
        if optional:
            return None
        raise NotationError(f"{where}.{key}", "is missing")
    if isinstance(value, bool) or not isinstance(value, kinds):
        names = " or ".join("number" if k is int else k.__name__ for k in kinds)
        raise NotationError(f"{where}.{key}", f"must be a {names}, not {value!r}")
    return value


def _json_int(obj: Any, key: str, where: str, optional: bool = False) -> Any:
    value = _json_field(obj, key, (int,), where, optional)
    if value is not None and value < 0:
        raise NotationError(f"{where}.{key}", f"must be ≥ 0, not {value}")
    return value


def _json_list(obj: Any, key: str, where: str, optional: bool = False) -> list[Any] | None:
    value: list[Any] | None = _json_field(obj, key, (list,), where, optional)
    return value


def _json_round(obj: Any, where: str, players: int) -> RoundRecord:
    deal_obj = _json_field(obj, "deal", (dict,), where, False)
    grid_texts = _json_list(deal_obj, "grids", f"{where}.deal") or []
    grids = []
    for seat, text in enumerate(grid_texts):
        field = f"{where}.deal.grids[{seat}]"
        if not isinstance(text, str):
            raise NotationError(field, f"must be a grid in notation, not {text!r}")
        try:
            grids.append(parse_grid(text, allow_hole=False))
        except NotationError as error:
            raise NotationError(field, error.message) from None
    if len(grids) != players:
        raise NotationError(f"{where}.deal.grids", f"one grid per seat: {players} expected")
    pile_text = _json_field(deal_obj, "pile", (str,), f"{where}.deal", False)
    try:
        pile = () if pile_text == "-" else tuple(parse_value(s, "pile") for s in pile_text)
    except NotationError as error:
        raise NotationError(f"{where}.deal.pile", error.message) from None
    moves: list[Move] = []
    for t, group in enumerate(_json_list(obj, "turns", where) or [], start=1):
        if not isinstance(group, list):
            raise NotationError(f"{where}.turns[{t - 1}]", "must be a list of actions")
        for item in group:
            if not isinstance(item, str):
                raise NotationError(f"{where}.turns[{t - 1}]", f"{item!r} is not an action")
            try:
                action = parse_action(item)
            except NotationError as error:
                raise NotationError(f"{where}.turns[{t - 1}]", f"{item!r}: {error}") from None
            assert not isinstance(action, NewRound)
            moves.append(action)
    scores = None
    score_list = _json_list(obj, "scores", where, optional=True)
    if score_list is not None:
        if len(score_list) != players:
            raise NotationError(f"{where}.scores", f"one score per seat: {players} expected")
        scores = tuple(
            SeatScore(
                _json_int(item, "points", f"{where}.scores[{seat}]"),
                _json_int(item, "remaining", f"{where}.scores[{seat}]"),
            )
            for seat, item in enumerate(score_list)
        )
    totals = None
    total_list = _json_list(obj, "totals", where, optional=True)
    if total_list is not None:
        if len(total_list) != players or any(
            isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in total_list
        ):
            raise NotationError(f"{where}.totals", f"{players} numbers ≥ 0 expected")
        totals = tuple(total_list)
    return RoundRecord(
        deal=Deal(tuple(grids), pile), moves=tuple(moves), scores=scores, totals=totals
    )


def record_from_json(obj: Any) -> GameRecord:
    """Read the JSON twin. Raises NotationError naming the field (like `rounds[0].deal.pile`)."""
    if not isinstance(obj, dict):
        raise NotationError("record", "a JSON record is an object")
    if obj.get("format") != FORMAT:
        raise NotationError("format", f"this reader reads {FORMAT!r}, not {obj.get('format')!r}")
    rules_obj = _json_field(obj, "rules", (dict,), "record", False)
    players = _json_int(rules_obj, "players", "rules")
    threshold = _json_int(rules_obj, "threshold", "rules", optional=True)
    rules = Rules(
        players=players,
        push=_json_field(rules_obj, "push", (str,), "rules", True) or "slide",
        first=_json_field(rules_obj, "first", (str,), "rules", True) or "lowest",
        threshold=threshold,
    )
    rounds = tuple(
        _json_round(item, f"rounds[{index}]", players)
        for index, item in enumerate(_json_list(obj, "rounds", "record") or [])
    )
    places = None
    ranking_list = _json_list(obj, "ranking", "record", optional=True)
    if ranking_list is not None:
        found: dict[int, int] = {}
        for index, item in enumerate(ranking_list):
            seat = _json_int(item, "seat", f"ranking[{index}]")
            found[seat] = _json_int(item, "place", f"ranking[{index}]")
        if sorted(found) != list(range(players)) or len(ranking_list) != players:
            raise NotationError("ranking", f"the ranking lists every seat 0–{players - 1} once")
        places = tuple(found[seat] for seat in range(players))
    for key in ("event", "date"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise NotationError(key, "must be a string")
    return GameRecord(
        rules=rules,
        rounds=rounds,
        first_player=_json_int(obj, "first_player", "record", optional=True),
        seed=_json_int(obj, "seed", "record", optional=True),
        event=obj.get("event"),
        date=obj.get("date"),
        places=places,
    )


# --- Playing a record ---------------------------------------------------------------------


class ReplayError(IllegalAction):
    """A record that the rules refuse: an illegal action (B1), a deal that is not the 100
    cards or not the seed's, or a written result that the replay contradicts.

    `round` and `turn` locate it (turn None: at the round's set-up or its result), `action`
    is the action or line in notation, `rule` the rule ID, `reason` the engine's message.
    """

    def __init__(
        self, rule: str, reason: str, *, round: int, turn: int | None, action: str
    ) -> None:
        where = f"round {round}" + (f", turn {turn}" if turn is not None else "")
        super().__init__(rule, f"{where}, {action}: {reason}")
        self.round = round
        self.turn = turn
        self.action = action
        self.reason = reason


@dataclass(frozen=True)
class Step:
    """One step of a replay: the action and the state after it."""

    action: Action
    state: GameState


def _round_label(action: Action) -> str:
    return "deal" if isinstance(action, NewRound) else str(action)


def _check_seed(rec: GameRecord) -> None:
    """M3/M5: a record that names its seed must hold exactly the deals that seed gives."""
    if rec.seed is None:
        return
    if not 2 <= rec.rules.players <= 6:
        return  # new_game refuses the player count itself (M2)
    expected = seeded_deals(rec.seed, rec.rules.players, len(rec.rounds))
    for number, (played, deal) in enumerate(zip(rec.rounds, expected, strict=True), start=1):
        if played.deal != deal:
            raise ReplayError(
                "M3",
                f"the deal is not the one seed {rec.seed} gives for round {number} "
                "(spec/rules.md, Seeded deals)",
                round=number,
                turn=None,
                action="deal",
            )


class Engine(Protocol):
    """The part of an engine's game API a replay needs (dekal.engines.GameAPI has it)."""

    def new_game(self, rules: Rules, deal: Deal, first_player: int | None = None) -> Any: ...
    def apply(self, state: Any, action: Action) -> Any: ...
    def format_position(self, state: Any, public: bool = False) -> str: ...


class _Reference:
    """The reference engine seen through the Engine protocol."""

    new_game = staticmethod(game.new_game)
    apply = staticmethod(apply)
    format_position = staticmethod(format_position)


_REFERENCE: Engine = _Reference()


def iter_replay(rec: GameRecord, engine: Engine | None = None) -> Iterator[Step]:
    """Play the record's steps, yielding each state as it comes.

    By default the reference engine plays. Another `engine` (e.g. the optimized one) plays
    with its own states; each is read back through its position notation, so what is shown
    is exactly what that engine computed.
    The first step is the set-up of round 1 (its action is NewRound(deal of round 1)).
    Raises ReplayError on the first step the rules refuse.
    """
    _check_seed(rec)
    first_deal = rec.rounds[0].deal
    player: Engine = _REFERENCE if engine is None else engine

    def seen(own: Any) -> GameState:
        return own if engine is None else parse_position(player.format_position(own))

    new_game, play = player.new_game, player.apply
    try:
        own_state = new_game(rec.rules, first_deal, rec.first_player)
    except IllegalAction as error:
        raise ReplayError(error.rule, error.message, round=1, turn=None, action="deal") from None
    state = seen(own_state)
    yield Step(NewRound(first_deal), state)
    for action in rec.steps():
        try:
            own_state = play(own_state, action)
            state = seen(own_state)
        except IllegalAction as error:
            turn = None if isinstance(action, NewRound) else state.turn
            round_number = state.round + (1 if isinstance(action, NewRound) else 0)
            raise ReplayError(
                error.rule,
                error.message,
                round=round_number,
                turn=turn,
                action=_round_label(action),
            ) from None
        yield Step(action, state)


@dataclass(frozen=True)
class PlayedResult:
    """What a replay shows: each round's scores (None if unscored), totals, final places."""

    scores: tuple[tuple[SeatScore, ...] | None, ...]
    totals: tuple[tuple[int, ...] | None, ...]
    places: tuple[int, ...] | None


def result_of(states: Sequence[GameState], rounds: int) -> PlayedResult:
    """The result shown by a replay's states: a round is scored when its 16th turn ends."""
    scores: list[tuple[SeatScore, ...] | None] = [None] * rounds
    totals: list[tuple[int, ...] | None] = [None] * rounds
    for state in states:
        if state.phase in (Phase.NEXT_ROUND, Phase.OVER):
            scores[state.round - 1] = tuple(
                SeatScore(s.points, s.remaining) for s in round_scores(state)
            )
            if state.rules.threshold is not None:
                totals[state.round - 1] = state.totals
    places = None
    final = states[-1]
    if final.phase is Phase.OVER:
        by_seat = {standing.seat: standing.place for standing in ranking(final)}
        places = tuple(by_seat[seat] for seat in range(final.players))
    return PlayedResult(tuple(scores), tuple(totals), places)


def check_result(rec: GameRecord, states: Sequence[GameState]) -> None:
    """A written result must be the one the replay's `states` show; a missing one is allowed
    (nothing to contradict). Raises ReplayError naming the rule (S2, S3, S4 or T5)."""
    played = result_of(states, len(rec.rounds))
    single = rec.rules.threshold is None
    for number, written in enumerate(rec.rounds, start=1):
        shown = played.scores[number - 1]
        if written.scores is not None:
            if shown is None:
                raise ReplayError(
                    "T5",
                    "the record gives this round's scores, but its 16 turns were not all played",
                    round=number,
                    turn=None,
                    action="scores",
                )
            for seat, (w, s) in enumerate(zip(written.scores, shown, strict=True)):
                if w != s:
                    raise ReplayError(
                        "S2",
                        f"the record says seat {seat} scored {w.points} with {w.remaining} cards "
                        f"left; the replay gives {s.points} with {s.remaining}",
                        round=number,
                        turn=None,
                        action="scores",
                    )
        if written.totals is not None and written.totals != played.totals[number - 1]:
            shown_totals = played.totals[number - 1]
            replayed = (
                "no match totals" if shown_totals is None else " ".join(map(str, shown_totals))
            )
            raise ReplayError(
                "S4",
                f"the record says totals {' '.join(map(str, written.totals))}; "
                f"the replay gives {replayed}",
                round=number,
                turn=None,
                action="totals",
            )
    if rec.places is not None and rec.places != played.places:
        replayed = (
            "no final places: the game is not over"
            if played.places is None
            else "places " + " ".join(map(str, played.places))
        )
        raise ReplayError(
            "S3" if single else "S4",
            f"the record says places {' '.join(map(str, rec.places))}; the replay gives {replayed}",
            round=len(rec.rounds),
            turn=None,
            action="places",
        )


def replay(rec: GameRecord) -> list[GameState]:
    """Every state of the record: after the set-up of round 1, then after each step of
    `rec.steps()` (new rounds included). Raises ReplayError (an IllegalAction naming the
    round, turn, action and rule) on an illegal step or a result the replay contradicts."""
    states = [step.state for step in iter_replay(rec)]
    check_result(rec, states)
    return states


def record_from_game(
    rules: Rules,
    deals: Sequence[Deal],
    first_player: int | None,
    actions: Sequence[Action],
    *,
    seed: int | None = None,
    event: str | None = None,
    date: str | None = None,
) -> GameRecord:
    """Play `actions` on the reference engine and write them down with their result.

    `deals[k]` deals round k + 1. A NewRound in `actions` starts the next round with its own
    deal; without one, the next round starts by itself with the next of `deals` as soon as a
    move follows a scored round. Raises ReplayError on the first illegal action.

    A record may also be built directly from GameRecord and RoundRecord, without playing: that
    is how to write down a game that ends with an illegal action (a fuzzer's counterexample);
    format_record and record_to_json never check the rules, replay does.
    """
    if not deals:
        raise NotationError("deals", "a game needs at least the deal of round 1")
    round_deals = [deals[0]]
    round_moves: list[list[Move]] = [[]]
    try:
        state = game.new_game(rules, deals[0], first_player)
    except IllegalAction as error:
        raise ReplayError(error.rule, error.message, round=1, turn=None, action="deal") from None
    states = [state]
    for action in actions:
        if isinstance(action, NewRound) or state.phase is Phase.NEXT_ROUND:
            if isinstance(action, NewRound):
                deal = action.deal
            elif len(deals) > len(round_deals):
                deal = deals[len(round_deals)]
            else:
                deal = None
            if deal is not None:
                try:
                    state = game.start_round(state, deal)
                except IllegalAction as error:
                    raise ReplayError(
                        error.rule, error.message, round=state.round + 1, turn=None, action="deal"
                    ) from None
                states.append(state)
                round_deals.append(deal)
                round_moves.append([])
            if isinstance(action, NewRound):
                continue
        try:
            state = apply(state, action)
        except IllegalAction as error:
            raise ReplayError(
                error.rule, error.message, round=state.round, turn=state.turn, action=str(action)
            ) from None
        states.append(state)
        round_moves[-1].append(action)
    played = result_of(states, len(round_deals))
    return GameRecord(
        rules=rules,
        rounds=tuple(
            RoundRecord(deal, tuple(moves), scores, totals)
            for deal, moves, scores, totals in zip(
                round_deals, round_moves, played.scores, played.totals, strict=True
            )
        ),
        first_player=first_player,
        seed=seed,
        event=event,
        date=date,
        places=played.places,
    )
