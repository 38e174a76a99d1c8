"""`dekal replay`: play a game record through the engine, turn by turn (every rule; B1).

The record is read (text or JSON, detected), then replayed step by step. The story of the game
is told from the steps alone (each action and the state after it), so any engine that yields
such steps can be plugged in through REPLAYERS.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from dekal._atomic import write_atomic
from dekal.cli._common import (
    ENGINE_HELP,
    DekalCommand,
    checked,
    engine_by_name,
    fail,
    fail_with,
    grid_picture,
    out,
    output_directory,
    print_json,
    read_text_file,
)
from dekal.cli._paths import input_file
from dekal.cli._pictures import side_by_side
from dekal.cli._written import wrote
from dekal.engines import DEFAULT_ENGINE
from dekal_ref.actions import NewRound, PushMove, Reveal, Take
from dekal_ref.deal import Deal
from dekal_ref.errors import DekalError
from dekal_ref.json_reading import read_json
from dekal_ref.notation import cell_name, format_grid, value_symbol
from dekal_ref.position import format_grid_cells, format_position
from dekal_ref.ranking import ranking, round_scores
from dekal_ref.reading import shown
from dekal_ref.record import (
    GameRecord,
    ReplayError,
    Step,
    check_result,
    iter_replay,
    parse_record,
    record_from_json,
)
from dekal_ref.record.text import MAX_RECORD_CHARS
from dekal_ref.state import GameState, Phase
from dekal_ref.svg import step_svg
from dekal_ref.words import plural

REPLAY_HELP = """Play a game record and tell the game turn by turn.

The engine plays the record. RECORD is a record file, text (.dkr) or JSON (detected), '-'
to read it from standard input, or the name of a record bundled with Dékal Lab (see
spec/examples/):

\b
    dekal replay two-players-first-tie
    dekal replay spec/examples/three-players-eject-match.dkr --quiet
    dekal replay game.json --json
    dekal replay two-players-first-tie --engine ref    # the reference engine plays it
    dekal replay two-players-first-tie --quiet --svg pictures/   # one SVG per step

Every move is checked (rules T1-T5, P1-P2, F1-F4, M5, S4). A record with an illegal move,
a deal that is not its seed's, or a written result the replay contradicts is refused with
one line naming the round, the turn, the action and the rule, and exit code 2. The record
format is described in spec/notation.md, "Game records".
"""


# --- Reading ------------------------------------------------------------------------------


def bundled_examples() -> dict[str, str]:
    """Bundled record name (file name without .dkr) -> its text."""
    folder = resources.files("dekal.spec").joinpath("examples")
    if not folder.is_dir():
        return {}
    return {
        entry.name.removesuffix(".dkr"): entry.read_text(encoding="utf-8")
        for entry in folder.iterdir()
        if entry.name.endswith(".dkr")
    }


def read_source(source: str) -> str:
    """The record's text: '-' is standard input, then a file, then a bundled record's name.

    At most MAX_RECORD_CHARS are read (one more, to tell that a record is too long)."""
    if source == "-":
        try:
            return sys.stdin.read(MAX_RECORD_CHARS + 1)
        except UnicodeDecodeError as error:
            fail(
                f"standard input is not UTF-8 text (byte {error.start})",
                kind="input",
                field="RECORD",
            )
    try:
        is_there = os.path.lexists(source)
    except (OSError, ValueError):  # a name no file can have (a NUL byte)
        is_there = False
    if is_there:  # a FIFO, a device, /proc: refused before anything is read (dekal.cli._paths)
        return read_text_file(checked(input_file, source, "RECORD"), "RECORD", MAX_RECORD_CHARS)
    examples = bundled_examples()
    name = Path(source).name.removesuffix(".dkr")
    if name in examples and len(Path(source).parts) == 1:
        return examples[name]
    known = ", ".join(sorted(examples)) or "none"
    fail(f"no record file {shown(source)} (bundled records: {known})", kind="input", field="RECORD")


def load_record(text: str) -> GameRecord:
    """A record from its text or JSON form (JSON when it starts with '{'); NotationError if
    it is longer than MAX_RECORD_CHARS, or malformed."""
    if text.lstrip().startswith("{"):
        return record_from_json(read_json(text, "record", max_chars=MAX_RECORD_CHARS))
    return parse_record(text)


# --- Telling the story --------------------------------------------------------------------


def _public_grid(state: GameState, seat: int) -> str:
    """A seat's grid as the players see it: face-down cards are '?' (M3)."""
    return format_grid_cells(state.grids[seat], public=True)


def _first_player_story(picked: GameState, after: GameState) -> str:
    """F1–F2 told: the lowest card, and the draws that broke a tie.

    `picked` is the state with every pick made, just before the reveal (T1)."""
    revealed = [
        picked.values(seat)[cell] for seat, cell in enumerate(picked.picks) if cell is not None
    ]
    lowest = min(revealed)
    tied = [seat for seat, value in enumerate(revealed) if value == lowest]
    if len(tied) == 1:
        return f"seat {after.start} starts: the lowest card, {value_symbol(lowest)} (F1)"
    seats = ", ".join(str(seat) for seat in tied)
    draws = " ".join(value_symbol(v) for v in after.removed)
    if not after.removed:
        return (
            f"seats {seats} tie on {value_symbol(lowest)}; the set-aside pile is too short: "
            f"seat {after.start}, the lowest tied seat, starts (F2)"
        )
    return (
        f"seats {seats} tie on {value_symbol(lowest)}; set-aside draws {draws}: "
        f"seat {after.start} starts (F2)"
    )


def _with_pick(state: GameState, action: Reveal) -> GameState:
    """The state with `action`'s pick made but not revealed yet (to tell what was revealed)."""
    picks = state.picks[: action.seat] + (action.cell,) + state.picks[action.seat + 1 :]
    return replace(state, picks=picks)


def _round_header(state: GameState, deal: Deal) -> Iterator[Text]:
    if state.start is None:
        start = "the lowest card revealed on turn 1 will start (F1)"
    elif state.round == 1:
        start = f"seat {state.start} was chosen to start (F3)"
    else:
        start = f"seat {state.start} starts, left of the last round's first player (F4)"
    yield Text(f"round {state.round}: {start}", style="bold")
    for seat, grid in enumerate(deal.grids):
        yield Text(f"  seat {seat} is dealt {format_grid(grid)}")
    yield Text(f"  set-aside pile: {plural(len(deal.pile), 'card')}")


def story(steps: Iterator[Step]) -> Iterator[Text]:
    """The game told as it is replayed: one line (or a picture) per event."""
    before: GameState | None = None
    taken: Take | None = None
    for step in steps:
        state, action = step.state, step.action
        if isinstance(action, NewRound):
            yield from _round_header(state, action.deal)
        elif isinstance(action, Reveal) and before is not None and state.phase is Phase.TAKE:
            picked = _with_pick(before, action)
            reveals = ", ".join(
                f"seat {seat} {cell_name(cell)} ({value_symbol(picked.values(seat)[cell])})"
                for seat, cell in enumerate(picked.picks)
                if cell is not None
            )
            yield Text(f"turn {state.turn}: reveals {reveals}")
            if picked.start is None:
                yield Text("  " + _first_player_story(picked, state))
        elif isinstance(action, Take):
            taken = action
        elif isinstance(action, PushMove):
            card = value_symbol(taken.card) if taken is not None else "?"
            yield Text(
                f"  seat {action.seat} takes {card}, pushes {action.push}: "
                f"{_public_grid(state, action.seat)}"
            )
            if state.phase in (Phase.NEXT_ROUND, Phase.OVER):
                yield from _round_result(state)
        before = state


def _round_result(state: GameState) -> Iterator[Text]:
    yield Text(f"round {state.round} is scored (S1, S2):", style="bold")
    seats = []
    for seat, score in enumerate(round_scores(state)):
        picture = grid_picture(state.values(seat), score.cancelled, title=f"  seat {seat}")
        points, left = plural(score.points, "point"), plural(score.remaining, "card")
        picture.append(f"  {points}\n  {left} left\n")  # two short lines: seats fit side by side
        seats.append(picture)
    yield side_by_side(seats, out.width)
    if state.rules.threshold is not None:
        totals = " ".join(str(t) for t in state.totals)
        yield Text(
            f"  totals after round {state.round}: {totals} (threshold {state.rules.threshold})"
        )


def ranking_lines(state: GameState) -> Iterator[Text]:
    standings = ranking(state)
    match = state.rules.threshold is not None
    winners = [s.seat for s in standings if s.place == 1]
    if len(winners) == 1:
        yield Text(f"seat {winners[0]} wins", style="bold")
    else:
        yield Text(f"seats {', '.join(map(str, winners))} share the victory", style="bold")
    for s in standings:
        shared = "=" if sum(o.place == s.place for o in standings) > 1 else " "
        left = plural(s.remaining, "card")
        what = f"total {s.total}" if match else f"{plural(s.points, 'point')}, {left} left"
        yield Text(f"  {s.place}{shared} seat {s.seat}: {what}")


# --- JSON summary -------------------------------------------------------------------------


def summary(rec: GameRecord, states: list[GameState]) -> dict[str, Any]:
    """What a machine wants to know about a replayed record."""
    final = states[-1]
    rounds: list[dict[str, Any]] = []
    for state in states:
        if state.phase not in (Phase.NEXT_ROUND, Phase.OVER) or (
            rounds and rounds[-1]["round"] == state.round
        ):
            continue
        rounds.append(
            {
                "round": state.round,
                "start": state.start,
                "draws": [value_symbol(v) for v in state.removed],
                "grids": [format_grid_cells(grid) for grid in state.grids],
                "scores": [
                    {
                        "seat": seat,
                        "points": s.points,
                        "remaining": s.remaining,
                        "cancelled": [cell_name(c) for c in sorted(s.cancelled)],
                    }
                    for seat, s in enumerate(round_scores(state))
                ],
                "totals": list(state.totals) if state.rules.threshold is not None else None,
            }
        )
    over = final.phase is Phase.OVER
    standings = ranking(final) if over else []
    return {
        "ok": True,
        "rules": {
            "players": rec.rules.players,
            "push": rec.rules.push,
            "first": rec.rules.first,
            "threshold": rec.rules.threshold,
        },
        "rounds": rounds,
        "over": over,
        "ranking": [{"place": s.place, "seat": s.seat} for s in standings],
        "winners": [s.seat for s in standings if s.place == 1],
        "position": format_position(final),
    }


# --- The command --------------------------------------------------------------------------


def replay(
    record: Annotated[
        str,
        typer.Argument(
            metavar="RECORD", help="A record file (text or JSON), - for stdin, or a bundled name."
        ),
    ],
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Print one JSON summary instead; an error is {"error": {"kind", "rule" or'
            ' "field", "message", "round", "turn", "action"}}.',
        ),
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="Print only the result: not every turn, nor the files written."
        ),
    ] = False,
    engine: Annotated[str, typer.Option(metavar="fast|ref", help=ENGINE_HELP)] = DEFAULT_ENGINE,
    svg: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="Write one SVG picture per step into DIR (made if missing, in a folder that"
            " exists).",
            parser=output_directory,
        ),
    ] = None,
) -> None:
    api = engine_by_name(engine)
    text = read_source(record)
    states: list[GameState] = []
    try:
        rec = load_record(text)
        for line in story(_collect(iter_replay(rec, api), states)):
            if not quiet and not json_output:
                out.print(line)
        check_result(rec, states)
    except DekalError as error:
        where = None
        if isinstance(error, ReplayError):
            where = {"round": error.round, "turn": error.turn, "action": error.action}
        fail_with(error, details=where)
    if svg is not None:
        wrote(write_step_pictures(svg, rec, states), quiet)
    if json_output:
        print_json(summary(rec, states))
        return
    final = states[-1]
    if final.phase is Phase.OVER:
        for line in ranking_lines(final):
            out.print(line)
    else:
        out.print(
            Text(
                f"the record stops in round {final.round}, turn {final.turn} "
                f"({final.phase.value}): no result yet",
                style="bold",
            )
        )


def write_step_pictures(folder: Path, rec: GameRecord, states: list[GameState]) -> list[Path]:
    """--svg DIR: step-0001.svg (the deal), step-0002.svg, ...: before, action, after; the
    files written, in order."""
    written: list[Path] = []
    actions = [NewRound(rec.rounds[0].deal), *rec.steps()]  # the steps iter_replay played
    try:
        folder.mkdir(exist_ok=True)  # its parent was checked (output_directory)
        for number, (action, after) in enumerate(zip(actions, states, strict=True), start=1):
            before = states[number - 2] if number > 1 else None
            picture = step_svg(before, action, after)
            path = folder / f"step-{number:04d}.svg"
            write_atomic(path, picture)  # whole or not at all: NotWritten is an OSError
            written.append(path)
    except OSError as error:
        fail(f"{shown(str(folder))}: cannot write: {error.strerror}", kind="input", field="--svg")
    return written


def _collect(steps: Iterator[Step], states: list[GameState]) -> Iterator[Step]:
    """Pass the steps on, keeping every state (the result check needs them all)."""
    for step in steps:
        states.append(step.state)
        yield step


def register(app: typer.Typer) -> None:
    app.command("replay", help=REPLAY_HELP, cls=DekalCommand)(replay)
