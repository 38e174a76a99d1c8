"""Specification of game records (dekal_ref.record; spec/notation.md, "Game records")."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal_ref import game
from dekal_ref.actions import Action, NewRound, Reveal, Take, apply, legal_actions, parse_action
from dekal_ref.deal import seeded_deals
from dekal_ref.errors import NotationError
from dekal_ref.position import format_position
from dekal_ref.record import (
    GameRecord,
    ReplayError,
    SeatScore,
    format_record,
    iter_replay,
    parse_record,
    record_from_game,
    record_from_json,
    record_to_json,
    replay,
    turn_groups,
)
from dekal_ref.state import GameState, Phase, Rules

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "spec" / "examples"


def random_game(
    rules: Rules, seed: int, first: int | None, rng: random.Random, stop: int
) -> tuple[list[Action], GameState]:
    """Random legal play (new rounds included) for at most `stop` actions."""
    deals = seeded_deals(seed, rules.players, 8)
    state = game.new_game(rules, deals[0], first)
    actions: list[Action] = []
    while state.phase is not Phase.OVER and len(actions) < stop:
        if state.phase is Phase.NEXT_ROUND:
            action: Action = NewRound(deals[state.round])
        else:
            action = rng.choice(legal_actions(state))
        state = apply(state, action)
        actions.append(action)
    return actions, state


printable = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp", "Zs", "Cf", "Co")),
    max_size=12,
).filter(str.isprintable)


@st.composite
def played_records(draw: st.DrawFn) -> tuple[GameRecord, GameState]:
    """A record of a random legal game, finished or stopped anywhere, and its last state."""
    players = draw(st.integers(2, 6))
    rules = Rules(
        players=players,
        push=draw(st.sampled_from(["slide", "eject"])),
        first=draw(st.sampled_from(["lowest", "chosen"])),
        threshold=draw(st.sampled_from([None, None, 150])),
    )
    seed = draw(st.integers(0, 2**64 - 1))
    first = draw(st.integers(0, players - 1)) if rules.first == "chosen" else None
    stop = draw(st.sampled_from([10**6, 10**6, 40, 300]))
    actions, state = random_game(rules, seed, first, draw(st.randoms(use_true_random=False)), stop)
    rec = record_from_game(
        rules,
        seeded_deals(seed, players, state.round),
        first,
        actions,
        seed=draw(st.sampled_from([None, seed])),
        event=draw(st.none() | printable),
        date=draw(st.none() | printable),
    )
    return rec, state


@given(played_records())
def test_text_records_round_trip_exactly(played: tuple[GameRecord, GameState]) -> None:
    rec, _ = played
    text = format_record(rec)
    assert parse_record(text) == rec
    assert format_record(parse_record(text)) == text


@given(played_records())
def test_json_records_round_trip_exactly(played: tuple[GameRecord, GameState]) -> None:
    rec, _ = played
    obj = json.loads(json.dumps(record_to_json(rec)))
    assert record_from_json(obj) == rec
    assert record_to_json(record_from_json(obj)) == obj


@given(played_records())
def test_replaying_a_record_reaches_the_position_the_game_reached(
    played: tuple[GameRecord, GameState],
) -> None:
    rec, final = played
    states = replay(parse_record(format_record(rec)))
    assert format_position(states[-1]) == format_position(final)
    assert len(states) == 1 + len(rec.steps())
    assert (rec.places is not None) == (final.phase is Phase.OVER)


@given(played_records())
def test_every_turn_line_starts_with_the_reveals_of_every_seat(
    played: tuple[GameRecord, GameState],
) -> None:
    rec, _ = played
    for played_round in rec.rounds:
        groups = turn_groups(played_round.moves)
        assert len(groups) <= 16
        for group in groups:
            reveals = [m for m in group if isinstance(m, Reveal)]
            assert group[: len(reveals)] == reveals
            assert len(reveals) <= rec.rules.players


# --- The bundled records ------------------------------------------------------------------


def load_make_examples() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "_make_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bundled_records_are_exactly_what_their_script_derives() -> None:
    derived: dict[str, str] = load_make_examples().build_examples()
    on_disk = {
        p.name: p.read_text(encoding="utf-8")
        for p in EXAMPLES.iterdir()
        if p.suffix in (".dkr", ".json")
    }
    assert derived == on_disk


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.dkr")))
def test_bundled_records_replay_and_are_canonical(name: str) -> None:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    rec = parse_record(text)
    assert format_record(rec) == text
    states = replay(rec)
    assert states[-1].phase is Phase.OVER
    assert rec.places is not None and 1 in rec.places


def test_bundled_json_twin_is_the_same_game_as_its_text() -> None:
    text = parse_record((EXAMPLES / "two-players-first-tie.dkr").read_text(encoding="utf-8"))
    twin = record_from_json(json.loads((EXAMPLES / "two-players-first-tie.json").read_text()))
    assert twin == text


def test_the_bundled_tie_record_really_breaks_a_first_player_tie() -> None:
    rec = parse_record((EXAMPLES / "two-players-first-tie.dkr").read_text(encoding="utf-8"))
    after_reveals = next(s for s in replay(rec) if s.phase is Phase.TAKE)
    assert len(after_reveals.removed) == 2  # both tied seats drew one set-aside card (F2)
    assert after_reveals.centre[0] == after_reveals.centre[1]


def test_the_bundled_match_has_several_rounds_and_rotates_the_start() -> None:
    rec = parse_record((EXAMPLES / "three-players-eject-match.dkr").read_text(encoding="utf-8"))
    assert len(rec.rounds) >= 3
    set_ups = [
        s for s in replay(rec) if s.turn == 1 and s.picks == (None,) * 3 and s.phase is Phase.REVEAL
    ]
    starts = [s.start for s in set_ups]
    assert starts == [(2 + r) % 3 for r in range(len(rec.rounds))]  # F3 then F4


# --- Refusals -----------------------------------------------------------------------------


def tie_record_text() -> str:
    return (EXAMPLES / "two-players-first-tie.dkr").read_text(encoding="utf-8")


def edited(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def test_an_illegal_take_is_refused_naming_round_turn_action_and_rule() -> None:
    text = edited(
        tie_record_text(),
        "2. reveal 0 d3, reveal 1 c1, take 1 3",
        "2. reveal 0 d3, reveal 1 c1, take 1 4",
    )
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text))
    error = caught.value
    assert (error.rule, error.round, error.turn, error.action) == ("T3", 1, 2, "take 1 4")
    assert "round 1, turn 2, take 1 4" in str(error)


def test_a_forbidden_push_is_refused_with_its_push_rule() -> None:
    # Seat 0's hole after turn 3's reveal is d2: a slide push from R would drop straight in.
    line = "3. reveal 0 d2, reveal 1 a4, take 0 6, push 0 "
    text = edited(tie_record_text(), line + "L", line + "R")
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text))
    assert (caught.value.rule, caught.value.turn) == ("P1", 3)


def test_a_written_score_that_the_replay_contradicts_is_refused() -> None:
    text = edited(tie_record_text(), "scores 19/6 28/4", "scores 19/6 27/4")
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text))
    assert caught.value.rule == "S2"
    assert "seat 1 scored 27 with 4" in str(caught.value)


def test_written_places_that_the_replay_contradicts_are_refused() -> None:
    text = edited(tie_record_text(), "places 1 2", "places 2 1")
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text))
    assert caught.value.rule == "S3"


def test_written_match_totals_that_the_replay_contradicts_are_refused() -> None:
    text = (EXAMPLES / "three-players-eject-match.dkr").read_text(encoding="utf-8")
    text = edited(text, "totals 16 12 18", "totals 16 12 19")
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text))
    assert (caught.value.rule, caught.value.round) == ("S4", 1)


def test_a_result_written_for_an_unfinished_round_is_refused() -> None:
    rec = parse_record(tie_record_text())
    first = rec.rounds[0]
    short = GameRecord(
        rules=rec.rules,
        rounds=(type(first)(first.deal, first.moves[:-2], first.scores, None),),
        seed=rec.seed,
    )
    with pytest.raises(ReplayError) as caught:
        replay(short)
    assert caught.value.rule == "T5"


def test_a_deal_that_is_not_the_seeds_is_refused() -> None:
    text = edited(tie_record_text(), '[Seed "23"]', '[Seed "24"]')
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text))
    assert (caught.value.rule, caught.value.action) == ("M3", "deal")


def test_a_deal_that_is_not_the_hundred_cards_is_refused_at_set_up() -> None:
    text = tie_record_text().replace('[Seed "23"]\n', "")
    text = edited(text, "pile 1", "pile 2")
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text))
    assert (caught.value.rule, caught.value.turn, caught.value.action) == ("M1", None, "deal")


def test_a_move_after_the_game_ended_is_refused_with_T5() -> None:
    text = edited(tie_record_text(), "scores 19/6 28/4\n", "17. reveal 0 a1\n")
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text))
    assert caught.value.rule == "T5"


def test_a_record_without_its_result_still_replays() -> None:
    text = tie_record_text()
    text = text.replace("scores 19/6 28/4\n", "").replace("\nplaces 1 2\n", "")
    rec = parse_record(text)
    assert rec.places is None
    assert replay(rec)[-1].phase is Phase.OVER


# --- Malformed records --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('[Format "dekal-record/1"]', '[Format "dekal-record/9"]', "Format"),
        ('[Push "slide"]', '[Push "slide"]\n[Colour "red"]', "record line 5"),
        ('[Players "2"]', '[Players "two"]', "Players"),
        ("grid 1 233T/286T/56T6/67T8", "grid 1 233T/286T/56T6/67T", "record line 11"),
        ("grid 1 233T", "grid 2 233T", "record line 11"),
        ("3. reveal", "4. reveal", "record line 15"),
        ("take 0 3, push 0 L", "take 0 3, push 0 Q", "record line 13"),
        ("scores 19/6 28/4", "scores 19/6", "record line 29"),
        ("places 1 2", "places 1 2\nround 2", "record line 32"),
    ],
)
def test_malformed_records_name_the_line_or_tag(old: str, new: str, field: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_record(edited(tie_record_text(), old, new))
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("format",), "dekal-record/2", "format"),
        (("rules", "players"), "2", "rules.players"),
        (("rounds", 0, "deal", "pile"), "1X", "rounds[0].deal.pile"),
        (("rounds", 0, "deal", "grids", 1), "1111", "rounds[0].deal.grids[1]"),
        (("rounds", 0, "turns", 3, 0), "reveal 0 e9", "rounds[0].turns[3]"),
        (("ranking",), [{"place": 1, "seat": 0}], "ranking"),
    ],
)
def test_malformed_json_records_name_the_field(
    path: tuple[object, ...], value: object, field: str
) -> None:
    obj = json.loads((EXAMPLES / "two-players-first-tie.json").read_text())
    target = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(NotationError) as caught:
        record_from_json(obj)
    assert caught.value.field == field


# --- Building records ---------------------------------------------------------------------


def test_explicit_new_rounds_and_implicit_ones_give_the_same_record() -> None:
    rules = Rules(players=2, threshold=150)
    actions, _ = random_game(rules, 99, None, random.Random(3), 10**6)
    deals = seeded_deals(99, 2, 8)
    explicit = record_from_game(rules, deals[:1], None, actions)
    implicit = record_from_game(
        rules, deals, None, [a for a in actions if not isinstance(a, NewRound)]
    )
    assert explicit == implicit
    assert len(explicit.rounds) >= 2


def test_record_from_game_refuses_an_illegal_action_with_its_turn() -> None:
    rules = Rules(players=2)
    deals = seeded_deals(5, 2, 1)
    actions = [parse_action(t) for t in ("reveal 0 a1", "reveal 1 a1", "reveal 0 b1")]
    with pytest.raises(ReplayError) as caught:
        record_from_game(rules, deals, None, actions)
    assert (caught.value.rule, caught.value.turn, caught.value.action) == ("T1", 1, "reveal 0 b1")


def test_a_partial_game_records_no_result() -> None:
    rules = Rules(players=3)
    deals = seeded_deals(11, 3, 1)
    actions, _ = random_game(rules, 11, None, random.Random(0), 20)
    rec = record_from_game(rules, deals, None, actions)
    assert rec.places is None and rec.rounds[0].scores is None
    assert isinstance(rec.rounds[0].moves[-1], Reveal | Take) or rec.rounds[0].moves


def test_seat_scores_are_points_then_cards_left() -> None:
    rec = parse_record(tie_record_text())
    assert rec.rounds[0].scores == (SeatScore(19, 6), SeatScore(28, 4))


def test_comment_and_blank_lines_are_skipped_and_not_kept() -> None:
    text = tie_record_text()
    noisy = "# a game kept for its tie\n" + text.replace("round 1\n", "round 1\n\n  # the deal\n")
    noisy += "\n# then step 99: the engines parted ways\n"
    assert parse_record(noisy) == parse_record(text)
    assert format_record(parse_record(noisy)) == text


@pytest.mark.parametrize("name", ["four-players-slide", "three-players-eject-match"])
def test_the_optimized_engine_replays_a_record_to_the_same_states(name: str) -> None:
    from dekal import fast

    rec = parse_record((EXAMPLES / f"{name}.dkr").read_text(encoding="utf-8"))
    by_ref = [step.state for step in iter_replay(rec)]
    by_fast = [step.state for step in iter_replay(rec, fast)]
    assert by_fast == by_ref
