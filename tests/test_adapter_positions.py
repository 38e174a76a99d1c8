"""The protocol adapter answers `position` again from its last reply only for a state that
cannot change: a suite run asks for the position after every refused probe, and an engine
whose state changes in place must still be seen changing (the probe's "position unchanged"
check depends on it)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any

import dekal_ref
from dekal.conformance.adapter import ProtocolAdapter, _immutable
from dekal_ref.deal import seeded_deal


def a_game() -> Any:
    return dekal_ref.new_game(dekal_ref.Rules(players=2), seeded_deal(1, 2, 1))


@dataclass(frozen=True)
class FrozenWithAList:
    cells: list[int]


def test_the_reference_s_game_state_is_immutable_all_the_way_down() -> None:
    assert _immutable(a_game())


def test_a_frozen_dataclass_holding_a_list_is_not_immutable() -> None:
    assert not _immutable(FrozenWithAList([1, 2]))
    assert not _immutable((1, FrozenWithAList([])))


def test_an_engine_that_changes_its_frozen_state_s_list_in_place_is_seen_changing() -> None:
    """Frozen is not enough: the list inside can change, so the state is formatted again."""
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
