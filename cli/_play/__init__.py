"""`dekal play`: a game at the terminal, one human seat against bots (rules T1–T5, M3, B1).

The table (dekal.cli._play.table) plays the game on the reference engine and asks the human
only for the human's own decisions; the view (dekal.cli._play.views) shows what that seat may
see and nothing else (M3). An illegal action is refused with its rule and asked again, the
state unchanged (B1). When the game ends, or the human quits (`quit`, Ctrl-D), the game so
far is saved as a record that `dekal replay` plays back.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from dekal.bots.annotate import annotate
from dekal.bots.bot import Bot
from dekal.cli._bot_specs import checked_bot
from dekal.cli._common import (
    EXIT_BAD_INPUT,
    DekalCommand,
    error_object,
    fail,
    output_file,
    print_json,
    user_errors,
    whole_number,
)
from dekal.cli._paths import PathRefused, output_folder
from dekal.cli._play.record import RecordNotWritten, write_record
from dekal.cli._play.table import Step, Table, read_human_action, seat_actions
from dekal.cli._play.views import JsonView, TextView, View
from dekal.cli._progress import progress_bar
from dekal.cli._stopping import Interrupted
from dekal_ref.errors import DekalError, NotationError
from dekal_ref.notation import parse_first_rule, parse_variant
from dekal_ref.reading import SEED_MAX, shown
from dekal_ref.record import format_record
from dekal_ref.state import Rules

PLAY_HELP = """Play a game of Dékal at the terminal against bots.

You sit at one seat (--seat, 0 by default); bots play the others, one spec each in --bots
in seat order, or one spec for every other seat (the bots of dekal.bots: random, greedy,
pimc, ismcts, with options after a colon, like ismcts:iterations=400,c=0.7). You see what
your seat may see: face-down cards are ?, the others' picks and the set-aside pile stay
hidden (M3); your own pick is yours to know.

\b
    dekal play --bots greedy
    dekal play --players 4 --bots greedy,pimc,ismcts --seat 2 --seed 7
    dekal play --bots pimc --variant eject --first chosen --match 100
    dekal play --players 3 --bots greedy --first chosen --starts 2
    dekal play --bots random --seed 1 --record game.dkr
    dekal play --bots greedy --practice --annotate
    printf 'legal\\nquit\\n' | dekal play --bots greedy --seed 1 --json

At each of your decisions type an action: b3 (reveal), 7 or T (take), L or L2 (push),
or in full, 'reveal 0 b3', 'take 0 T', 'push 0 L2' (spec/notation.md, Actions); or
legal (your legal actions), help (how a round is won, and these forms), quit. The prompt
lists the values you may take and the sides you may push from (a corner hole leaves two).

A game is rated unless --practice: a practice game also takes hint (dekal advise on your
view, from 200 worlds: each move's expected score) and undo (take back your last decision
and what the bots played after it, within the round), and its record says how often each
was used; a rated game refuses both. --annotate prints, when the game ends, the annotation
of your decisions (dekal annotate on the saved record, 200 worlds a decision).

An illegal action is refused with the rule it breaks, and you are asked again. Ctrl-D or
quit ends the game; the record of what was played is saved (--record FILE, else
dekal-play-SEED.dkr) for dekal replay.

--json: one JSON object per line on standard output, an event for each thing that happens
({"event": "revealed", ...}), a prompt for each of your decisions ({"prompt": "take",
"legal": [...], ...}); your actions are read one per line from standard input
(docs/guide.md, "Playing against bots").
"""

ANNOTATE_SAMPLES = 200
"""Worlds a decision for --annotate: a whole game's decisions within seconds; `dekal annotate`
with more --samples for finer figures."""

MAX_LINE = 200
"""The longest line the human may type: more is refused, never read whole."""


def split_bot_specs(specs: str) -> list[str]:
    """`greedy,pimc:samples=50,worlds=3,random` -> greedy, pimc:samples=50,worlds=3, random:
    a piece `name=value` continues the options of the bot before it (dekal.bots.bot)."""
    names: list[str] = []
    for piece in (piece.strip() for piece in specs.split(",")):
        if names and "=" in piece and ":" not in piece:
            names[-1] += "," + piece
        else:
            names.append(piece)
    return names


def parse_bot_list(specs: str, players: int | None) -> list[str]:
    """--bots: one spec per other seat, or one spec for every other seat."""
    names = split_bot_specs(specs)
    if not all(names):
        fail(f"{shown(specs)}: an empty bot name", field="--bots")
    if players is None:
        return names
    if len(names) == 1:
        return names * (players - 1)
    if len(names) != players - 1:
        fail(
            f"{len(names)} bots for {players - 1} other seats: give one per other seat, or one",
            field="--bots",
        )
    return names


def read_line() -> str | None:
    """The human's next line, without its end; None at the end of input (Ctrl-D).
    NotationError for a line that is not text or longer than MAX_LINE (dropped whole)."""
    try:
        line = sys.stdin.readline(MAX_LINE + 1)
    except UnicodeDecodeError:
        raise NotationError("action", "the line is not UTF-8 text") from None
    if len(line) > MAX_LINE and not line.endswith("\n"):
        while (rest := sys.stdin.readline(4096)) and not rest.endswith("\n"):
            pass  # the rest of the overlong line is dropped, not read as further actions
        raise NotationError("action", f"a line of more than {MAX_LINE} characters")
    return line.strip() if line else None


def ask_human(table: Table, view: View) -> Step | None:
    """Ask until the human gives a legal action and play it; None when they quit or the
    input ends."""
    while True:
        view.prompt(table)
        try:
            line = read_line()
        except NotationError as error:
            view.heard("")
            view.refused(error)
            continue
        view.heard(line)
        if line is None or line == "quit":
            return None
        if line == "":
            continue
        if line == "legal":
            view.legal(seat_actions(table.state, table.human))
        elif line == "help":
            view.help()
        elif line in ("hint", "undo"):
            try:
                if line == "hint":
                    with view.waiting(table):
                        view.hint(table.hint())
                else:
                    view.undone(table, table.undo())
            except DekalError as error:  # a rated game, or nothing to take back
                view.refused(error)
        else:
            try:
                action = read_human_action(line, table.state, table.human)
                return table.play(action)  # B1: an illegal action leaves the table as it was
            except DekalError as error:
                view.refused(error)


def run_game(
    table: Table, view: View, keep: Callable[[Table], object] = lambda table: None
) -> None:
    """The table loop: the bots act until the human decides, the human decides, and so on.
    `keep(table)` before each question writes the record so far (dekal.cli._play.record)."""
    view.started(table)
    while not table.over:
        if not table.human_decides():
            with view.waiting(table):
                step = table.play_table()
            view.step(table, step)
            continue
        keep(table)
        answer = ask_human(table, view)
        if answer is None:
            return
        view.step(table, answer)


def save_record(table: Table, path: Path) -> Path | None:
    """Write the game so far, replacing the record written before (None when nothing was
    played yet): dekal.cli._play.record."""
    if not table.played_anything():
        return None
    write_record(path, format_record(table.record()))  # RecordNotWritten: see record_lost
    return path


def record_lost(error: RecordNotWritten, json_output: bool) -> NoReturn:
    """The record could not be written: the game stops with one error naming --record (a
    JSON error object among the game's JSON lines under --json). The record written before
    is left whole (dekal.cli._play.record)."""
    if json_output:
        print_json(error_object(str(error), "usage", field="--record"))
        raise typer.Exit(EXIT_BAD_INPUT)
    fail(str(error), field="--record")


def check_current_folder() -> None:
    """Without --record the game is saved in the current folder at the end: a folder that
    takes no new file is refused before the game, not after it (dekal.cli._paths)."""
    try:
        output_folder(Path.cwd())
    except (PathRefused, OSError) as error:  # OSError: the current folder was removed
        fail(f"the game is saved in the current folder, and {error}: give --record FILE",
             field="--record")  # fmt: skip


def _free_name(path: Path) -> Path:
    """`path`, or path-2, path-3, … if it exists: a default name never overwrites a game."""
    number = 2
    candidate = path
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
        number += 1
    return candidate


def play(
    players: Annotated[
        int | None,
        typer.Option(
            metavar="P",
            help="Seats at the table, 2-6 (M2); default: one more than --bots lists.",
            parser=whole_number(2, 6, "Dékal is played by 2 to 6 players, M2"),
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            metavar="SPEC,...",
            help="The bots, one per other seat in seat order, or one for all: random,"
            " greedy, pimc, ismcts (options: NAME:OPTION=VALUE,OPTION=VALUE), or cmd:PROGRAM"
            " (spec/bot-protocol.md).",
        ),
    ] = "greedy",
    seat: Annotated[
        int,
        typer.Option(metavar="S", help="Your seat, 0 to P-1.", parser=whole_number(0, 5)),
    ] = 0,
    seed: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="The game's seed (deals and bots' draws), 0 ≤ N < 2^64; default: a random one.",
            parser=whole_number(0, SEED_MAX),
        ),
    ] = None,
    variant: Annotated[
        str, typer.Option(metavar="slide|eject", help="Push rule: slide (P1) or eject (P2).")
    ] = "slide",
    first: Annotated[
        str,
        typer.Option(
            metavar="lowest|chosen",
            help="First player: the lowest card revealed (F1, F2), or chosen (F3): --starts.",
        ),
    ] = "lowest",
    starts: Annotated[
        int | None,
        typer.Option(
            metavar="S",
            help="With --first chosen: the seat the table chooses to start, 0 to P-1; default 0.",
            parser=whole_number(0, 5),
        ),
    ] = None,
    match: Annotated[
        int | None,
        typer.Option(
            metavar="THRESHOLD",
            help="Play a match to THRESHOLD points (S4) instead of one round.",
            parser=whole_number(1, 10_000),
        ),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Save the record there (default dekal-play-SEED.dkr, never overwritten).",
            parser=output_file,
        ),
    ] = None,
    practice: Annotated[
        bool,
        typer.Option(
            "--practice",
            help="A practice game: hint and undo are allowed, and the record says how often"
            " they were used. Without it the game is rated: your own play, unaided.",
        ),
    ] = False,
    annotate_game: Annotated[
        bool,
        typer.Option(
            "--annotate",
            help=f"When the game ends, print the annotation of your decisions (dekal annotate,"
            f" {ANNOTATE_SAMPLES} worlds a decision).",
        ),
    ] = False,
    json_output: Annotated[
        bool,
        typer.Option("--json", help="Machine mode: JSON lines out, one action per line in."),
    ] = False,
) -> None:
    if record is None:  # --record FILE was checked as it was read (output_file)
        check_current_folder()
    specs = parse_bot_list(bots, players)
    players = players or len(specs) + 1
    if len(specs) != players - 1 or players > 6:  # 2 to 6 seats, the human's included
        fail(f"{len(specs)} bots make {len(specs) + 1} players: Dékal has 2 to 6 (M2)",
             rule="M2", field="--bots")  # fmt: skip
    if seat >= players:
        fail(f"seat {seat} is not at a table of {players} (seats 0 to {players - 1})",
             field="--seat")  # fmt: skip
    with user_errors():
        rules = Rules(
            players=players,
            push=parse_variant(variant.strip().lower()),
            first=parse_first_rule(first),
            threshold=match,
        )
    if starts is not None and rules.first != "chosen":
        fail("--starts chooses the first player: it needs --first chosen (F3); under --first "
             "lowest the lowest card revealed decides (F1, F2)", field="--starts")  # fmt: skip
    if starts is not None and starts >= players:
        fail(f"seat {starts} is not at a table of {players} (seats 0 to {players - 1})",
             field="--starts")  # fmt: skip
    try:
        others = iter([checked_bot(spec) for spec in specs])
    except NotationError as error:
        fail(error.message, field="--bots")  # named as advise names its --bot
    seated = [None if s == seat else next(others) for s in range(players)]
    table = Table(
        rules=rules,
        seed=secrets.randbelow(SEED_MAX + 1) if seed is None else seed,
        human=seat,
        bots=seated,
        first_player=(starts or 0) if rules.first == "chosen" else None,
        practice=practice,
    )
    view: View = JsonView() if json_output else TextView()
    # one name for the whole game: the record is written again as the game goes
    path = record or _free_name(Path(f"dekal-play-{table.seed}.dkr"))
    try:
        run_game(table, view, keep=lambda table: save_record(table, path))
        saved = save_record(table, path)
    except Interrupted:
        with suppress(RecordNotWritten):  # main says why the game stopped, in one line
            save_record(table, path)  # Ctrl-C: what was played is kept
        raise
    except RecordNotWritten as error:
        record_lost(error, json_output)
    finally:
        end_programs(seated)
    view.ended(table, saved)
    if annotate_game and table.played_anything():
        annotate_table(table, view, str(saved))


def end_programs(bots: Sequence[Bot | None]) -> None:
    """End the bot programs (`cmd:`) of a game over, however it ended: each one's process
    group is ended and the process reaped here (dekal.bots._protocol.process_bot). A Ctrl-C leaves
    the command by os._exit, which runs no exit handler: without this its programs were
    only killed by the stop's last resort, unreaped."""
    from dekal.bots._protocol.process_bot import ProcessBot

    for bot in bots:
        if isinstance(bot, ProcessBot):
            bot.close()


def annotate_table(table: Table, view: View, name: str) -> None:
    """--annotate: the human's decisions judged as `dekal annotate NAME --seat S --samples
    ANNOTATE_SAMPLES` judges them (seed 0, model greedy)."""
    with progress_bar("annotate") as report:
        annotation = annotate(
            table.record(), [table.human], samples=ANNOTATE_SAMPLES, progress=report
        )
    view.annotated(name, annotation)


def register(app: typer.Typer) -> None:
    app.command("play", help=PLAY_HELP, cls=DekalCommand)(play)
