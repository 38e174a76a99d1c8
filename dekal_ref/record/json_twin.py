"""The JSON twin of a game record (spec/notation.md, "Game records"; spec/protocol.md).

The same record as the text form, as one JSON object: `rules` (players M2, push P1/P2,
first F1–F4, threshold S4) and each round's `deal` (M3, M5) are shaped as in spec/protocol.md,
`turns` hold the actions in notation (T1–T4), `scores`/`totals` the results (S2, S4) and
`ranking` the final places (S3, S4). Reading checks only the shape and the notation and
raises NotationError naming the field (like `rounds[0].deal.pile`).
"""

from __future__ import annotations

from typing import Any

from dekal_ref.actions import NewRound, parse_action
from dekal_ref.deal import Deal
from dekal_ref.errors import NotationError
from dekal_ref.notation import FIRST_RULES, VARIANTS, format_grid, parse_grid, parse_value
from dekal_ref.reading import SEAT_MAX, SEED_MAX, check_number, describe_json, shown
from dekal_ref.record.model import (
    FORMAT,
    GameRecord,
    Move,
    RoundRecord,
    SeatScore,
    format_cards,
    turn_groups,
)
from dekal_ref.record.text import MAX_TAG_CHARS
from dekal_ref.state import Rules


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
                    "pile": format_cards(played.deal.pile),
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
        names = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds)
        raise NotationError(f"{where}.{key}", f"must be {names}, not {describe_json(value)}")
    return value


_KIND_NAMES = {int: "a number", str: "a string", list: "a list", dict: "an object"}


def _json_int(
    obj: Any, key: str, where: str, optional: bool = False, most: int | None = None
) -> Any:
    value = _json_field(obj, key, (int,), where, optional)
    if value is None:
        return None
    if most is None:
        return check_number(value, f"{where}.{key}")
    return check_number(value, f"{where}.{key}", most=most)


def _one_of(obj: Any, key: str, choices: tuple[str, ...], default: str) -> str:
    value = _json_field(obj, key, (str,), "rules", True) or default
    if value not in choices:
        raise NotationError(f"rules.{key}", f"{shown(value)}: write {' or '.join(choices)}")
    return str(value)


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
            raise NotationError(field, f"must be a grid in notation, not {describe_json(text)}")
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
                raise NotationError(
                    f"{where}.turns[{t - 1}]", f"{describe_json(item)} is not an action"
                )
            try:
                action = parse_action(item)
            except NotationError as error:
                raise NotationError(f"{where}.turns[{t - 1}]", f"{shown(item)}: {error}") from None
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
        if len(total_list) != players:
            raise NotationError(f"{where}.totals", f"one total per seat: {players} expected")
        totals = tuple(
            check_number(t, f"{where}.totals[{seat}]") for seat, t in enumerate(total_list)
        )
    return RoundRecord(
        deal=Deal(tuple(grids), pile), moves=tuple(moves), scores=scores, totals=totals
    )


def record_from_json(obj: Any) -> GameRecord:
    """Read the JSON twin. Raises NotationError naming the field (like `rounds[0].deal.pile`)."""
    if not isinstance(obj, dict):
        raise NotationError("record", "a JSON record is an object")
    if obj.get("format") != FORMAT:
        written = describe_json(obj.get("format"))
        raise NotationError("format", f"this reader reads the string {FORMAT!r}, not {written}")
    rules_obj = _json_field(obj, "rules", (dict,), "record", False)
    players = _json_int(rules_obj, "players", "rules", most=SEAT_MAX)
    threshold = _json_int(rules_obj, "threshold", "rules", optional=True)
    rules = Rules(
        players=players,
        push=_one_of(rules_obj, "push", VARIANTS, "slide"),
        first=_one_of(rules_obj, "first", FIRST_RULES, "lowest"),
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
            seat = _json_int(item, "seat", f"ranking[{index}]", most=SEAT_MAX)
            found[seat] = _json_int(item, "place", f"ranking[{index}]")
        if sorted(found) != list(range(players)) or len(ranking_list) != players:
            raise NotationError("ranking", f"the ranking lists every seat 0–{players - 1} once")
        places = tuple(found[seat] for seat in range(players))
    for key in ("event", "date"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise NotationError(key, "must be a string")
        if len(obj.get(key) or "") > MAX_TAG_CHARS:
            raise NotationError(key, f"{len(obj[key])} characters; at most {MAX_TAG_CHARS}")
    return GameRecord(
        rules=rules,
        rounds=rounds,
        first_player=_json_int(obj, "first_player", "record", optional=True, most=SEAT_MAX),
        seed=_json_int(obj, "seed", "record", optional=True, most=SEED_MAX),
        event=obj.get("event"),
        date=obj.get("date"),
        places=places,
    )
