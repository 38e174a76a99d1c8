"""The protocol adapter answers `position` again from its last reply only for a state that
cannot change: a suite run asks for the position after every refused probe, and an engine
whose state changes in place must still be seen changing (the probe's "position unchanged"
check depends on it)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum
from types import SimpleNamespace
from typing import Any

import dekal_ref
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal_ref.deal import seeded_deal


def immutable(value: object) -> bool:
    """Built only of numbers, strings, enums, tuples, frozensets and frozen dataclasses, all
    the way down: a value that can never change once made."""
    if value is None or isinstance(value, int | float | str | bytes | Enum):
        return True
    if isinstance(value, tuple | frozenset):
        return all(immutable(item) for item in value)
    params = getattr(type(value), "__dataclass_params__", None)
    if params is None or not params.frozen:
        return False
    return all(immutable(getattr(value, field.name)) for field in fields(value))  # type: ignore[arg-type]


def a_game() -> Any:
    return dekal_ref.new_game(dekal_ref.Rules(players=2), seeded_deal(1, 2, 1))


@dataclass(frozen=True)
class FrozenWithAList:
    cells: list[int]


def test_the_reference_s_game_state_is_immutable_all_the_way_down() -> None:
    """What lets the adapter answer a reference state's position again without formatting."""
    assert immutable(a_game())


def test_an_engine_that_changes_its_frozen_state_s_list_in_place_is_seen_changing() -> None:
    """Only the reference's own state is answered again: another frozen state can hold a
    list that changes in place, so it is formatted at every request."""
    state = FrozenWithAList([1])
    api = SimpleNamespace(format_position=lambda state, public=False: f"cells {state.cells}")
    adapter = ProtocolAdapter(api, name="in-place")
    adapter.state = state
    before = adapter.position({})["position"]
    state.cells.append(2)  # a refused action that moved something anyway
    assert (before, adapter.position({})["position"]) == ("cells [1]", "cells [1, 2]")


def test_an_immutable_state_asked_again_gets_the_same_reply_and_a_new_one_after_a_move() -> None:
    adapter = ProtocolAdapter(dekal_ref, name="ref")
    adapter.state = a_game()
    first = adapter.position({})
    assert adapter.position({}) == first
    adapter.state = replace(adapter.state, turn=adapter.state.turn + 1)
    assert adapter.position({}) != first
