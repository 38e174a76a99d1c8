"""`dekal play`: whole games at the terminal, the human scripted through CliRunner.

The scripted human plays random legal moves read from the game's own `legal` answer: each
game is played again from its seed with one more decision each time (the game is determined
by its seed and the human's moves), so every run also ends by the end of input (Ctrl-D).
What the human sees is checked against the reference's public view (M3): no face-down
value, no other seat's pick and no set-aside card appears before the rules make it public.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from support.keyboard import at_the_keyboard
from typer.testing import CliRunner, Result

from dekal.bots._players.random_bot import RandomBot
from dekal.bots.observation import read_public_view
from dekal.bots.table import play_game
from dekal.cli._app import app
from dekal.cli._play import split_bot_specs
from dekal.draws import Draws, seat_seed
from dekal_ref.deal import seeded_deals
from dekal_ref.notation import format_grid
from dekal_ref.position import format_position
from dekal_ref.record import check_result, iter_replay, parse_record
from dekal_ref.state import GameState, Rules

runner = CliRunner()
GRID_LIKE = re.compile(r"[1-9Ta-j.?]{4}(?:/[1-9Ta-j.?]{4}){3}")
FACE_DOWN_LETTERS = set("abcdefghij")


@pytest.fixture(autouse=True)
def in_a_fresh_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game saves its record in the current folder unless told where: never the checkout."""
    monkeypatch.chdir(tmp_path)


def dekal(args: list[str], script: str = "") -> Result:
    return runner.invoke(app, args, input=script)


def last_legal(output: str, json_mode: bool) -> list[str] | None:
    """The actions the last `legal` answer listed, or None when the game ended first."""
    if json_mode:
        answers = [json.loads(line) for line in output.splitlines()]
        if any(answer.get("event") == "over" for answer in answers):
            return None
        return next(answer["legal"] for answer in reversed(answers) if "legal" in answer)
    if re.search(r"^seats? [0-9, ]+ (wins|share the victory)$", output, re.MULTILINE):
        return None
    return output.rsplit("legal: ", 1)[1].splitlines()[0].split(", ")


def play_whole_game(args: list[str], seed: int, json_mode: bool = False) -> Result:
    """Play a game to its end as a human choosing at random among the `legal` answers: at
    each prompt the human types `legal`, reads the answer, and types one of its actions."""
    choose = random.Random(seed)
    typed: list[str] = []

    def type_next(screen: str) -> str | None:
        if typed and typed[-1] == "legal":
            legal = last_legal(screen, json_mode)
            assert legal is not None, "the game ended at a prompt"
            typed.append(choose.choice(legal))
        else:
            typed.append("legal")
        return typed[-1]

    result = at_the_keyboard(args, type_next)
    assert result.exit_code == 0, result.output
    assert last_legal(result.output, json_mode) is None, "the input ended before the game"
    return result


def replayed_states(record: Path) -> list[GameState]:
    """Every state of the recorded game, replayed on the reference engine."""
    rec = parse_record(record.read_text(encoding="utf-8"))
    states = [step.state for step in iter_replay(rec)]
    check_result(rec, states)
    return states


def hidden_texts(seed: int, players: int) -> list[str]:
    """What must never be printed: each dealt grid and the set-aside pile of round 1."""
    deal = seeded_deals(seed, players, 1)[0]
    return [format_grid(grid) for grid in deal.grids] + ["".join(map(str, deal.pile))[:20]]


# --- Whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seat", "variant", "seed"),
    [(2, 0, "slide", 3), (3, 1, "eject", 11), (4, 3, "slide", 2026)],
)
def test_a_whole_game_ends_with_a_ranking_and_a_record_that_replays(
    tmp_path: Path, players: int, seat: int, variant: str, seed: int
) -> None:
    record = tmp_path / "game.dkr"
    args = ["play", "--players", str(players), "--bots", "random", "--seat", str(seat)]
    args += ["--variant", variant, "--seed", str(seed), "--record", str(record)]
    result = play_whole_game(args, seed)
    assert f"record saved to {record}" in result.output
    states = replayed_states(record)
    assert states[-1].phase.value == "over"
    replayed = dekal(["replay", str(record), "--quiet"])
    assert replayed.exit_code == 0
    assert replayed.output.strip() in result.output  # the same ranking, in the same words


def test_the_human_never_sees_a_face_down_value_or_the_pile_m3(tmp_path: Path) -> None:
    record = tmp_path / "game.dkr"
    args = ["play", "--players", "3", "--bots", "random", "--seed", "8", "--record", str(record)]
    result = play_whole_game(args, 8)
    for grid in GRID_LIKE.findall(result.output):
        assert not FACE_DOWN_LETTERS & set(grid), grid
    for secret in hidden_texts(8, 3):
        assert secret not in result.output
    picture_rows = re.findall(r"^  [1-4] .*$", result.output, re.MULTILINE)
    assert picture_rows and not any("(" in row for row in picture_rows)  # (x): a full view


def test_every_json_position_is_the_public_view_of_the_game_at_that_moment_m3(
    tmp_path: Path,
) -> None:
    record = tmp_path / "game.dkr"
    args = ["play", "--players", "3", "--bots", "random", "--seat", "1", "--seed", "21"]
    args += ["--record", str(record), "--json"]
    result = play_whole_game(args, 21, json_mode=True)
    public = [format_position(state, public=True) for state in replayed_states(record)]
    shown = [obj["position"] for obj in map(json.loads, result.output.splitlines())
             if "position" in obj]  # fmt: skip
    assert follows_in_order(shown, public)


def follows_in_order(shown: list[str], states: list[str]) -> bool:
    """Each shown position is one of the states, at or after the one shown before it."""
    at = 0
    for position in shown:
        while at < len(states) and states[at] != position:
            at += 1
        if at == len(states):
            return False
    return True


def test_json_tells_the_human_its_own_pick_and_no_other_seats(tmp_path: Path) -> None:
    args = ["play", "--players", "3", "--bots", "random", "--seat", "1", "--seed", "4"]
    result = dekal([*args, "--record", str(tmp_path / "g.dkr"), "--json"], "c2\n")
    picked = [obj for obj in map(json.loads, result.output.splitlines())
              if obj.get("event") == "picked"]  # fmt: skip
    assert {"event": "picked", "seat": 1, "cell": "c2"} in [
        {k: v for k, v in p.items() if k != "position"} for p in picked
    ]
    assert all("cell" not in p for p in picked if p["seat"] != 1)


def test_a_match_deals_each_round_from_the_seed_and_replays_m5(tmp_path: Path) -> None:
    record = tmp_path / "match.dkr"
    args = ["play", "--bots", "random", "--seed", "12", "--match", "100"]
    args += ["--record", str(record), "--json"]
    result = play_whole_game(args, 12, json_mode=True)
    events = [obj.get("event") for obj in map(json.loads, result.output.splitlines())]
    rec = parse_record(record.read_text(encoding="utf-8"))
    rounds = len(rec.rounds)
    assert rounds >= 2  # random play scores about 55 a round: 100 takes two rounds or more
    assert [r.deal for r in rec.rounds] == seeded_deals(12, 2, rounds)
    assert events.count("round") == rounds - 1 and events.count("scored") == rounds
    assert events[-2:] == ["over", "end"]
    assert replayed_states(record)[-1].phase.value == "over"


@pytest.mark.parametrize(
    ("players", "seat", "rules", "seed"),
    [(2, 1, ["--first", "chosen"], 5), (3, 0, ["--variant", "eject", "--match", "100"], 9)],
)
def test_a_human_who_plays_like_a_bot_from_what_it_sees_plays_the_bots_table_game(
    tmp_path: Path, players: int, seat: int, rules: list[str], seed: int
) -> None:
    """Differential: the scripted human is the random bot, reading only the public view the
    JSON prompts show; the game must be the one dekal.bots.table plays with that bot at its
    seat (the same table loop, deals and draws), so the play loop keeps docs/contracts.md's
    order and the prompts hold all the bot needs."""
    record = tmp_path / "game.dkr"
    args = ["play", "--players", str(players), "--bots", "random", "--seat", str(seat)]
    args += [*rules, "--seed", str(seed), "--record", str(record), "--json"]
    human, draws = RandomBot(), Draws(seat_seed(seed, seat))

    def type_next(screen: str) -> str:
        lines = [json.loads(line) for line in screen.splitlines()]
        prompt = next(obj for obj in reversed(lines) if "prompt" in obj)
        return str(human.act(read_public_view(prompt["position"]), seat, draws))

    result = at_the_keyboard(args, type_next)
    assert result.exit_code == 0, result.output
    assert [json.loads(line).get("event") for line in result.output.splitlines()[-2:]] == [
        "over",
        "end",
    ]
    played = play_game(
        Rules(players, *rules_of(rules)), [RandomBot()] * players, seed, first_player(rules)
    )
    assert parse_record(record.read_text(encoding="utf-8")).steps() == (
        parse_record(played.record).steps()
    )


def rules_of(options: list[str]) -> tuple[str, str, int | None]:
    given = dict(zip(options[::2], options[1::2], strict=True))
    threshold = given.get("--match")
    return (
        given.get("--variant", "slide"),
        given.get("--first", "lowest"),
        int(threshold) if threshold else None,
    )


def first_player(options: list[str]) -> int | None:
    return 0 if "chosen" in options else None


# --- One decision -----------------------------------------------------------------------------

START = ["play", "--bots", "random", "--seed", "42"]


def test_an_illegal_action_is_refused_with_its_rule_and_the_state_is_unchanged_b1(
    tmp_path: Path,
) -> None:
    result = dekal([*START, "--json", "--record", str(tmp_path / "g.dkr")], "take 0 4\nb3\n")
    lines = [json.loads(line) for line in result.output.splitlines()]
    prompts = [i for i, obj in enumerate(lines) if "prompt" in obj]
    refusal = lines[prompts[0] + 1]
    assert refusal["error"]["kind"] == "illegal" and refusal["error"]["rule"] == "T3"
    assert lines[prompts[1]]["position"] == lines[prompts[0]]["position"]
    assert lines[prompts[1]]["prompt"] == "reveal"


def test_text_refusal_names_the_rule_and_asks_again() -> None:
    result = dekal(START, "reveal 0 e9\ntake 0 4\n")
    assert "malformed cell" in result.output
    assert "illegal (rule T3): no card can be taken before every seat has revealed" in (
        result.output
    )
    assert result.output.count("pick a face-down card of your grid to reveal> ") == 3


@pytest.mark.parametrize("typed", ["b3", "B3", "reveal b3", "reveal 0 b3"])
def test_short_forms_of_an_action_are_the_full_notation(typed: str, tmp_path: Path) -> None:
    record = tmp_path / "g.dkr"
    dekal([*START, "--record", str(record)], typed + "\n")
    assert "1. reveal 0 b3" in record.read_text(encoding="utf-8")


def test_in_a_take_t_is_ten_and_in_a_push_t_is_the_top(tmp_path: Path) -> None:
    # seed 42: seat 0 reveals b3 (a 1), the random seat 1 reveals d4 (a ten); seat 0 starts
    record = tmp_path / "g.dkr"
    dekal([*START, "--record", str(record)], "b3\nT\nT\n")
    assert "reveal 0 b3, reveal 1 d4, take 0 T, push 0 T" in record.read_text(encoding="utf-8")


def test_another_seats_action_is_refused_naming_the_seat() -> None:
    result = dekal([*START, "--json"], "reveal 1 a1\n")
    errors = [obj["error"] for obj in map(json.loads, result.output.splitlines()) if "error" in obj]
    assert errors == [
        {
            "kind": "notation",
            "field": "seat",
            "message": "malformed seat: you play seat 0: write your own seat, or leave it out",
        }
    ]


def test_legal_lists_the_human_seats_actions_in_the_reference_order() -> None:
    result = dekal(START, "legal\n")
    cells = [f"{c}{r}" for r in "1234" for c in "abcd"]
    assert f"legal: {', '.join(f'reveal 0 {cell}' for cell in cells)}" in result.output


def test_help_explains_the_short_forms_and_the_commands() -> None:
    result = dekal(START, "help\n")
    assert "A lone word is read with the verb of the phase" in result.output
    assert "legal" in result.output and "quit" in result.output


def test_quit_ends_cleanly_and_saves_what_was_played(tmp_path: Path) -> None:
    record = tmp_path / "g.dkr"
    result = dekal([*START, "--record", str(record)], "b3\nquit\nb1\n")
    assert result.exit_code == 0
    assert "stopped in round 1, turn 1: no result" in result.output
    assert replayed_states(record)[-1].phase.value == "take"
    assert "reveal 1" in record.read_text(encoding="utf-8")  # b1 was never read


def test_an_overlong_line_is_refused_whole_and_the_next_line_is_read() -> None:
    result = dekal([*START, "--json"], "b" * 5000 + "\nb3\n")
    lines = [json.loads(line) for line in result.output.splitlines()]
    errors = [obj["error"] for obj in lines if "error" in obj]
    assert errors == [
        {
            "kind": "notation",
            "field": "action",
            "message": "malformed action: a line of more than 200 characters",
        }
    ]
    assert {"event": "picked", "seat": 0, "cell": "b3"}.items() <= next(
        obj for obj in lines if obj.get("event") == "picked"
    ).items()


def test_end_of_input_before_any_move_saves_nothing(tmp_path: Path) -> None:
    record = tmp_path / "g.dkr"
    result = dekal([*START, "--record", str(record)], "")
    assert result.exit_code == 0 and "nothing was played: no record saved" in result.output
    assert not record.exists()


def test_the_default_record_name_is_printed_and_never_overwrites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dekal-play-42.dkr").write_text("an older game", encoding="utf-8")
    result = dekal(START, "b3\n")
    assert "record saved to dekal-play-42-2.dkr" in result.output
    assert (tmp_path / "dekal-play-42.dkr").read_text(encoding="utf-8") == "an older game"


def test_a_current_directory_that_takes_no_file_is_refused_before_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without --record the game is saved where dekal runs: found out before the first move,
    not after the last one."""
    monkeypatch.chdir("/proc")  # no new file can be made in /proc, not even by root
    result = dekal([*START, "--json"], "b3\n")
    assert result.exit_code == 2
    error = json.loads(result.output.splitlines()[-1])["error"]
    assert error["field"] == "--record" and "give --record FILE" in error["message"]


# --- Options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--players", "4", "--bots", "random,greedy"], "--bots"),
        (["--players", "2", "--seat", "2"], "--seat"),
        (["--players", "7"], "--players"),
        (["--bots", "chess"], "--bots"),
        (["--variant", "diagonal"], "variant"),
    ],
)
def test_a_bad_table_is_one_json_error_naming_the_field(args: list[str], field: str) -> None:
    result = dekal(["play", *args, "--json"])
    assert result.exit_code == 2
    error: dict[str, Any] = json.loads(result.output)["error"]
    assert error["field"] == field


def test_bot_options_stay_with_their_bot_in_the_list() -> None:
    assert split_bot_specs("greedy,ismcts:iterations=20,c=0.7,pimc:samples=4,random") == [
        "greedy",
        "ismcts:iterations=20,c=0.7",
        "pimc:samples=4",
        "random",
    ]


def test_the_searching_bots_sit_at_the_table_with_their_options(tmp_path: Path) -> None:
    record = tmp_path / "g.dkr"
    args = ["play", "--bots", "pimc:samples=3,ismcts:iterations=8,batch=4", "--seed", "6"]
    result = dekal([*args, "--record", str(record), "--json"], "a1\nlegal\n")
    start = json.loads(result.output.splitlines()[0])
    assert [bot["bot"] for bot in start["bots"]] == [
        "pimc:samples=3",
        "ismcts:iterations=8,batch=4",
    ]
    assert replayed_states(record)[-1].phase.value == "take"  # every seat revealed: bots too


def test_a_table_of_six_seats_three_bot_kinds_and_the_chosen_first_player(tmp_path: Path) -> None:
    args = ["play", "--players", "6", "--bots", "random", "--first", "chosen", "--seat", "5"]
    result = dekal([*args, "--seed", "3", "--json", "--record", str(tmp_path / "g.dkr")], "")
    start = json.loads(result.output.splitlines()[0])
    assert start["first_player"] == 0 and len(start["bots"]) == 5 and start["you"] == 5


def test_under_the_chosen_rule_the_table_chooses_who_starts(tmp_path: Path) -> None:
    """F3: with --first chosen the players choose the first player; --starts is their choice,
    and the game is the one dekal.bots.table plays with that first player."""
    record = tmp_path / "g.dkr"
    args = ["play", "--players", "3", "--bots", "random", "--first", "chosen", "--starts", "2"]
    result = dekal([*args, "--seed", "4", "--json", "--record", str(record)], "a1\n")
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert lines[0]["first_player"] == 2
    takes = [line["seat"] for line in lines if line.get("event") == "take"]
    prompts = [line["prompt"] for line in lines if "prompt" in line]
    assert takes == [2] and prompts == ["reveal", "take"]  # seat 2 takes first, then seat 0
    assert parse_record(record.read_text(encoding="utf-8")).first_player == 2


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--starts", "1"], "needs --first chosen (F3)"),
        (["--first", "chosen", "--starts", "3"], "seat 3 is not at a table of 3"),
    ],
)
def test_starts_is_refused_without_the_chosen_rule_or_outside_the_table(
    options: list[str], words: str
) -> None:
    result = dekal(["play", "--players", "3", "--bots", "random", *options, "--json"], "")
    assert result.exit_code == 2
    error = json.loads(result.output.strip().splitlines()[-1])["error"]
    assert error["field"] == "--starts" and words in error["message"]
