"""`dekal advise` under hostile input (issue 10; the error convention of issue 13): positions
no game reaches are refused naming their rule, mangled views are answered or refused by the
convention, bad options are refused naming them, and the work is bounded by the documented
limits (docs/guide.md), which the tests state by going just past them."""

from __future__ import annotations

import json
import time
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.hostile import (
    FIRST_REVEAL_6,
    HOSTILE,
    LAST_PUSH,
    TAKE,
    assert_handled,
    assert_refused,
    dekal,
    midgame_state,
)

from dekal.bots.advise import MAX_SEARCH_WORK
from dekal.cli._bot_specs import SEARCH_LIMITS
from dekal_ref.position import format_position
from dekal_ref.reading import SEED_MAX
from dekal_ref.state import Card, Phase

# --- advise: positions no game reaches are refused, naming the rule ----------------------


UNREACHABLE = {
    "picks made in a take": (TAKE.replace("-,- 5T", "?,? 5T"), "T1"),
    "turn 17": (TAKE.replace("1.15", "1.17"), "T5"),
    "round 0": (TAKE.replace("1.15", "0.15"), "T5"),
    "a second round of a single game": (TAKE.replace("1.15", "2.15"), "S4"),
    "a start that is no seat": (TAKE.replace("take@1 1", "take@1 5"), "M4"),
    "a take with an empty centre": (TAKE.replace("5T #68", "- #70"), "T3"),
    "a push with a full centre": (LAST_PUSH.replace("-,- - #68", "-,- 1234 #64"), "T4"),
    "a pushing seat without a hole": (
        LAST_PUSH.replace("555.", "5553").replace("#68", "#67"),
        "T4",
    ),
    "two holes": (LAST_PUSH.replace("555.", "55..").replace("#68", "#69"), "T4"),
    "a hole before the reveal": (
        "slide/lowest/single 1.1 reveal - ????/????/????/???.|????/????/????/???? -,- - #69 - 0,0",
        "T1",
    ),
    "sixteen face-down cards on turn 3": (
        "slide/lowest/single 1.3 reveal 0 ????/????/????/????|????/????/????/???? -,- - #68 - 0,0",
        "T1",
    ),
    "no start after the first reveal": (
        "slide/lowest/single 1.5 reveal - ????/????/????/????|????/????/????/???? -,- - #68 - 0,0",
        "F1",
    ),
    "a start before the lowest card is seen": (
        "slide/lowest/single 1.1 reveal 0 ????/????/????/????|????/????/????/???? -,- - #68 - 0,0",
        "F1",
    ),
    "a match already won": (LAST_PUSH.replace("single", "50").replace("0,0", "60,0"), "S4"),
    "totals before a single game is scored": (LAST_PUSH.replace(" 0,0", " 7,0"), "S4"),
    "fifteen tens in view": (LAST_PUSH.replace("8437/8837", "TTTT/TTTT"), "M1"),
    "seven players": (
        "slide/lowest/single 1.1 reveal - "
        + "|".join(["????/????/????/????"] * 7)
        + " -,-,-,-,-,-,- - - - 0,0,0,0,0,0,0",
        "M2",
    ),
}


@pytest.mark.parametrize("json_mode", [True, False], ids=["json", "text"])
@pytest.mark.parametrize(("view", "rule"), UNREACHABLE.values(), ids=UNREACHABLE.keys())
def test_a_view_no_game_reaches_is_refused_naming_its_rule(
    view: str, rule: str, json_mode: bool
) -> None:
    seat = "1" if "take@1" in view else "0"
    result = dekal("advise", view, "--seat", seat, "--samples", "30", *["--json"] * json_mode)
    error = assert_refused(result, json_mode)
    assert error.get("rule", rule) == rule and f"rule {rule}" in error["message"]


def test_a_full_position_must_hold_the_deck_even_where_the_view_hides_it() -> None:
    """M1: a face-down card is hidden by the view, but a full position shows it; eleven
    copies of a value there are refused, not hidden first and advised on."""
    state = midgame_state()
    seat, cell = 0, state.face_down_cells(0)[0]
    grid = list(state.grids[seat])
    hidden = grid[cell]
    assert hidden is not None
    grid[cell] = Card(hidden.value % 10 + 1, face_down=True)  # eleven of that value now
    forged = replace(state, grids=(tuple(grid), *state.grids[1:]))
    result = dekal("advise", format_position(forged), "--seat", "0", "--json")
    assert assert_refused(result, json_mode=True)["rule"] == "M1"


def test_a_pick_on_a_face_up_cell_is_refused() -> None:
    state = midgame_state(phase=Phase.REVEAL)
    face_up = next(
        cell for cell, card in enumerate(state.grids[0]) if card is not None and not card.face_down
    )
    forged = replace(state, picks=(face_up, *state.picks[1:]))
    result = dekal("advise", format_position(forged), "--seat", "1", "--json")
    assert assert_refused(result, json_mode=True)["rule"] == "T1"


view_lines = st.sampled_from([LAST_PUSH, TAKE, FIRST_REVEAL_6])
HOSTILE_PIECES = ["\x00", "é", "٣", "１", "?", ".", "|", "#", "-", ",", "@", ":", " ", "T", "0"]
HOSTILE_PIECES += ["99999999999999999999", "1e9", "nan", "\n", "\t", "?" * 5000]


@st.composite
def mangled_views(draw: st.DrawFn) -> str:
    """A good view with pieces replaced, inserted or deleted: malformed or unreachable."""
    text = draw(view_lines)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text) - 1))
        piece = draw(st.sampled_from(HOSTILE_PIECES) | st.text(max_size=3))
        cut = draw(st.integers(0, 2))
        text = text[:at] + piece + text[at + cut :]
    return text


@HOSTILE
@given(view=mangled_views(), seat=st.integers(0, 5), json_mode=st.booleans())
def test_a_mangled_view_is_answered_or_refused_by_the_convention(
    view: str, seat: int, json_mode: bool
) -> None:
    args = ["advise", view, "--seat", str(seat), "--samples", "30", *["--json"] * json_mode]
    assert_handled(dekal(*args), json_mode)


@pytest.mark.parametrize(
    "text",
    [
        "x" * 1_048_576,
        LAST_PUSH + " " + "9" * 1_048_576,
        LAST_PUSH.replace("#68", "#" + "6" * 10**6),
    ],
    ids=["1 MB of letters", "an 11th field of 1 MB", "a 1 MB pile"],
)
def test_a_megabyte_position_is_refused_at_once(text: str) -> None:
    started = time.monotonic()
    assert_refused(dekal("advise", text, "--seat", "0", "--json"), json_mode=True)
    assert time.monotonic() - started < 30  # an upper bound against a hang, not a speed test


# --- advise: options -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--samples", "0"),
        ("--samples", "-1"),
        ("--samples", "1e9"),
        ("--samples", "nan"),
        ("--samples", "100001"),
        ("--samples", "٣٠"),
        ("--seat", "99"),
        ("--seat", "6"),
        ("--seed", str(SEED_MAX + 1)),
        ("--seed", "-1"),
        ("--workers", "0"),
        ("--workers", "65"),
        ("--bot", "pimc:samples=1e12"),
        ("--bot", f"pimc:samples={SEARCH_LIMITS['samples'] + 1}"),
        ("--bot", f"ismcts:iterations={SEARCH_LIMITS['iterations'] + 1}"),
        ("--bot", "pimc:samples=٣"),
        ("--bot", "pimc:samples=1_0"),
        ("--bot", "ismcts:c=nan"),
        ("--bot", "chess"),
        ("--bot", ""),
    ],
)
@pytest.mark.parametrize("json_mode", [True, False], ids=["json", "text"])
def test_a_bad_option_is_refused_naming_it(option: str, value: str, json_mode: bool) -> None:
    result = dekal("advise", TAKE, "--seat", "1", option, value, *["--json"] * json_mode)
    error = assert_refused(result, json_mode)
    if json_mode:
        assert error["field"] == option
    else:
        assert option in error["message"]


def test_a_search_that_would_run_for_hours_is_refused_before_it_starts() -> None:
    """pimc at its largest, at every decision of a 6-player round in 100,000 worlds: far past
    MAX_SEARCH_WORK, so refused at once (the documented bound), not run."""
    started = time.monotonic()
    result = dekal(
        "advise", FIRST_REVEAL_6, "--seat", "0", "--samples", "100000", "--json",
        "--bot", f"pimc:samples={SEARCH_LIMITS['samples']}",
    )  # fmt: skip
    error = assert_refused(result, json_mode=True)
    assert error["field"] == "--bot" and f"{MAX_SEARCH_WORK:,}" in error["message"]
    assert time.monotonic() - started < 30


def test_a_searching_model_is_free_where_nobody_decides_after_the_action() -> None:
    """At the round's last push no search runs, whatever its size: no work, no refusal."""
    spec = f"pimc:samples={SEARCH_LIMITS['samples']}"
    result = dekal("advise", LAST_PUSH, "--seat", "0", "--bot", spec, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["exact"] is True


def test_over_and_next_say_there_is_nothing_to_decide() -> None:
    over = LAST_PUSH.replace("push@0:3", "over").replace("555.", "5553")
    over = over.replace(" 0,0", " 23,21")
    next_round = over.replace("single", "50")
    for view in (over, next_round):
        error = assert_refused(dekal("advise", view, "--seat", "0", "--json"), json_mode=True)
        assert error["field"] == "--seat" and "nothing to decide" in error["message"]


def test_the_python_api_checks_a_view_made_by_hand_as_the_command_line_does() -> None:
    """advise() on an Observation built in Python, not read: the same refusals, by rule."""
    from dekal.bots.advise import advise
    from dekal.bots.observation import read_public_view
    from dekal_ref.errors import IllegalAction

    take = read_public_view(TAKE)
    for forged, rule in [
        (replace(take, centre=(), pile=take.pile + 2), "T3"),
        (replace(take, rules=replace(take.rules, players=3)), "M2"),
        (replace(take, turn=40), "T5"),
    ]:
        with pytest.raises(IllegalAction) as refused:
            advise(forged, 1, samples=30)
        assert refused.value.rule == rule
