"""Issue 27, part 3: an own-deal engine's deal played on with the case's moves, the reference
answering on the same dealt cards (dekal.conformance.judge._play_on)."""

from __future__ import annotations

import dekal_ref
from dekal.conformance.cases._own_deal import setup_position
from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.drive._protocol import position_fields
from dekal.conformance.judge._play_on import chosen, planned_actions, played_on, translated
from dekal_ref.deal import seeded_deal
from dekal_ref.notation import format_grid, value_symbol


def seeded(seed: int, players: int) -> dict[str, object]:
    deal = seeded_deal(seed, players, 1)
    pile = "".join(value_symbol(value) for value in deal.pile)
    return {"grids": [format_grid(grid) for grid in deal.grids], "pile": pile}


def dealt_position(setup: dict[str, object], seed: int) -> str:
    """The round-1 position an own-deal engine shows after dealing `setup`'s rules itself
    (here: the seeded deal of `seed`)."""
    rules = setup["rules"]
    assert isinstance(rules, dict)
    position = setup_position({**setup, "deal": seeded(seed, int(rules["players"]))})
    assert position is not None
    return position


def test_t3_a_take_is_read_as_the_card_at_the_same_place_of_the_dealt_centre() -> None:
    case = "slide/chosen/single 1.1 take@0 0 x -,- 37 - - 0,0"
    dealt = "slide/chosen/single 1.1 take@0 0 x -,- 59 - - 0,0"
    assert translated("take 0 3", case, dealt) == "take 0 5"
    assert translated("take 0 7", case, dealt) == "take 0 9"


def test_t1_p1_reveals_and_pushes_name_cells_and_sides_and_stay_as_they_are() -> None:
    case = "slide/chosen/single 1.1 reveal 0 x -,- - - - 0,0"
    assert translated("reveal 1 b3", case, case) == "reveal 1 b3"
    assert translated("push 0 L", case, case) == "push 0 L"


def test_t3_an_action_out_of_turn_on_the_dealt_cards_becomes_the_same_move_by_the_seat_to_act() -> (
    None
):
    assert chosen("take 1 5", ["take 0 2", "take 0 5"]) == "take 0 5"
    assert chosen("push 1 B", ["push 0 R", "push 0 B"]) == "push 0 B"
    assert chosen("push 1 T", ["push 0 R", "push 0 B"]) == "push 0 R"
    assert chosen("take 0 5", ["take 0 2", "take 0 5"]) == "take 0 5"


def test_planned_actions_stop_at_the_next_new_round_and_leave_refused_actions_out() -> None:
    steps = [
        {"action": "reveal 0 a1", "expect": {"ok": True}},
        {"action": "reveal 0 b1", "expect": {"ok": False, "rule": "T1"}},
        {"action": "reveal 1 a1", "expect": {"ok": True}},
        {"new_round": {}, "expect": {"ok": True}},
        {"action": "reveal 0 a1", "expect": {"ok": True}},
    ]
    assert [number for number, _ in planned_actions(steps, 1)] == [1, 3]
    assert [number for number, _ in planned_actions(steps, 5)] == [5]


def test_f1_f2_a_play_on_replays_on_the_dealt_cards_what_the_reference_plays() -> None:
    # differential: each move's position is the reference's own game API applied step by step
    case = next(c for c in load_cases() if c["id"] == "game-0105")
    dealt = dealt_position(case["setup"], seed=11)
    moves = played_on(dealt, planned_actions(case["steps"], 1), case["start"]["position"])
    assert moves
    state = dekal_ref.parse_position(dealt)
    for move in moves:
        assert dekal_ref.format_position(state) == move.before
        state = dekal_ref.apply(state, dekal_ref.parse_action(move.action))
        assert dekal_ref.format_position(state) == move.after


def test_t5_s1_a_play_on_to_the_round_s_end_carries_the_reference_s_result() -> None:
    # the whole round of a single-round game: 16 turns of two reveals, two takes, two pushes
    steps = [{"action": "reveal 0 a1", "expect": {"ok": True}}] * (16 * 6)
    rules = {"players": 2, "push": "slide", "first": "chosen", "threshold": None}
    dealt = dealt_position({"rules": rules, "first_player": 1}, seed=3)
    moves = played_on(dealt, enumerate(steps, start=1), dealt)
    assert position_fields(moves[-1].after)["phase"] == "over"
    assert [m.result is not None for m in moves].count(True) == 1
    final = dekal_ref.parse_position(moves[-1].after)
    totals = [score.points for score in dekal_ref.round_scores(final)]
    assert moves[-1].result is not None and moves[-1].result["totals"] == totals
