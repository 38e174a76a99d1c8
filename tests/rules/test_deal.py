"""Specification of seeded deals (rules M1, M3, M5; spec/rules.md, "Seeded deals")."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal_ref.deal import DECK, SplitMix64, seeded_deal, seeded_deals
from dekal_ref.errors import NotationError


def test_splitmix64_matches_its_published_first_output_for_seed_zero() -> None:
    # The first output of SplitMix64 seeded with 0, as published with the algorithm (Vigna).
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


@given(st.integers(0, 2**64 - 1), st.integers(2, 6))
def test_M1_M3_a_deal_is_the_hundred_cards(seed: int, players: int) -> None:
    deal = seeded_deal(seed, players)
    cards = [v for grid in deal.grids for v in grid] + list(deal.pile)
    assert Counter(cards) == Counter(DECK)
    assert all(len(grid) == 16 for grid in deal.grids)
    assert len(deal.pile) == 100 - 16 * players


@given(st.integers(0, 2**64 - 1))
def test_a_seed_always_deals_the_same_cards(seed: int) -> None:
    assert seeded_deal(seed, 4) == seeded_deal(seed, 4)


def test_M5_each_round_of_a_match_is_dealt_anew() -> None:
    first, second = seeded_deals(1, 3, rounds=2)
    assert first != second
    assert seeded_deal(1, 3, round_number=2) == second


def test_seeded_deal_refuses_a_seed_outside_0_to_2_64_minus_1() -> None:
    """Seeded deals: 0 ≤ seed < 2^64; 2^64 would silently deal seed 0's cards."""
    for seed in (2**64, -1):
        with pytest.raises(NotationError, match="seed"):
            seeded_deal(seed, 2)
