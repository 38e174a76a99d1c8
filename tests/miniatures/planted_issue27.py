"""Single-rule faults in the situations suite v3 never reached (issue 27), each an engine:
the reference behind the protocol adapter with one rule read wrongly in one situation. The
judge's own reference is untouched (each fault wraps the game API or subclasses the adapter),
so the whole suite can be run on it in-process and every failure's blame read
(tests/conformance/judge/test_conformance_situation_faults.py). `FAULTS`: name -> (engine
maker, the rule it breaks)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import dekal_ref
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal_ref.actions import Reveal, parse_action
from dekal_ref.errors import IllegalAction
from dekal_ref.notation import Push
from dekal_ref.ranking import Standing, places, round_scores
from dekal_ref.state import Card, GameState, Phase


def api(**overrides: Any) -> SimpleNamespace:
    """dekal_ref's game API with some functions replaced."""
    names = {name: getattr(dekal_ref, name) for name in dir(dekal_ref) if not name.startswith("_")}
    return SimpleNamespace(**{**names, **overrides})


def with_first_player(find: Callable[[GameState, list[int]], GameState]) -> SimpleNamespace:
    """The API with turn 1's first player (F1-F2) found by `find` from the revealed values."""

    def reveal(state: GameState, seat: int, cell: int) -> GameState:
        after = dekal_ref.reveal(state, seat, cell)
        if state.start is not None or after.phase is not Phase.TAKE:
            return after
        picks = [cell if s == seat else pick for s, pick in enumerate(state.picks)]
        values = [state.values(s)[pick] for s, pick in enumerate(picks) if pick is not None]
        return find(replace(after, start=None, pile=state.pile, removed=state.removed), values)

    return api(reveal=reveal)


def redraws_stop_after_two() -> Any:
    """F2: seats tied after two draws stop drawing; the lowest of them starts."""

    def find(state: GameState, values: list[int]) -> GameState:
        tied = [s for s, v in enumerate(values) if v == min(values)]
        pile, removed, draws = list(state.pile), list(state.removed), 0
        while len(tied) > 1 and len(pile) >= len(tied) and draws < 2:
            drawn = {seat: pile.pop(0) for seat in tied}
            removed += [drawn[seat] for seat in tied]
            tied = [seat for seat in tied if drawn[seat] == min(drawn.values())]
            draws += 1
        return replace(state, start=min(tied), pile=tuple(pile), removed=tuple(removed))

    return with_first_player(find)


def short_pile_serves_who_it_can() -> Any:
    """F2: when the pile cannot serve every tied seat at a re-draw, the seats it can serve
    draw, and the lowest of their draws starts."""

    def find(state: GameState, values: list[int]) -> GameState:
        tied = [s for s, v in enumerate(values) if v == min(values)]
        pile, removed, draws = list(state.pile), list(state.removed), 0
        while len(tied) > 1:
            if len(pile) < len(tied):
                if draws == 0 or not pile:
                    tied = [min(tied)]
                    break
                tied = tied[: len(pile)]
            drawn = {seat: pile.pop(0) for seat in tied}
            removed += [drawn[seat] for seat in tied]
            tied = [seat for seat in tied if drawn[seat] == min(drawn.values())]
            draws += 1
        return replace(state, start=tied[0], pile=tuple(pile), removed=tuple(removed))

    return with_first_player(find)


def ranked_by(
    keys_of: Callable[[GameState], list[tuple[int, ...]]],
    shared: Callable[[list[tuple[int, ...]]], list[int]],
) -> Any:
    def ranking(state: GameState) -> list[Standing]:
        if state.phase not in (Phase.OVER, Phase.NEXT_ROUND):
            raise ValueError("ranking: the round has not been scored yet")
        scores = round_scores(state)
        where = shared(keys_of(state))
        standings = [
            Standing(where[s], s, scores[s].points, scores[s].remaining, state.totals[s])
            for s in range(state.players)
        ]
        return sorted(standings, key=lambda st: (st.place, st.seat))

    return api(ranking=ranking)


def _round_keys(state: GameState) -> list[tuple[int, ...]]:
    if state.rules.threshold is None:
        return [(s.points, s.remaining) for s in round_scores(state)]
    return [(t,) for t in state.totals]


def three_sharing_count_as_two() -> Any:
    """S3: after three or more seats sharing a place of a round, the next place counts them
    as two (1, 1, 1, 3 instead of 1, 1, 1, 4)."""

    def shared(keys: list[tuple[int, ...]]) -> list[int]:
        sport = places(keys)
        result = []
        for key, place in zip(keys, sport, strict=True):
            before = [k for k in keys if k < key]
            groups = {k: before.count(k) for k in before}
            result.append(place - sum(n - 2 for n in groups.values() if n >= 3))
        return result

    def single(state: GameState) -> list[tuple[int, ...]]:
        return _round_keys(state)

    engine = ranked_by(single, lambda keys: keys and shared(keys))
    match_ranking = dekal_ref.ranking

    def ranking(state: GameState) -> list[Standing]:
        if state.rules.threshold is not None:
            return match_ranking(state)
        return engine.ranking(state)  # type: ignore[no-any-return]

    return api(ranking=ranking)


def totals_tied_below_first_by_seat() -> Any:
    """S4: equal match totals share a place only at the top; below it the lower seat ranks
    first."""

    def ranking(state: GameState) -> list[Standing]:
        standings = dekal_ref.ranking(state)
        if state.rules.threshold is None:
            return standings
        fixed = []
        for standing in standings:
            place = standing.place
            if place > 1:
                place = place + sum(
                    1 for s in standings if s.place == standing.place and s.seat < standing.seat
                )
            fixed.append(replace(standing, place=place))
        return sorted(fixed, key=lambda s: (s.place, s.seat))

    return api(ranking=ranking)


class Adapter(ProtocolAdapter):
    """The reference's protocol adapter, for faults in what the adapter itself decides."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(dekal_ref, name="planted", **kwargs)


class PerftZeroAfterTheEnd(Adapter):
    """T5: perft at depth 0 counts no node once a single-round game is over."""

    def perft(self, request: Any) -> Any:
        reply = super().perft(request)
        state = self.state
        if (
            request.get("depth") == 0
            and state.phase is Phase.OVER
            and state.rules.threshold is None
        ):
            return {"nodes": 0, "divide": {}}
        return reply


class DealRoundsWrap(Adapter):
    """M3: a seeded deal for a round past 255 is that of round (round mod 256)."""

    def deal(self, request: Any) -> Any:
        round_number = request.get("round")
        if isinstance(round_number, int) and round_number > 255:
            request = {**request, "round": round_number % 256 or 1}
        return super().deal(request)


class ThresholdReachedStillPlays(Adapter):
    """S4: a match position whose highest total is exactly its threshold loads as still
    playing (the engine ends a match above the threshold only)."""

    def new_game_from_position(self, request: Any) -> Any:
        try:
            return super().new_game_from_position(request)
        except IllegalAction as refusal:
            state = dekal_ref.parse_position(request["position"])
            threshold = state.rules.threshold
            at = threshold is not None and max(state.totals) == threshold
            if refusal.rule == "S4" and at and state.phase is not Phase.OVER:
                self.state = state
                return {}
            raise


class RemovedOnlyOnTurnOne(Adapter):
    """F2: a position with removed cards after turn 1 is refused (the engine keeps them only
    while turn 1 lasts)."""

    def new_game_from_position(self, request: Any) -> Any:
        state = dekal_ref.parse_position(request["position"])
        if state.removed and (state.turn > 1 or state.phase in (Phase.NEXT_ROUND, Phase.OVER)):
            raise IllegalAction("F2", "removed cards leave play after turn 1")
        return super().new_game_from_position(request)


class SixGridPositionsRefused(Adapter):
    """M2: a position of six grids is refused (the engine loads 2 to 5)."""

    def new_game_from_position(self, request: Any) -> Any:
        text = request.get("position")
        if (
            isinstance(text, str)
            and len(text.split(" ")) > 4
            and text.split(" ")[4].count("|") == 5
        ):
            raise IllegalAction("M2", "positions hold 2 to 5 grids")
        return super().new_game_from_position(request)


def round_ends_after_fifteen_turns() -> Any:
    """T5: in a round loaded after turn 1, the round is scored after turn 15."""

    def push(state: GameState, seat: int, move: Push) -> GameState:
        after = dekal_ref.push(state, seat, move)
        if state.turn == 15 and after.phase is Phase.REVEAL and state.round > 1:
            done = replace(after, turn=15, phase=Phase.TAKE)
            totals = tuple(
                t + s.points for t, s in zip(state.totals, round_scores(done), strict=True)
            )
            threshold = state.rules.threshold
            over = threshold is None or max(totals) >= threshold
            return replace(
                after, turn=16, phase=Phase.OVER if over else Phase.NEXT_ROUND, totals=totals
            )
        return after

    return api(push=push)


def start_moves_at_scoring() -> Any:
    """F4: the start moves to the next seat when a match round is scored (and again when the
    next round is dealt)."""

    def push(state: GameState, seat: int, move: Push) -> GameState:
        after = dekal_ref.push(state, seat, move)
        if after.phase is Phase.NEXT_ROUND and after.start is not None and state.players > 3:
            return replace(after, start=(after.start + 1) % after.players)
        return after

    def start_round(state: GameState, deal: Any) -> GameState:
        if state.players > 3 and state.start is not None:
            state = replace(state, start=(state.start - 1) % state.players)
        return dekal_ref.start_round(state, deal)

    return api(push=push, start_round=start_round)


def lowest_takes_first_in_later_rounds() -> Any:
    """F4: on turn 1 of a later round the seat of the single lowest card takes the token (the
    engine applies F1 again instead of keeping the start F4 rotated)."""

    def reveal(state: GameState, seat: int, cell: int) -> GameState:
        after = dekal_ref.reveal(state, seat, cell)
        if state.round == 1 or state.turn != 1 or after.phase is not Phase.TAKE:
            return after
        picks = [cell if s == seat else pick for s, pick in enumerate(state.picks)]
        values = [state.values(s)[pick] for s, pick in enumerate(picks) if pick is not None]
        if values.count(min(values)) != 1:
            return after
        return replace(after, start=values.index(min(values)))

    return api(reveal=reveal)


# -- own-deal engines that deal wrongly --------------------------------------------------------
class OwnDealer(Adapter):
    def __init__(self) -> None:
        super().__init__(deals="own", seed=7)


class DealsNewRoundFaceUp(OwnDealer):
    """M3: a new round it deals itself is dealt face up."""

    def new_round(self, request: Any) -> Any:
        reply = super().new_round(request)
        if request.get("deal") is None:
            grids = tuple(
                tuple(Card(c.value, False) if c else c for c in g) for g in self.state.grids
            )
            self.state = replace(self.state, grids=grids)
        return reply


class DealsFifteenCards(OwnDealer):
    """M3: its own new round deals 15 cards a seat (the 16th to the pile)."""

    def new_round(self, request: Any) -> Any:
        reply = super().new_round(request)
        if request.get("deal") is None:
            grids = [list(g) for g in self.state.grids]
            pile = list(self.state.pile)
            for grid in grids:
                pile.append(grid[15].value)
                grid[15] = Card(grid[15].value, True)
            text = dekal_ref.format_position(self.state).split(" ")
            rows = [g.split("/") for g in text[4].split("|")]
            text[4] = "|".join("/".join([*r[:3], r[3][:3]]) for r in rows)
            text[7] = text[7] + "".join("123456789T"[v - 1] for v in pile[len(self.state.pile) :])
            self.shown_text = " ".join(text)
        return reply

    def position(self, request: Any) -> Any:
        reply = super().position(request)
        shown = getattr(self, "shown_text", None)
        if shown is not None and self.state.turn == 1 and self.state.phase is Phase.REVEAL:
            return {**reply, "position": shown}
        self.shown_text = None
        return reply

    def new_game(self, request: Any) -> Any:
        self.shown_text = None
        return super().new_game(request)


class KeepsRemovedCardsOut(OwnDealer):
    """M1: a new game it deals itself lacks the pile's top card (99 cards: a card drawn by
    F2 in an earlier game kept out of the deck)."""

    def new_game(self, request: Any) -> Any:
        reply = super().new_game(request)
        if request.get("deal", {}) is None and "position" not in request:
            self.state = replace(self.state, pile=self.state.pile[1:])
        return reply


# -- own-deal engines that deal right and play their own deal wrongly ---------------------------
# Their deals are the rules' (deal_fault finds nothing) and a position loaded from the case
# plays right: only a round played on from the engine's own deal shows them.
def _lowest_single_seat(state: GameState, seat: int, cell: int) -> int | None:
    """The seat whose card is the single lowest of the reveal `seat` completes at `cell`."""
    picks = [cell if s == seat else pick for s, pick in enumerate(state.picks)]
    values = [state.values(s)[pick] for s, pick in enumerate(picks) if pick is not None]
    return values.index(min(values)) if values.count(min(values)) == 1 else None


class LowestFirstInRoundsItDeals(OwnDealer):
    """F4: on turn 1 of a round it dealt itself, the seat of the single lowest card takes the
    token (its own new round is set up as a new game, F1 again); a round it is given is right."""

    dealt_round = False

    def new_game(self, request: Any) -> Any:
        self.dealt_round = False
        return super().new_game(request)

    def new_round(self, request: Any) -> Any:
        reply = super().new_round(request)
        self.dealt_round = request.get("deal") is None
        return reply

    def action(self, request: Any) -> Any:
        before = self.state
        reply = super().action(request)
        action = parse_action(request["action"])
        completes = before.phase is Phase.REVEAL and self.state.phase is Phase.TAKE
        if self.dealt_round and before.turn == 1 and completes and isinstance(action, Reveal):
            lowest = _lowest_single_seat(before, action.seat, action.cell)
            if lowest is not None:
                self.state = replace(self.state, start=lowest)
        return reply


class DrawsFromTheBottomOfItsOwnPile(OwnDealer):
    """F2: in a game it dealt itself, seats tied for the lowest card draw from the bottom of
    the set-aside pile (its own pile is kept the other way up); a given pile is drawn right."""

    dealt_game = False

    def new_game(self, request: Any) -> Any:
        reply = super().new_game(request)
        self.dealt_game = request.get("deal", {}) is None and "position" not in request
        return reply

    def action(self, request: Any) -> Any:
        before = self.state
        action = parse_action(request["action"]) if isinstance(request.get("action"), str) else None
        ties_now = self.dealt_game and isinstance(action, Reveal) and before.phase is Phase.REVEAL
        if not ties_now or before.round != 1 or before.turn != 1:
            return super().action(request)
        self.state = replace(before, pile=before.pile[::-1])
        try:
            reply = super().action(request)
        finally:
            self.state = replace(self.state, pile=self.state.pile[::-1])
        return reply


FAULTS: dict[str, tuple[Callable[[], Any], str]] = {
    "re-draws stop after two": (redraws_stop_after_two, "F2"),
    "a short pile serves the seats it can": (short_pile_serves_who_it_can, "F2"),
    "three sharing a place count as two": (three_sharing_count_as_two, "S3"),
    "match totals tied below first broken by seat": (totals_tied_below_first_by_seat, "S4"),
    "perft depth 0 counts nothing after the end": (PerftZeroAfterTheEnd, "T5"),
    "seeded deals wrap after round 255": (DealRoundsWrap, "M3"),
    "a total at the threshold loads as playing": (ThresholdReachedStillPlays, "S4"),
    "removed cards refused after turn 1": (RemovedOnlyOnTurnOne, "F2"),
    "six-grid positions refused": (SixGridPositionsRefused, "M2"),
    "a later round ends after turn 15": (round_ends_after_fifteen_turns, "T5"),
    "the start moves at scoring": (start_moves_at_scoring, "F4"),
    "the lowest card takes first in later rounds": (lowest_takes_first_in_later_rounds, "F4"),
    "own deal: a new round dealt face up": (DealsNewRoundFaceUp, "M3"),
    "own deal: fifteen cards a seat": (DealsFifteenCards, "M3"),
    "own deal: a new game without one card": (KeepsRemovedCardsOut, "M1"),
    "own deal: the lowest card takes first in rounds it deals": (LowestFirstInRoundsItDeals, "F4"),
    "own deal: ties draw from the bottom of its own pile": (DrawsFromTheBottomOfItsOwnPile, "F2"),
}
