"""The situation map (spec/situations.json, dekal.conformance.cases._situation_map), the designed
rounds that fill it (dekal.conformance.cases._designed_rounds) and the checks of an own deal
(dekal.conformance.judge._own_deal_check), issue 27."""

from __future__ import annotations

import dekal_ref
from dekal.conformance.cases._designed_rounds import dealt_grid, round_actions, round_plan
from dekal.conformance.cases._situation_map import describe, missing, situation_map
from dekal.conformance.cases._v4_design import Design, build
from dekal.conformance.cases._vectors import load_cases
from dekal.conformance.judge._attribution import RULE_IDS
from dekal.conformance.judge._own_deal_check import deal_fault
from dekal.conformance.judge._situations import (
    first_player_draws,
    ranking_shape,
    traced_situations,
)

DEALT = (
    "slide/lowest/single 1.1 reveal - jjab/gfhh/gabg/baja|cejh/bcch/jdie/djej -,- - "
    "25566376374645612481935447358T196T78935165878718672994349226493T1992 - 0,0"
)


def test_the_map_names_the_dimensions_of_every_rule_but_m2() -> None:
    """M2 has none: a player count outside 2-6 is refused whatever else holds."""
    rules = set(situation_map().rules)
    assert set(RULE_IDS) - rules == {"M2"}


def test_a_ranking_shape_is_the_largest_shared_place_and_whether_a_seat_follows() -> None:
    assert ranking_shape([(5,), (7,), (9,)]) == "distinct"
    assert ranking_shape([(5,), (5,), (9,)]) == "2 share 1st, followed"
    assert ranking_shape([(3,), (5,), (5,), (5,), (9,)]) == "3+ share below 1st, followed"
    assert ranking_shape([(3,), (5,), (5,)]) == "2 share below 1st, last"
    assert ranking_shape([(4,), (4,), (4,)]) == "3+ share 1st, last"


def test_f2_draws_are_counted_until_the_tie_breaks_or_the_pile_runs_out() -> None:
    assert first_player_draws([1, 1, 4], (3, 5)) == (2, 1, "lasts")
    assert first_player_draws([1, 1], (5, 5, 6)) == (2, 1, "out at a re-draw")
    assert first_player_draws([1, 1, 1, 1, 1, 2], (5, 5, 6, 6)) == (5, 0, "out at first draw")
    assert first_player_draws([2, 1], ()) == (1, 0, "lasts")


def test_a_constraint_makes_its_values_infeasible_and_says_why() -> None:
    chart = situation_map()
    assert chart.why_not((("pick", "middle"), ("seats", "2")), "T1")
    assert chart.feasible((("pick", "middle"), ("seats", "3")), "T1")


def test_a_constraint_of_one_rule_leaves_the_others_alone() -> None:
    """F1-F3 never see a round played into; T1 does."""
    chart = situation_map()
    assert not chart.feasible((("entry", "played into"), ("seats", "3")), "F2")
    assert chart.feasible((("entry", "played into"), ("seats", "3")), "T1")


def test_suite_v3s_tie_breaks_leave_combinations_of_f2_unreached() -> None:
    """The measurement can fail: v3's tie-break games never run the pile out at a re-draw."""
    ties = [c for c in load_cases("v3") if c["kind"] == "game" and "F2" in c["rules"]]
    left = {describe(c) for c in missing(traced_situations(ties)) if c[0] == "F2"}
    assert "F2: draws=3+, pile=out at a re-draw" in left


def test_a_designed_round_ends_on_the_final_grids_it_was_designed_for() -> None:
    """Every seat takes its own card back and pushes as the plan says: the card dealt at a
    cell ends where the plan's permutation puts it."""
    plan = round_plan("eject", 5)
    final = tuple(range(1, 11)) + (1, 2, 3, 4, 5, 6)
    grids = [dealt_grid(plan, final), dealt_grid(plan, final[::-1])]
    pile = [v for v in range(1, 11) for _ in range(10)]
    for grid in grids:
        for value in grid:
            pile.remove(value)
    rules = dekal_ref.Rules(players=2, push="eject", first="chosen")
    state = dekal_ref.new_game(rules, dekal_ref.Deal(grids=tuple(grids), pile=tuple(pile)), 0)
    for action in round_actions(plan, grids, [t % 2 for t in range(16)]):
        state = dekal_ref.apply(state, dekal_ref.parse_action(action))
    assert [state.values(0), state.values(1)] == [final, final[::-1]]


def test_a_design_ranks_the_seats_by_its_levels() -> None:
    design = Design(seats=3, first="chosen", levels=(1, 0, 1), entry="loaded", load_at=40)
    case = build(design, "x")
    ranking = case["steps"][-1]["expect"]["result"]["ranking"]
    assert [(r["place"], r["seat"]) for r in ranking] == [(1, 1), (2, 0), (2, 2)]


def test_a_deal_the_rules_allow_has_no_fault() -> None:
    assert deal_fault(DEALT, new_round=False) is None


def test_an_own_deal_face_up_or_of_fifteen_cards_breaks_m3() -> None:
    face_up = DEALT.replace("jjab/", "TTab/", 1)
    fields = DEALT.split(" ")
    fields[4] = "|".join(grid[:-1] for grid in fields[4].split("|"))
    assert deal_fault(face_up, new_round=True).rule == "M3"  # type: ignore[union-attr]
    assert deal_fault(" ".join(fields), new_round=True).rule == "M3"  # type: ignore[union-attr]


def test_an_own_deal_without_the_hundred_cards_breaks_m1() -> None:
    short = DEALT.replace(" 25566", " 5566", 1)
    assert deal_fault(short, new_round=True).rule == "M1"  # type: ignore[union-attr]
