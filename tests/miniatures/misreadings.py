"""Plausible misreadings of the rules, each planted alone in the reference engine.

An implementer who reads one rule wrongly writes an engine that is right everywhere else.
Each misreading below is such an engine: the reference with one rule changed, the way a
reader of spec/rules.md (or of one of the French sources) could get it wrong. The suite must
fail every one of them (tests/conformance/judge/test_suite_catches_misreadings.py); that is the
suite's power, measured on engines that differ from the reference in meaning, not in syntax
(bench/mutate.py measures the syntactic side).

A misreading patches functions by identity in every dekal_ref module and in the protocol
adapter, so a function imported under its own name elsewhere is replaced there too.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest

from dekal_ref.errors import IllegalAction
from dekal_ref.notation import HOLE, SIZE, cell_at, column_of, row_of
from dekal_ref.scoring import Score
from dekal_ref.state import GameState, Phase

Patch = Callable[[pytest.MonkeyPatch], None]

# The modules themselves: `dekal_ref.push` and `dekal_ref.ranking` are also names of functions
# that the package re-exports, so they are looked up in sys.modules.
game = importlib.import_module("dekal_ref.game")
push = importlib.import_module("dekal_ref.push")
ranking = importlib.import_module("dekal_ref.ranking")
scoring = importlib.import_module("dekal_ref.scoring")
deal = importlib.import_module("dekal_ref.deal")
position = importlib.import_module("dekal_ref.position")


@dataclass(frozen=True)
class Misreading:
    name: str
    rule: str  # the rule read wrongly
    what: str
    plant: Patch


def replace_everywhere(monkeypatch: pytest.MonkeyPatch, original: object, new: object) -> None:
    """Bind `new` wherever `original` is bound in the reference and the adapter."""
    for name, module in list(sys.modules.items()):
        if not (name.startswith("dekal_ref") or name.startswith("dekal.conformance")):
            continue
        for attribute, value in list(vars(module).items()):
            if value is original:
                monkeypatch.setattr(module, attribute, new)


MISREADINGS: list[Misreading] = []


def misreading(name: str, rule: str, what: str) -> Callable[[Patch], Patch]:
    def register(plant: Patch) -> Patch:
        MISREADINGS.append(Misreading(name, rule, what, plant))
        return plant

    return register


# -- S1, S2: cancellation and score ------------------------------------------------------
def _cancel_with(neighbours: Callable[[int], list[int]], smallest_group: int = 2) -> Any:
    def cancelled_cells(grid: Any) -> frozenset[int]:
        found: set[int] = set()
        for start, value in enumerate(grid):
            if value == HOLE or start in found:
                continue
            group, frontier = {start}, [start]
            while frontier:
                cell = frontier.pop()
                for other in neighbours(cell):
                    if other not in group and grid[other] == value:
                        group.add(other)
                        frontier.append(other)
            if len(group) >= smallest_group:
                found |= group
        return frozenset(found)

    return cancelled_cells


def _with_diagonals(cell: int) -> list[int]:
    row, column = row_of(cell), column_of(cell)
    return [
        cell_at(row + dr, column + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0) and 0 <= row + dr < SIZE and 0 <= column + dc < SIZE
    ]


@misreading("diagonals-count", "S1", "diagonal neighbours cancel too")
def _(mp: pytest.MonkeyPatch) -> None:
    replace_everywhere(mp, scoring.cancelled_cells, _cancel_with(_with_diagonals))


@misreading("groups-of-three", "S1", "only groups of three or more equal cards cancel")
def _(mp: pytest.MonkeyPatch) -> None:
    replace_everywhere(mp, scoring.cancelled_cells, _cancel_with(scoring.neighbours, 3))


@misreading("pairs-only", "S1", "only groups of exactly two equal cards cancel")
def _(mp: pytest.MonkeyPatch) -> None:
    whole = _cancel_with(scoring.neighbours)

    def pairs(grid: Any) -> frozenset[int]:
        cells = whole(grid)
        return frozenset(
            c
            for c in cells
            if sum(o in cells and grid[o] == grid[c] for o in scoring.neighbours(c)) == 1
            and all(
                sum(p in cells and grid[p] == grid[o] for p in scoring.neighbours(o)) == 1
                for o in scoring.neighbours(c)
                if o in cells and grid[o] == grid[c]
            )
        )

    replace_everywhere(mp, scoring.cancelled_cells, pairs)


def _score_with(
    points: Callable[[list[int]], int], remaining: Callable[[Any, frozenset[int]], int]
) -> Any:
    def score_grid(grid: Any) -> Score:
        cancelled = scoring.cancelled_cells(grid)
        left = [v for c, v in enumerate(grid) if v != HOLE and c not in cancelled]
        return Score(points(left), remaining(grid, cancelled), cancelled)

    return score_grid


@misreading("ten-scores-one", "S2", "a ten left in the grid scores 1 point")
def _(mp: pytest.MonkeyPatch) -> None:
    new = _score_with(lambda left: sum(1 if v == 10 else v for v in left), lambda g, c: 16 - len(c))
    replace_everywhere(mp, scoring.score_grid, new)


# -- S3, S4: winners and places ----------------------------------------------------------
def _ranking_with(
    key: Callable[[GameState, Score, int], tuple[int, ...]], dense: bool = False
) -> Any:
    def new_ranking(state: GameState) -> list[ranking.Standing]:
        if state.phase not in (Phase.OVER, Phase.NEXT_ROUND):
            raise ValueError("ranking: the round has not been scored yet")
        scores = ranking.round_scores(state)
        keys = [key(state, s, seat) for seat, s in enumerate(scores)]
        if dense:
            distinct = sorted(set(keys))
            places = [1 + distinct.index(k) for k in keys]
        else:
            places = ranking.places(keys)
        standings = [
            ranking.Standing(
                p, seat, scores[seat].points, scores[seat].remaining, state.totals[seat]
            )
            for seat, p in enumerate(places)
        ]
        return sorted(standings, key=lambda s: (s.place, s.seat))

    return new_ranking


def _right_key(state: GameState, score: Score, seat: int) -> tuple[int, ...]:
    if state.rules.threshold is None:
        return (score.points, score.remaining)
    return (state.totals[seat],)


@misreading("tie-more-cards", "S3", "a tie on points goes to the seat with more cards left")
def _(mp: pytest.MonkeyPatch) -> None:
    def key(state: GameState, score: Score, seat: int) -> tuple[int, ...]:
        right = _right_key(state, score, seat)
        return (score.points, -score.remaining) if state.rules.threshold is None else right

    replace_everywhere(mp, ranking.ranking, _ranking_with(key))


@misreading("tie-shared-on-points", "S3", "a tie on points is shared; cards left are ignored")
def _(mp: pytest.MonkeyPatch) -> None:
    def key(state: GameState, score: Score, seat: int) -> tuple[int, ...]:
        return (score.points,) if state.rules.threshold is None else _right_key(state, score, seat)

    replace_everywhere(mp, ranking.ranking, _ranking_with(key))


@misreading("dense-places", "S3", "shared places are numbered 1, 1, 2 instead of 1, 1, 3")
def _(mp: pytest.MonkeyPatch) -> None:
    replace_everywhere(mp, ranking.ranking, _ranking_with(_right_key, dense=True))


@misreading("highest-wins", "S3", "the highest score wins a round")
def _(mp: pytest.MonkeyPatch) -> None:
    # a single round only: a match ranked by the highest total would break S4 as well
    def key(state: GameState, score: Score, seat: int) -> tuple[int, ...]:
        right = _right_key(state, score, seat)
        return tuple(-k for k in right) if state.rules.threshold is None else right

    replace_everywhere(mp, ranking.ranking, _ranking_with(key))


@misreading("match-ties-by-cards", "S4", "equal match totals are split by this round's cards left")
def _(mp: pytest.MonkeyPatch) -> None:
    def key(state: GameState, score: Score, seat: int) -> tuple[int, ...]:
        right = _right_key(state, score, seat)
        return right if state.rules.threshold is None else (*right, score.remaining)

    replace_everywhere(mp, ranking.ranking, _ranking_with(key))


def _end_turn_with(over: Callable[[tuple[int, ...], int], bool]) -> Any:
    def end_turn(state: GameState) -> GameState:
        if state.turn < 16:
            return replace(state, phase=Phase.REVEAL, turn=state.turn + 1)
        points = [score.points for score in ranking.round_scores(state)]
        totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
        threshold = state.rules.threshold
        done = threshold is None or over(totals, threshold)
        return replace(state, phase=Phase.OVER if done else Phase.NEXT_ROUND, totals=totals)

    return end_turn


@misreading("threshold-strict", "S4", "the match ends only when a total exceeds the threshold")
def _(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(game, "_end_turn", _end_turn_with(lambda totals, t: max(totals) > t))


@misreading("threshold-all", "S4", "the match ends only when every total reaches the threshold")
def _(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(game, "_end_turn", _end_turn_with(lambda totals, t: min(totals) >= t))


# -- F1–F4: the first player -------------------------------------------------------------
def _first_player_with(
    lowest: Callable[[list[int]], int],
    draw_order: Callable[[list[int]], list[int]] = sorted,
    best_draw: Callable[[list[int]], int] = min,
    short_pile: Callable[[list[int]], int] = min,
    redraw: bool = True,
    keep_drawn: bool = False,
) -> Any:
    def first_player(state: GameState, revealed: list[int]) -> GameState:
        low = lowest(revealed)
        tied = [seat for seat, value in enumerate(revealed) if value == low]
        pile, removed = list(state.pile), list(state.removed)
        while len(tied) > 1:
            if len(pile) < len(tied):
                tied = [short_pile(tied)]
                break
            draws = {seat: pile.pop(0) for seat in draw_order(tied)}
            removed.extend(draws[seat] for seat in draw_order(tied))
            best = best_draw(list(draws.values()))
            tied = [seat for seat in sorted(tied) if draws[seat] == best]
            if not redraw:
                tied = tied[:1]
        if keep_drawn:
            pile, removed = list(state.pile), []
        return replace(state, start=tied[0], pile=tuple(pile), removed=tuple(removed))

    return first_player


@misreading("highest-card-starts", "F1", "the highest revealed card takes the token")
def _(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(game, "_first_player_by_lowest_card", _first_player_with(max))


@misreading("f2-highest-draw", "F2", "the highest tie-break draw wins")
def _(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(game, "_first_player_by_lowest_card", _first_player_with(min, best_draw=max))


@misreading("f2-draws-counter-clockwise", "F2", "tied seats draw from the highest seat down")
def _(mp: pytest.MonkeyPatch) -> None:
    order = _first_player_with(min, draw_order=lambda tied: sorted(tied, reverse=True))
    mp.setattr(game, "_first_player_by_lowest_card", order)


@misreading("f2-short-pile-highest", "F2", "a short pile gives the token to the highest tied seat")
def _(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(game, "_first_player_by_lowest_card", _first_player_with(min, short_pile=max))


@misreading("f2-no-redraw", "F2", "seats tied again after a draw do not draw again")
def _(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(game, "_first_player_by_lowest_card", _first_player_with(min, redraw=False))


@misreading("f2-drawn-cards-return", "F2", "the drawn cards go back: pile and removed unchanged")
def _(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(game, "_first_player_by_lowest_card", _first_player_with(min, keep_drawn=True))


def _start_round_with(rotate: Callable[[GameState], int | None]) -> Any:
    original = game.start_round

    def start_round(state: GameState, deal: Any) -> GameState:
        started = original(state, deal)
        return replace(started, start=rotate(state))

    return start_round


@misreading("no-rotation", "F4", "each round starts with the same seat")
def _(mp: pytest.MonkeyPatch) -> None:
    replace_everywhere(mp, game.start_round, _start_round_with(lambda s: s.start))


@misreading("rotation-right", "F4", "the start seat moves right (i -> i-1) each round")
def _(mp: pytest.MonkeyPatch) -> None:
    rotate = _start_round_with(lambda s: ((s.start or 0) - 1) % s.players)
    replace_everywhere(mp, game.start_round, rotate)


@misreading("f1-every-round", "F4", "every round's first player is found again by the lowest card")
def _(mp: pytest.MonkeyPatch) -> None:
    def rotate(state: GameState) -> int | None:
        return None if state.rules.first == "lowest" else ((state.start or 0) + 1) % state.players

    replace_everywhere(mp, game.start_round, _start_round_with(rotate))


@misreading("token-right", "T5", "the token passes right")
def _(mp: pytest.MonkeyPatch) -> None:
    def token(state: GameState) -> int | None:
        return None if state.start is None else (state.start - state.turn + 1) % state.players

    mp.setattr(GameState, "token", property(token))


@misreading("take-counter-clockwise", "T3", "seats take from the token counter-clockwise")
def _(mp: pytest.MonkeyPatch) -> None:
    def to_act(state: GameState) -> int | None:
        token = state.token
        if token is None or state.phase not in (Phase.TAKE, Phase.PUSH):
            return None
        offset = state.taken if state.phase is Phase.TAKE else state.taken - 1
        return (token - offset) % state.players

    mp.setattr(GameState, "to_act", property(to_act))


# -- P1, P2: pushes ----------------------------------------------------------------------
@misreading("into-hole", "P1", "a card may enter from the edge the hole touches, straight in")
def _(mp: pytest.MonkeyPatch) -> None:
    original = push.push_chain

    # slide pushes only: P2 forbids direct placement in its own words, so a misreading of
    # both variants would break two rules
    def chain(hole: int, move: Any, variant: str = "slide") -> list[int]:
        try:
            return original(hole, move, variant)
        except IllegalAction as error:
            if "straight into the hole" in error.message and variant == "slide":
                return [hole]
            raise

    replace_everywhere(mp, push.push_chain, chain)


@misreading(
    "eject-cards-fall-out", "P2", "a push along a full line drops the far card; the hole stays"
)
def _(mp: pytest.MonkeyPatch) -> None:
    original = push.push_chain

    def chain(hole: int, move: Any, variant: str = "slide") -> list[int]:
        cells = original(hole, move, variant)
        if variant == "eject" and cells[-1] == hole and hole not in cells[:-1] and len(cells) == 5:
            return cells[:4]
        return cells

    replace_everywhere(mp, push.push_chain, chain)


@misreading("eject-only-hole-lines", "P2", "eject pushes are only allowed along the hole's lines")
def _(mp: pytest.MonkeyPatch) -> None:
    original = push.push_chain

    def chain(hole: int, move: Any, variant: str = "slide") -> list[int]:
        cells = original(hole, move, variant)
        if variant == "eject" and len(cells) == 5:
            raise IllegalAction("P2", "not along the hole's lines")
        return cells

    replace_everywhere(mp, push.push_chain, chain)


# -- M1–M5, T1, T4, B1: set-up and refusals ----------------------------------------------
@misreading("no-deck-check", "M1", "a deal is not checked to be the 100 cards")
def _(mp: pytest.MonkeyPatch) -> None:
    # `dealt`, not `deal`: the module `deal` is read inside (naming the argument `deal` made
    # this misreading crash on every set-up instead of skipping the count)
    def check_deal(dealt: Any) -> None:
        deal.check_players(dealt.players)
        for seat, grid in enumerate(dealt.grids):
            if len(grid) != 16 or any(not 1 <= v <= 10 for v in grid):
                raise IllegalAction("M3", f"seat {seat}'s grid must be 16 cards")

    replace_everywhere(mp, deal.check_deal, check_deal)


@misreading("seven-players", "M2", "up to 7 players are accepted")
def _(mp: pytest.MonkeyPatch) -> None:
    def check_players(players: int) -> None:
        if not 2 <= players <= 7:
            raise IllegalAction("M2", "2 to 7 players")

    replace_everywhere(mp, deal.check_players, check_players)


@misreading("reveal-face-up", "T1", "a face-up card may be revealed again")
def _(mp: pytest.MonkeyPatch) -> None:
    def face_down_cells(state: GameState, seat: int) -> list[int]:
        return [cell for cell, card in enumerate(state.grids[seat]) if card is not None]

    mp.setattr(GameState, "face_down_cells", face_down_cells)
    original = game.reveal

    def reveal(state: GameState, seat: int, cell: int) -> GameState:
        card = state.grids[seat][cell] if 0 <= cell < 16 and 0 <= seat < state.players else None
        if card is not None and not card.face_down and state.phase is Phase.REVEAL:
            down = replace(card, face_down=True)
            grid = state.grids[seat][:cell] + (down,) + state.grids[seat][cell + 1 :]
            state = replace(state, grids=state.grids[:seat] + (grid,) + state.grids[seat + 1 :])
        return original(state, seat, cell)

    replace_everywhere(mp, game.reveal, reveal)


@misreading("holding-is-T3", "T4", "taking while holding a card is refused as T3, not T4")
def _(mp: pytest.MonkeyPatch) -> None:
    original = game.take

    def take(state: GameState, seat: int, card: int) -> GameState:
        if state.phase is Phase.PUSH and state.hand is not None and seat == state.to_act:
            raise IllegalAction("T3", "push first")
        return original(state, seat, card)

    replace_everywhere(mp, game.take, take)


def _public_shows_full(mp: pytest.MonkeyPatch, field: int) -> None:
    """The public view shows one field (by index) as the full position has it."""
    original = position.format_position

    def format_position(state: GameState, public: bool = False) -> str:
        line = original(state, public)
        if not public:
            return line
        fields, full = line.split(" "), original(state).split(" ")
        fields[field] = full[field]
        return " ".join(fields)

    replace_everywhere(mp, original, format_position)


@misreading("public-shows-picks", "M3", "the public view shows which cell each seat picked")
def _(mp: pytest.MonkeyPatch) -> None:
    _public_shows_full(mp, 5)


@misreading("round-needs-no-score", "M5", "a new round may start before the round is scored")
def _(mp: pytest.MonkeyPatch) -> None:
    original = game.start_round

    def start_round(state: GameState, deal: Any) -> GameState:
        if state.phase is not Phase.OVER and state.start is not None:
            state = replace(state, phase=Phase.NEXT_ROUND)
        return original(state, deal)

    replace_everywhere(mp, game.start_round, start_round)


@misreading("removed-kept", "M5", "cards drawn in a tie stay in `removed` in the next round")
def _(mp: pytest.MonkeyPatch) -> None:
    original = game.start_round

    def start_round(state: GameState, deal: Any) -> GameState:
        return replace(original(state, deal), removed=state.removed)

    replace_everywhere(mp, game.start_round, start_round)


@misreading("sides-swapped", "P1", "L means the card enters from the right (and T from the bottom)")
def _(mp: pytest.MonkeyPatch) -> None:
    original = push.push_chain
    mirror = {"L": "R", "R": "L", "T": "B", "B": "T"}

    # slide pushes only: mirrored eject pushes along full lines would break P2 as well
    def chain(hole: int, move: Any, variant: str = "slide") -> list[int]:
        if variant != "slide" or move.side not in mirror:
            return original(hole, move, variant)
        return original(hole, replace(move, side=mirror[move.side]), variant)

    replace_everywhere(mp, original, chain)


@misreading("chosen-ignored", "F3", "with the chosen rule, seat 0 starts whoever was chosen")
def _(mp: pytest.MonkeyPatch) -> None:
    original = game.new_game

    def new_game(rules: Any, dealt: Any, first_player: int | None = None) -> GameState:
        state = original(rules, dealt, first_player)
        return replace(state, start=0) if rules.first == "chosen" else state

    replace_everywhere(mp, original, new_game)


@misreading("tie-no-draw", "F2", "a tie for the lowest card goes to the lowest tied seat, no draw")
def _(mp: pytest.MonkeyPatch) -> None:
    def first_player(state: GameState, revealed: list[int]) -> GameState:
        return replace(state, start=revealed.index(min(revealed)))

    mp.setattr(game, "_first_player_by_lowest_card", first_player)


@misreading("totals-not-carried", "S4", "each round's totals start again from zero")
def _(mp: pytest.MonkeyPatch) -> None:
    original = game.start_round

    def start_round(state: GameState, dealt: Any) -> GameState:
        return replace(original(state, dealt), totals=(0,) * state.players)

    replace_everywhere(mp, original, start_round)


@misreading("notation-as-bad-request", "B1", "text that does not parse is refused as bad_request")
def _(mp: pytest.MonkeyPatch) -> None:
    adapter = importlib.import_module("dekal.conformance.drive._adapter")
    original = adapter.ProtocolAdapter.handle

    def handle(self: Any, request: Any) -> Any:
        reply = original(self, request)
        error = reply.get("error")
        if isinstance(error, dict) and error.get("kind") == "notation":
            reply["error"] = {**error, "kind": "bad_request"}
        return reply

    mp.setattr(adapter.ProtocolAdapter, "handle", handle)


@misreading("public-shows-pile", "M3", "the public view shows the set-aside pile's cards")
def _(mp: pytest.MonkeyPatch) -> None:
    _public_shows_full(mp, 7)
