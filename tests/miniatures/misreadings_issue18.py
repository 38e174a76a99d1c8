"""More misreadings (tests/miniatures/misreadings.py), of the classes issue 18 found slipping
through suite v2: a seat acting in a phase it has finished, competing refusals answered in the wrong
order, lists in another order than the protocol fixes, unreachable positions loaded. Suite
v3 catches each (its probes, its ordered comparisons, its positions per rule); v2 let the
first and the last three through. Importing this module registers them in MISREADINGS."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from dekal_ref.errors import IllegalAction
from dekal_ref.state import GameState, Phase
from miniatures.misreadings import game, misreading, push, replace_everywhere


# -- issue 18's classes: finished phases, competing refusals, list order, unreachable positions
@misreading("reveal-after-own-push", "T1", "a seat done with its push reveals while others take")
def _(mp: pytest.MonkeyPatch) -> None:
    original = game.reveal

    def reveal(state: GameState, seat: int, cell: int) -> GameState:
        token, to_act = state.token, state.to_act
        if state.phase is Phase.TAKE and token is not None and to_act is not None:
            done = (seat - token) % state.players < state.taken
            if done and state.picks[seat] is None and 0 <= cell < 16:
                picks = state.picks[:seat] + (cell,) + state.picks[seat + 1 :]
                return replace(state, picks=picks)  # kept as its pick for the next turn
        return original(state, seat, cell)

    replace_everywhere(mp, original, reveal)


@misreading(
    "push-checked-before-seat", "T4", "a wrong seat's push is checked against its grid first"
)
def _(mp: pytest.MonkeyPatch) -> None:
    original = game.push

    def push_move(state: GameState, seat: int, move: Any) -> GameState:
        if state.phase is Phase.PUSH and seat != state.to_act and 0 <= seat < state.players:
            grid = state.grids[seat]
            if sum(card is None for card in grid) == 1:
                push.push_chain(push.hole_of(grid), move, state.rules.push)
        return original(state, seat, move)

    replace_everywhere(mp, original, push_move)


@misreading("take-while-pushing-is-t3", "T4", "a take while a card waits is refused with T3")
def _(mp: pytest.MonkeyPatch) -> None:
    original = game.take

    def take(state: GameState, seat: int, card: int) -> GameState:
        if state.phase is Phase.PUSH and 0 <= seat < state.players:
            raise IllegalAction("T3", "it is not this seat's turn to take")
        return original(state, seat, card)

    replace_everywhere(mp, original, take)


@misreading("seat-before-end", "M4", "a seat out of range is refused with M4 even after the end")
def _(mp: pytest.MonkeyPatch) -> None:
    for original in (game.reveal, game.take, game.push):

        def checked(state: GameState, seat: int, argument: Any, _original: Any = original) -> Any:
            if not 0 <= seat < state.players:
                raise IllegalAction("M4", f"there is no seat {seat}")
            return _original(state, seat, argument)

        replace_everywhere(mp, original, checked)


def _reorder_replies(mp: pytest.MonkeyPatch, reorder: Callable[[dict[str, Any]], None]) -> None:
    adapter = importlib.import_module("dekal.conformance.drive._adapter")
    original = adapter.ProtocolAdapter.handle

    def handle(self: Any, request: Any) -> Any:
        reply = original(self, request)
        if reply.get("ok"):
            reorder(reply)
        return reply

    mp.setattr(adapter.ProtocolAdapter, "handle", handle)


def _by_column(cells: list[str]) -> list[str]:
    return sorted(cells)  # a1, a2, a3, a4, b1…: column by column, not reading order


@misreading("cancelled-by-column", "S1", "cancelled cells are listed column by column")
def _(mp: pytest.MonkeyPatch) -> None:
    def reorder(reply: dict[str, Any]) -> None:
        if "cancelled" in reply:
            reply["cancelled"] = _by_column(reply["cancelled"])
        for score in reply.get("scores", []):
            score["cancelled"] = _by_column(score["cancelled"])

    _reorder_replies(mp, reorder)


@misreading("ties-by-descending-seat", "S3", "seats sharing a place are listed by descending seat")
def _(mp: pytest.MonkeyPatch) -> None:
    def reorder(reply: dict[str, Any]) -> None:
        if "ranking" in reply:
            reply["ranking"] = sorted(reply["ranking"], key=lambda r: (r["place"], -r["seat"]))

    _reorder_replies(mp, reorder)


@misreading("any-clock-loads", "T5", "a position loads whatever its turn and phase")
def _(mp: pytest.MonkeyPatch) -> None:
    reachable = importlib.import_module("dekal.conformance.drive._reachable")
    mp.setattr(reachable, "_check_clock", lambda state: None)


@misreading("single-round-two-loads", "M5", "a single-round game may be loaded in round 2")
def _(mp: pytest.MonkeyPatch) -> None:
    reachable = importlib.import_module("dekal.conformance.drive._reachable")
    mp.setattr(reachable, "_check_rounds", lambda state: None)


@misreading("removed-any-time", "F2", "removed cards load under any rule and round")
def _(mp: pytest.MonkeyPatch) -> None:
    reachable = importlib.import_module("dekal.conformance.drive._reachable")
    original = reachable._check_start

    def check_start(state: GameState) -> None:
        original(replace(state, removed=()))

    mp.setattr(reachable, "_check_start", check_start)
