"""The engine protocol (spec/protocol.md), spoken in-process on top of a Python game API.

`ProtocolAdapter(api)` answers protocol requests (dicts) by calling a game API with the
functions of `dekal_ref` (new_game, reveal, take, push, start_round, legal_actions,
format_position, round_scores, ranking, score_grid, legal_pushes, push_card, Rules, Deal).
`dekal_ref` itself and `dekal.engines.get_engine(...)` both provide it. Notation is read
here, once, so the engine under test is judged on the rules, not on our parser.

It speaks every optional feature (match, perft, public, seeded-deal, position) unless told
to claim less: `ProtocolAdapter(dekal_ref, first_rules=("chosen",), features=("public",))`
is an engine that plays only the chosen rule and single rounds, and refuses the rest as
`unsupported`, as such an engine would. With `deals="own"` it deals for itself (own-deal
mode) from its own SplitMix64 generator.

A Python implementation can be judged in-process with `--python MODULE:FACTORY`, where
FACTORY returns either such a game API or any object with `handle(request) -> reply`.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from dekal.conformance.drive._protocol import PROTOCOL_VERSION, Message, refusal
from dekal.conformance.drive._reachable import check_reachable
from dekal_ref.actions import PushMove, Reveal, Take, parse_action
from dekal_ref.deal import SplitMix64, check_players, deal_from_deck, seeded_deal, shuffled_deck
from dekal_ref.errors import IllegalAction, NotationError
from dekal_ref.notation import (
    cell_name,
    format_grid,
    parse_grid,
    parse_push,
    parse_value,
    parse_variant,
    value_symbol,
)
from dekal_ref.position import parse_position
from dekal_ref.reading import COUNT_MAX, describe_json, shown
from dekal_ref.state import GameState

FEATURES = ("match", "perft", "public", "seeded-deal", "position")
"""Every optional feature of spec/protocol.md; the adapter claims them all unless told less."""
MAX_PERFT_DEPTH = 256
"""Deeper than a whole round (16 turns of at most 13 nodes each), and shallow enough that the
recursion stays within Python's stack."""
MAX_DEAL_ROUND = 1000


class BadRequest(Exception):
    """A request the protocol cannot read (unknown command, missing field, no game).
    `field` names the request field at fault, when one is."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class Unsupported(Exception):
    """A variant or feature the engine does not claim."""


_KIND_NAMES = {str: "a string", int: "a whole number", dict: "an object", list: "a list"}
"""What each JSON type is called in a refusal (a whole number is a JSON integer: `1.0` is not
one, spec/protocol.md, "Replies that refuse")."""


def _field(request: Message, name: str, kind: type = str) -> Any:
    """The request's field `name`, of JSON type `kind` (true and false are not numbers)."""
    if name not in request:
        raise BadRequest(f"the request needs a field {name!r}", name)
    value = request[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        wanted = _KIND_NAMES.get(kind, kind.__name__)
        raise BadRequest(f"field {name!r} must be {wanted}, not {describe_json(value)}", name)
    return value


ID_LIMIT = 2**63
"""Request ids are integers with |id| < 2⁶³ (every language has such an integer)."""


def request_id(request: Message) -> int | None:
    """The request's id if it is one the protocol allows (an integer), else None: the id a
    refusal echoes when the id itself cannot be read."""
    value = request.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and -ID_LIMIT < value < ID_LIMIT:
        return value
    return None


def _rule(rules: Message, name: str) -> str:
    """A variant's name in `rules`: required, a string (spec/protocol.md, `new_game`: a
    missing field is bad_request; an unknown name is for the caller to refuse)."""
    if name not in rules:
        raise BadRequest(f"rules.{name} is missing", f"rules.{name}")
    value = rules[name]
    if not isinstance(value, str):
        raise BadRequest(
            f"rules.{name} must be a string, not {describe_json(value)}", f"rules.{name}"
        )
    return value


def _deal_grid(text: object, seat: int) -> tuple[int, ...]:
    """A deal grid as sixteen values, holes as 0. Text that is not 4 rows of 4 symbols
    (1–9, T, .) is a notation error; a hole is left for the engine to refuse (M3)."""
    rows = text.split("/") if isinstance(text, str) else []
    if len(rows) != 4 or any(len(row) != 4 for row in rows):
        shown_text = shown(text) if isinstance(text, str) else describe_json(text)
        raise NotationError("deal", f"seat {seat}'s grid {shown_text} is not 4 rows of 4 cells")
    return tuple(0 if symbol == "." else parse_value(symbol, "deal") for symbol in "".join(rows))


# Remembered: a seeded deal is a function of its three numbers alone, round r costs r
# shuffles, and a suite asks the same few deals in many cases.
@functools.lru_cache(maxsize=256)
def _seeded_deal_text(seed: int, players: int, round_number: int) -> tuple[tuple[str, ...], str]:
    """The deal of round `round_number` from `seed` as the protocol writes it: grids, pile."""
    deal = seeded_deal(seed, players, round_number)
    pile = "".join(value_symbol(value) for value in deal.pile) or "-"
    return tuple(format_grid(grid) for grid in deal.grids), pile


NOTHING_SHOWN = object()
"""No position was shown yet (or the last one shown may change): format the next."""


class ProtocolAdapter:
    """Answers protocol requests for one engine; keeps the current game state."""

    def __init__(
        self,
        api: Any,
        name: str = "dekal-ref",
        version: str = "0.1.0",
        players: tuple[int, ...] = (2, 3, 4, 5, 6),
        push_variants: tuple[str, ...] = ("slide", "eject"),
        first_rules: tuple[str, ...] = ("lowest", "chosen"),
        features: tuple[str, ...] = FEATURES,
        deals: str = "given",
        seed: int = 0,
    ) -> None:
        self.api = api
        self.name, self.version = name, version
        self.players, self.push_variants, self.first_rules = players, push_variants, first_rules
        self.features = features
        self.deals = deals  # "given" (the runner sends every deal) or "own" (it deals itself)
        self.generator = SplitMix64(seed)
        self.state: Any = None
        # The last position reply and the state it shows: the runner asks for the position
        # again after every refused probe, i.e. of the very same (immutable) state, and
        # formatting it is most of the reference's work in a suite run.
        self.shown: tuple[Any, Message] = (NOTHING_SHOWN, {})
        self.commands: dict[str, Callable[[Message], Message]] = {
            "hello": self.hello,
            "new_game": self.new_game,
            "action": self.action,
            "position": self.position,
            "legal": self.legal,
            "result": self.result,
            "new_round": self.new_round,
            "perft": self.perft,
            "deal": self.deal,
            "score": self.score,
            "pushes": self.pushes,
            "push": self.push,
            "quit": lambda request: {},
        }

    # -- the one entry point -------------------------------------------------------------
    def handle(self, request: Message) -> Message:
        """One request in, one reply out; every refusal is a reply, never an exception."""
        reply: Message = {"id": request_id(request)}
        try:
            if "id" in request and reply["id"] is None:
                raise BadRequest(f"the id must be an integer, not {describe_json(request['id'])}")
            name = _field(request, "cmd")
            command = self.commands.get(name)
            if command is None:
                raise BadRequest(f"unknown command {shown(name)}")
            reply.update(ok=True, **command(request))
        except IllegalAction as error:
            reply.update(ok=False, error=refusal("illegal", error.message, rule=error.rule))
        except NotationError as error:
            reply.update(ok=False, error=refusal("notation", error.message, field=error.field))
        except Unsupported as error:
            reply.update(ok=False, error=refusal("unsupported", str(error)))
        except BadRequest as error:
            named = {} if error.field is None else {"field": error.field}
            reply.update(ok=False, error=refusal("bad_request", str(error), **named))
        return reply

    # -- commands ------------------------------------------------------------------------
    def hello(self, request: Message) -> Message:
        return {
            "name": self.name,
            "version": self.version,
            "protocol": PROTOCOL_VERSION,
            "players": list(self.players),
            "variants": {"push": list(self.push_variants), "first": list(self.first_rules)},
            "features": list(self.features),
            **({"deals": "own"} if self.deals == "own" else {}),
        }

    def _deal(self, deal: object) -> Any:
        if not isinstance(deal, dict) or not isinstance(deal.get("grids"), list):
            raise BadRequest("a deal is {'grids': [...], 'pile': '...'}")
        if "pile" not in deal:
            raise BadRequest('deal.pile is missing (write "-" for an empty pile)', "deal.pile")
        pile_text = deal["pile"]
        if not isinstance(pile_text, str):
            raise BadRequest("the pile is a string of card values")
        for seat, text in enumerate(deal["grids"]):
            if not isinstance(text, str):
                message = f"deal.grids[{seat}] must be a string, not {describe_json(text)}"
                raise BadRequest(message, "deal.grids")
        if pile_text == "":
            raise NotationError("pile", "an empty pile is written '-'")
        pile_text = "" if pile_text == "-" else pile_text
        pile = tuple(parse_value(symbol, "pile") for symbol in pile_text)
        grids = tuple(_deal_grid(text, seat) for seat, text in enumerate(deal["grids"]))
        return self.api.Deal(grids=grids, pile=pile)

    def new_game(self, request: Message) -> Message:
        """Refusals in the order of spec/protocol.md: bad_request (a field of the wrong type
        or range), notation (a deal that does not parse), M2, unsupported, then the rules'
        own set-up checks (M3, M1, F3, F1). With a `position` (feature position), the game
        starts there instead."""
        if "position" in request:
            return self.new_game_from_position(request)
        rules = _field(request, "rules", dict)
        players = rules.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise BadRequest(
                f"rules.players must be a whole number, not {describe_json(players)}",
                "rules.players",
            )
        threshold = rules.get("threshold")
        if threshold is not None and (
            not isinstance(threshold, int)
            or isinstance(threshold, bool)
            or not 1 <= threshold <= COUNT_MAX
        ):
            raise BadRequest(
                "rules.threshold must be null or a whole number from 1 to 10^9", "rules.threshold"
            )
        first = request.get("first_player")  # a missing first_player is null
        if first is not None and (not isinstance(first, int) or isinstance(first, bool)):
            raise BadRequest("first_player must be a seat number or null", "first_player")
        deal = (
            self._own_deal(players)
            if self._deals_itself(request)
            else self._deal(request.get("deal"))
        )
        count = len(deal.grids)
        if players != count or not 2 <= players <= 6:
            given = f"{players} players with {count} grids"
            raise IllegalAction("M2", f"Dékal is 2 to 6 players, one grid each ({given})")
        push_rule, first_rule = _rule(rules, "push"), _rule(rules, "first")
        self._check_claims(players, push_rule, first_rule, threshold)
        game_rules = self.api.Rules(
            players=players, push=push_rule, first=first_rule, threshold=threshold
        )
        self.state = self.api.new_game(game_rules, deal, first)
        return {}

    def _check_claims(
        self, players: int, push_rule: object, first_rule: object, threshold: object
    ) -> None:
        """unsupported: what the rules allow and this engine did not claim in hello."""
        if push_rule not in self.push_variants or first_rule not in self.first_rules:
            raise Unsupported(f"this engine does not play {push_rule}/{first_rule}")
        if players not in self.players:
            raise Unsupported(f"this engine does not play with {players} players")
        if threshold is not None and "match" not in self.features:
            raise Unsupported("this engine does not play matches")

    def new_game_from_position(self, request: Message) -> Message:
        """Feature position: start from a full one-line position (spec/notation.md), like
        UCI's `position fen`. Refusals: notation (naming the field), M2, unsupported, then
        the rule a reachable position cannot break (dekal.conformance.drive._reachable)."""
        if "position" not in self.features:
            raise Unsupported("this engine does not start games from a position")
        text = _field(request, "position")
        state = parse_position(text)  # NotationError names the field
        check_players(state.players)
        rules = state.rules
        self._check_claims(rules.players, rules.push, rules.first, rules.threshold)
        check_reachable(state)
        self.state = self.api.parse_position(text)
        return {}

    def _game(self) -> Any:
        if self.state is None:
            raise BadRequest("no game: send new_game first")
        return self.state

    def action(self, request: Message) -> Message:
        """One action, read by dekal_ref's parse_action (spec/notation.md, "Actions")."""
        state = self._game()
        action = parse_action(_field(request, "action"))
        if isinstance(action, Reveal):
            self.state = self.api.reveal(state, action.seat, action.cell)
        elif isinstance(action, Take):
            self.state = self.api.take(state, action.seat, action.card)
        elif isinstance(action, PushMove):
            self.state = self.api.push(state, action.seat, action.push)
        return {}

    def position(self, request: Message) -> Message:
        state = self._game()
        if self.shown[0] is state:
            return dict(self.shown[1])
        reply = {"position": self.api.format_position(state)}
        if "public" in self.features:
            reply["public"] = self.api.format_position(state, public=True)
        # kept only for a state that cannot change: the reference's own GameState, a frozen
        # dataclass of tuples all the way down (tests/conformance/drive/test_adapter_positions.py
        # walks one); another engine's state (a subclass too) could change in place under a refused
        # probe
        self.shown = (state, dict(reply)) if type(state) is GameState else (NOTHING_SHOWN, {})
        return reply

    def legal(self, request: Message) -> Message:
        return {"actions": [str(action) for action in self.api.legal_actions(self._game())]}

    def result(self, request: Message) -> Message:
        state = self._game()
        try:
            standings = self.api.ranking(state)
        except ValueError as error:
            raise BadRequest(f"no result yet: {error}") from None
        scores = self.api.round_scores(state)
        return {
            "scores": [
                {
                    "seat": seat,
                    "points": score.points,
                    "remaining": score.remaining,
                    "cancelled": [cell_name(c) for c in sorted(score.cancelled)],
                }
                for seat, score in enumerate(scores)
            ],
            "totals": [standing.total for standing in sorted(standings, key=lambda s: s.seat)],
            "ranking": [{"place": s.place, "seat": s.seat} for s in standings],
        }

    def new_round(self, request: Message) -> Message:
        """Refusals: unsupported, bad_request, notation, then T5/S4, M5, M2, M3, M1."""
        if "match" not in self.features:
            raise Unsupported("this engine does not play matches")
        state = self._game()
        if self._deals_itself(request):
            players = len(self.api.format_position(state).split(" ")[4].split("|"))
            deal = self._own_deal(players)
        else:
            deal = self._deal(_field(request, "deal", dict))
        self.state = self.api.start_round(state, deal)
        return {}

    # -- own-deal mode and feature seeded-deal ----------------------------------------------
    def _deals_itself(self, request: Message) -> bool:
        """An engine in own-deal mode deals when the request's deal is null (or missing)."""
        return self.deals == "own" and request.get("deal") is None

    def _own_deal(self, players: int) -> Any:
        """The next deal of this engine's own generator (SplitMix64 from --seed): every
        deal shuffles a fresh sorted deck, continuing the generator (spec/rules.md)."""
        check_players(players)
        deal = deal_from_deck(shuffled_deck(self.generator), players)
        return self.api.Deal(grids=deal.grids, pile=deal.pile)

    def deal(self, request: Message) -> Message:
        """Feature seeded-deal: the deal of round `round` of a match played from `seed`."""
        if "seeded-deal" not in self.features:
            raise Unsupported("this engine does not make seeded deals")
        seed = _field(request, "seed", int)
        if not 0 <= seed < 2**64:
            raise BadRequest("field 'seed' must be a whole number from 0 to 2^64 - 1", "seed")
        players = _field(request, "players", int)
        round_number = _field(request, "round", int)
        if not 1 <= round_number <= MAX_DEAL_ROUND:
            raise BadRequest(
                f"field 'round' must be a whole number from 1 to {MAX_DEAL_ROUND}", "round"
            )
        check_players(players)
        grids, pile = _seeded_deal_text(seed, players, round_number)
        return {"deal": {"grids": list(grids), "pile": pile}}

    def perft(self, request: Message) -> Message:
        if "perft" not in self.features:
            raise Unsupported("this engine does not count perft")
        depth = _field(request, "depth", int)
        if not 0 <= depth <= MAX_PERFT_DEPTH:
            raise BadRequest(f"depth must be 0 to {MAX_PERFT_DEPTH}, not {depth}", "depth")
        return perft_divide(self.api, self._game(), depth)

    def score(self, request: Message) -> Message:
        result = self.api.score_grid(parse_grid(_field(request, "grid"), allow_hole=False))
        return {
            "points": result.points,
            "remaining": result.remaining,
            "cancelled": [cell_name(cell) for cell in sorted(result.cancelled)],
        }

    def pushes(self, request: Message) -> Message:
        grid_text, variant_text = _field(request, "grid"), _field(request, "variant")
        grid = parse_grid(grid_text)  # every field is read before its text (bad_request first)
        variant = parse_variant(variant_text)
        if grid.count(0) != 1:
            raise IllegalAction("T4", "a push needs a grid with exactly one hole")
        return {"pushes": [str(p) for p in self.api.legal_pushes(grid.index(0), variant)]}

    def push(self, request: Message) -> Message:
        texts = [_field(request, name) for name in ("grid", "push", "card", "variant")]
        grid = parse_grid(texts[0])  # every field is read before its text (bad_request first)
        move, card, variant = parse_push(texts[1]), parse_value(texts[2]), parse_variant(texts[3])
        if grid.count(0) != 1:
            raise IllegalAction("T4", "a push needs a grid with exactly one hole")
        return {"grid": format_grid(self.api.push_card(grid, move, card, variant))}


# -- perft under the conventions of spec/protocol.md ("perft") ---------------------------
def nodes(api: Any, state: Any) -> Iterator[tuple[str, Any]]:
    """Every node playable in `state` with the state after it.

    A joint reveal (one pick for every seat that has not picked) is one node, written
    `reveals C0,C1,…` with `-` for a seat that had already picked; takes are one per
    distinct value (legal_actions lists them so); pushes as listed.
    """
    actions = api.legal_actions(state)
    if not actions or not str(actions[0]).startswith("reveal"):
        for action in actions:
            yield str(action), api.apply(state, action)
        return
    by_seat: dict[int, list[Any]] = defaultdict(list)
    for action in actions:
        by_seat[action.seat].append(action)
    players = api.format_position(state).split(" ")[5].count(",") + 1
    seats = sorted(by_seat)
    for combination in itertools.product(*(by_seat[seat] for seat in seats)):
        after = state
        names = ["-"] * players
        for action in combination:
            after = api.apply(after, action)
            names[action.seat] = cell_name(action.cell)
        yield "reveals " + ",".join(names), after


def perft(api: Any, state: Any, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(api, after, depth - 1) for _, after in nodes(api, state))


def perft_divide(api: Any, state: Any, depth: int) -> Message:
    if depth == 0:
        return {"nodes": 1, "divide": {}}
    divide = {name: perft(api, after, depth - 1) for name, after in nodes(api, state)}
    return {"nodes": sum(divide.values()), "divide": divide}
