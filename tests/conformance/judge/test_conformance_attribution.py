"""Blaming a divergence on one rule (conformance/judge/_attribution.py): each field of each kind of
step names the rule that governs it, so a failure planted in one rule is counted there."""

from __future__ import annotations

from dekal.conformance.judge._attribution import (
    Blame,
    blame_grid_request,
    blame_legal,
    blame_perft_moves,
    blame_position,
    blame_public,
    blame_ranking,
    blame_refused_position,
    blame_refused_step_moved,
    blame_result,
    blame_verdict,
    differing_fields,
)
from dekal.conformance.judge._taker_reading import (
    before_the_take,
    blame_refused_taker,
    one_take_earlier,
)

PILE = "196841T3124437198489619715735T6224431664T72T552675887783T13856159643"


def position(head: str, grids: str, centre: str) -> str:
    return f"slide/lowest/single {head} {grids} -,- {centre} {PILE} - 0,0"


AFTER_FIRST_REVEALS = position("1.1 take@0 0", "eidh/.cbj/dbhb/bigi|ebfc/.gje/gjaj/fcji", "89")
AFTER_PUSH = position("1.1 take@1 0", "9idh/ecbj/dbhb/bigi|ebfc/.gje/gjaj/fcji", "8")
TURN_ENDED = position("1.2 reveal 0", "9idh/ecbj/dbhb/bigi|8bfc/egje/gjaj/fcji", "-")
TAKEN = position("1.1 push@0:9 0", "eidh/.cbj/dbhb/bigi|ebfc/.gje/gjaj/fcji", "8")


def changed(position: str, field: int, value: str) -> str:
    parts = position.split(" ")
    parts[field] = value
    return " ".join(parts)


def test_differing_fields_name_the_grid_by_seat() -> None:
    other = changed(AFTER_PUSH, 4, "9idh/ecbj/dbhb/bigi|ebfc/.gje/gjaj/fcjj")
    assert differing_fields(AFTER_PUSH, other) == ["grid of seat 1"]


def test_a_wrong_grid_after_a_push_is_P1_under_slide() -> None:
    other = changed(AFTER_PUSH, 4, "eidh/9cbj/dbhb/bigi|ebfc/.gje/gjaj/fcji")
    assert blame_position("push 0 T", AFTER_PUSH, other) == Blame("P1", "grid of seat 0")


def test_a_wrong_grid_after_a_push_is_P2_under_eject() -> None:
    eject = changed(AFTER_PUSH, 0, "eject/lowest/single")
    other = changed(eject, 4, "eidh/9cbj/dbhb/bigi|ebfc/.gje/gjaj/fcji")
    assert blame_position("push 0 T2", eject, other).rule == "P2"


def test_the_wrong_next_taker_after_a_push_is_T3() -> None:
    other = changed(AFTER_PUSH, 2, "take@0")
    assert blame_position("push 0 T", AFTER_PUSH, other) == Blame("T3", "phase")


def test_a_turn_that_does_not_end_after_the_last_push_is_T5() -> None:
    other = changed(TURN_ENDED, 1, "1.1")
    assert blame_position("push 1 T", TURN_ENDED, other).rule == "T5"


def test_the_wrong_first_player_under_lowest_is_F1_and_F2_after_a_draw() -> None:
    other = changed(AFTER_FIRST_REVEALS, 3, "1")
    assert blame_position("reveal 1 a2", AFTER_FIRST_REVEALS, other).rule == "F1"
    drawn = changed(AFTER_FIRST_REVEALS, 8, "37")
    assert blame_position("reveal 1 a2", drawn, changed(drawn, 3, "1")).rule == "F2"


def test_the_wrong_first_player_under_chosen_is_F3_and_in_a_new_round_F4() -> None:
    chosen = changed(AFTER_FIRST_REVEALS, 0, "slide/chosen/single")
    assert blame_position("reveal 1 a2", chosen, changed(chosen, 3, "1")).rule == "F3"
    assert blame_position("new_round", chosen, changed(chosen, 3, "1")).rule == "F4"


def test_a_take_that_does_not_ask_for_a_push_is_T4() -> None:
    assert blame_position("take 0 9", TAKEN, changed(TAKEN, 2, "take@1")).rule == "T4"
    assert blame_position("take 0 9", TAKEN, changed(TAKEN, 6, "9")).rule == "T3"


def test_a_refused_action_that_moves_the_game_is_B1() -> None:
    assert blame_refused_step_moved(TAKEN, changed(TAKEN, 6, "-")) == Blame("B1", "centre")


def test_a_public_view_divergence_is_M3() -> None:
    assert blame_public() == Blame("M3", "public view")


def test_verdicts_blame_the_refusing_rule_or_the_rule_that_allows_the_action() -> None:
    assert blame_verdict("take 1 5", TAKEN, {"ok": False, "rule": "T4"}).rule == "T4"
    assert blame_verdict("push 0 L", TAKEN, {"ok": True}).rule == "P1"
    assert blame_verdict("reveal 0 e9", TAKEN, {"ok": False, "kind": "notation"}).rule == "B1"


def test_legal_actions_are_blamed_on_the_phase_rule() -> None:
    assert blame_legal(TAKEN).rule == "P1"
    assert blame_legal(AFTER_PUSH).rule == "T3"
    assert blame_legal(TURN_ENDED).rule == "T1"


def test_result_parts_have_their_scoring_rules() -> None:
    assert blame_result("cancelled", TURN_ENDED).rule == "S1"
    assert blame_result("points", TURN_ENDED).rule == "S2"
    assert blame_result("ranking", TURN_ENDED).rule == "S3"
    assert blame_result("ranking", changed(TURN_ENDED, 0, "slide/lowest/100")).rule == "S4"


def test_totals_are_s2_in_a_single_round_and_s4_in_a_match() -> None:
    assert blame_result("totals", TURN_ENDED) == Blame("S2", "totals")
    assert blame_result("totals", changed(TURN_ENDED, 0, "slide/lowest/100")).rule == "S4"


def test_a_seats_score_names_the_seat_in_the_field() -> None:
    assert blame_result("cancelled", TURN_ENDED, seat=1) == Blame("S1", "cancelled cells of seat 1")
    assert blame_result("remaining", TURN_ENDED, seat=0) == Blame("S2", "cards left of seat 0")


def test_single_grid_push_requests_blame_the_variant_or_the_refusing_rule() -> None:
    assert blame_grid_request("slide", "grid") == Blame("P1", "grid")
    assert blame_grid_request("eject", "legal pushes") == Blame("P2", "legal pushes")
    assert blame_grid_request("eject", "verdict", {"ok": False, "rule": "M1"}).rule == "M1"
    assert blame_grid_request("slide", "verdict", {"ok": False, "kind": "notation"}).rule == "B1"


def test_perft_moves_that_differ_are_blamed_on_the_phase_rule() -> None:
    assert blame_perft_moves(TURN_ENDED) == Blame("T1", "perft moves")
    assert blame_perft_moves(AFTER_PUSH).rule == "T3"
    assert blame_perft_moves(TAKEN).rule == "P1"


def test_a_wrong_rules_line_is_blamed_on_the_variant_it_gets_wrong() -> None:
    def rules(line: str) -> str:
        return changed(AFTER_PUSH, 0, line)

    assert blame_position("new_game", AFTER_PUSH, rules("eject/lowest/single")) == Blame(
        "P1", "rules"
    )
    assert blame_position("new_game", AFTER_PUSH, rules("slide/chosen/single")).rule == "F1"
    assert blame_position("new_game", AFTER_PUSH, rules("slide/lowest/100")).rule == "S4"
    assert blame_position("new_game", AFTER_PUSH, rules("slide")).rule == "M3"


def test_a_refused_position_line_is_blamed_on_who_acts_in_it() -> None:
    from dekal.conformance.judge._attribution import blame_refused_position

    assert blame_refused_position(TAKEN) == Blame("T5", "verdict")  # push@0: the token's seat
    assert blame_refused_position(TURN_ENDED).rule == "T1"
    assert blame_refused_position(changed(TURN_ENDED, 2, "over")).rule == "T5"
    assert (
        blame_refused_position(changed(changed(TURN_ENDED, 2, "next"), 0, "slide/lowest/100")).rule
        == "S4"
    )


MATCH = changed(TURN_ENDED, 0, "slide/lowest/100")


def test_s3_shared_places_numbered_otherwise_in_a_match_are_s3_not_the_totals_s4() -> None:
    # 1, 1, 3, 4 written 1, 1, 2, 3: the same seats tie, in the same order (S4's totals
    # decided that); how the places after a tie are numbered is S3's "as in sport"
    wanted = [[1, 0], [1, 2], [3, 1], [4, 3]]
    dense = [[1, 0], [1, 2], [2, 1], [3, 3]]
    assert blame_ranking(wanted, dense, MATCH) == Blame("S3", "ranking (places shared as in sport)")
    assert blame_ranking(wanted, dense, TURN_ENDED).rule == "S3"


def test_s3_seats_sharing_a_place_listed_otherwise_in_a_match_are_s3() -> None:
    wanted = [[1, 0], [1, 2], [3, 1]]
    assert blame_ranking(wanted, [[1, 2], [1, 0], [3, 1]], MATCH).rule == "S3"


def test_s4_a_match_ranking_that_ties_or_orders_the_seats_otherwise_is_s4() -> None:
    wanted = [[1, 0], [1, 2], [3, 1]]
    assert blame_ranking(wanted, [[1, 0], [2, 2], [3, 1]], MATCH) == Blame("S4", "ranking")
    assert blame_ranking(wanted, [[1, 1], [2, 0], [2, 2]], MATCH) == Blame("S4", "ranking")


def test_s3_a_single_round_ranking_that_ties_the_seats_otherwise_is_s3() -> None:
    wanted = [[1, 0], [1, 2], [3, 1]]
    assert blame_ranking(wanted, [[1, 0], [2, 2], [3, 1]], TURN_ENDED) == Blame("S3", "ranking")


# 3 seats, turn 2 from start 0: seat 1 holds the token; seat 1 took, seat 2 takes next
LATER_TAKER = (
    "slide/chosen/single 1.2 take@2 0 9idh/ec.j/dbhb/bigi|8bfc/egje/gjaj/fc3i|"
    "ebfc/.gje/gjaj/fcji -,-,- 47 196841T3124437198489619715735T622443166 - 0,0,0"
)


def test_t3_one_take_earlier_the_last_taker_takes_again_with_its_card_back_in_the_centre() -> None:
    earlier = one_take_earlier(LATER_TAKER)
    assert earlier is not None
    fields = earlier.split(" ")
    assert fields[2] == "take@1" and fields[6] == "478"  # its first face-up card, an 8
    assert fields[4].split("|")[1] == ".bfc/egje/gjaj/fc3i"
    assert one_take_earlier(earlier) is None  # the token holder's take: none made yet


def test_t4_a_push_phase_is_read_as_the_take_before_it() -> None:
    pushing = changed(changed(LATER_TAKER, 2, "push@2:4"), 6, "7")
    assert before_the_take(pushing) == LATER_TAKER


def test_t3_a_taker_that_moves_the_other_way_one_take_earlier_is_the_order_t3() -> None:
    # counter-clockwise from the right token: seat 0 now, seat 1 (the token) one take earlier
    assert blame_refused_taker(LATER_TAKER, 0, 1).rule == "T3"
    assert blame_refused_taker(LATER_TAKER, 1, 1).rule == "T3"  # the token holder again


def test_t5_a_taker_that_moves_back_one_seat_one_take_earlier_is_the_token_t5() -> None:
    # clockwise, from a token that passed the other way (seat 2): seat 0 now, seat 2 before
    assert blame_refused_taker(LATER_TAKER, 0, 2).rule == "T5"


def test_t5_without_two_readings_a_refused_take_is_blamed_on_who_acts() -> None:
    assert blame_refused_taker(LATER_TAKER, None, 1) == blame_refused_position(LATER_TAKER)
