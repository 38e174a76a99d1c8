"""The Python APIs dekal.kernel and dekal.openspiel refuse what they cannot play: seeds and
policies outside their range, more seats than the deck deals (M2), cards the deck lacks."""

from __future__ import annotations

import pytest

from dekal_ref import Rules

# --- the Python APIs: dekal.kernel and dekal.openspiel refuse what they cannot play ----------


@pytest.mark.parametrize(
    ("seeds", "policies"),
    [
        ([-1], [0, 0]),
        ([2**64], [0, 0]),
        ([1.5], [0, 0]),
        ([float("nan")], [0, 0]),
        ([[1, 2]], [0, 0]),
        (["x"], [0, 0]),
        ([1], [0.5, 1]),
        ([1], [0, 7]),
        ([1], [0]),
    ],
    ids=["negative", "2**64", "a fraction", "nan", "nested", "text", "a fractional policy",
         "an unknown policy", "too few policies"],
)  # fmt: skip
def test_the_kernel_refuses_seeds_and_policies_it_cannot_use(
    seeds: list[object], policies: list[object]
) -> None:
    kernel = pytest.importorskip("dekal.kernel")
    with pytest.raises(ValueError, match="seeds|policies"):
        kernel.play_games(Rules(players=2), seeds, policies)  # type: ignore[arg-type]


def test_the_kernel_refuses_seven_seats_rather_than_deal_past_the_deck() -> None:
    """M2: 7 x 16 cards is more than the 100 of the deck; the compiled code must not try."""
    kernel = pytest.importorskip("dekal.kernel")
    from dekal_ref.errors import IllegalAction

    with pytest.raises(IllegalAction) as refused:
        kernel.play_games(Rules(players=7), [1], [0] * 7)
    assert refused.value.rule == "M2"


def test_the_kernel_refuses_a_negative_seed_for_one_game_too() -> None:
    kernel = pytest.importorskip("dekal.kernel")
    with pytest.raises(ValueError, match="seeds"):
        kernel.game_actions(Rules(players=2), -5, [0, 0])


def test_openspiel_deals_only_the_cards_of_the_deck_and_speaks_only_for_seats() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import dekal.openspiel  # noqa: F401 - registers the game

    state = pyspiel.load_game("dekal", {"players": 2}).new_initial_state()
    with pytest.raises(ValueError, match="value 11"):
        state.apply_action(10)  # M1: values are 1-10 (outcomes 0-9)
    for _ in range(10):
        state.apply_action(0)
    with pytest.raises(ValueError, match="value 1 is left"):
        state.apply_action(0)  # an eleventh 1
    with pytest.raises(ValueError, match="not a seat"):
        state.observation_string(9)
    with pytest.raises(ValueError, match="not a seat"):
        state.information_state_string(-5)


def test_the_kernel_reads_a_list_of_seeds_past_2_63_exactly() -> None:
    """numpy guesses float64 for [2**63 + 5, 3]; the seeds must stay whole."""
    kernel = pytest.importorskip("dekal.kernel")
    import numpy as np

    seeds = [2**63 + 5, 3]
    from_list = kernel.play_games(Rules(players=2), seeds, [0, 1])
    from_array = kernel.play_games(Rules(players=2), np.array(seeds, np.uint64), [0, 1])
    assert from_list.scores.tolist() == from_array.scores.tolist()
