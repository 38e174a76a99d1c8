"""A position with unknown cards is read and validated as spec/solo-unknown.md says (U1, U2):
a bad one is refused naming the field, never half-solved."""

from __future__ import annotations

import pytest

from dekal.proofs._unknown.position import UNKNOWN, deck_less, format_unknown_grid, make_unknown
from dekal.proofs.puzzle import PuzzleError


def test_a_question_mark_is_a_face_down_card_of_unknown_value_U1() -> None:
    position = make_unknown("5T3?/1?44/9999/TT11")
    assert position.face_down == (3, 5)
    assert position.grid[3] == position.grid[5] == UNKNOWN
    assert format_unknown_grid(position.grid) == "5T3?/1?44/9999/TT11"


def test_the_default_unseen_cards_are_the_deck_less_the_face_up_cards_U2() -> None:
    position = make_unknown("5T3?/1?44/9999/TT11")
    assert position.unseen == deck_less(position.grid)
    assert position.unseen_total == 100 - 14
    assert position.unseen[9 - 1] == 10 - 4


def test_given_unseen_cards_are_a_multiset_U2() -> None:
    position = make_unknown("5T3?/1?44/9999/TT11", unseen="1,1,T")
    assert position.unseen == (2, 0, 0, 0, 0, 0, 0, 0, 0, 1)


@pytest.mark.parametrize(
    ("grid", "unseen", "field", "words"),
    [
        ("5T3?/1?44/9999/TT1", None, "grid", "4 rows of 4"),
        ("5T3x/1?44/9999/TT11", None, "grid", "d1"),
        ("5T32/1444/9999/TT11", None, "grid", "no face-down"),
        ("1111/1111/111?/?111", None, "grid", "the deck has 10"),
        ("5T3?/1?44/9999/TT11", "1,X", "unseen", "not a card value"),
        ("5T3?/1?44/9999/TT11", "9,9,9,9,9,9,9", "unseen", "the deck has 10"),
        ("5T3?/1?44/9999/TT11", "1", "unseen", "1 unseen card for 2 face-down cells"),
    ],
)
def test_a_bad_position_is_refused_naming_the_field_U1_U2(
    grid: str, unseen: str | None, field: str, words: str
) -> None:
    with pytest.raises(PuzzleError) as refused:
        make_unknown(grid, unseen=unseen)
    assert refused.value.field == field
    assert words in refused.value.message
