"""`dekal score` and `dekal push`: the rules of one grid, from the terminal (S1–S2, P1–P2)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.text import Text

from dekal.cli._common import (
    ENGINE_HELP,
    EXIT_BAD_INPUT,
    DekalCommand,
    describe,
    engine_by_name,
    err,
    error_of,
    fail,
    grid_picture,
    out,
    print_json,
    user_errors,
)
from dekal.engines import DEFAULT_ENGINE
from dekal_ref.errors import DekalError, IllegalAction
from dekal_ref.notation import (
    HOLE,
    cell_name,
    format_grid,
    parse_grid,
    parse_push,
    parse_value,
    parse_variant,
)
from dekal_ref.reading import QUOTE_LIMIT, shortened
from dekal_ref.words import plural

SCORE_HELP = """Score grids as at the end of a round (rules S1, S2).

Every card that shares a side with a card of equal value is cancelled; the score is the sum
of the cards left. A grid is four rows joined by '/', cells 1-9, T for ten:

\b
    dekal score 9994/4416/T637/2111

Give several grids, or '-' to read one grid per line from standard input:

\b
    printf '1111/2222/3333/4444\\n' | dekal score - --json

With --json each grid gives one line: {"grid", "score", "remaining", "cancelled"}, and
"hole" (its cell) for a grid with a hole, which is not a final grid: the hole counts as no
card. A malformed grid gives {"grid", "error": {"kind", "field", "message"}}, the error
object of every command. Exit code 2 if any grid is malformed (the others are still scored).

--engine ref computes with the reference engine instead of the optimized one:

\b
    dekal score 9994/4416/T637/2111 --engine ref --json
"""


def _grid_texts(grids: list[str]) -> list[str]:
    texts: list[str] = []
    for item in grids:
        if item == "-":
            try:
                texts.extend(line.strip() for line in sys.stdin if line.strip())
            except UnicodeDecodeError as error:
                fail(f"standard input is not UTF-8 text (byte {error.start})", field="GRIDS")
        else:
            texts.append(item)
    return texts


def score(
    grids: Annotated[
        list[str], typer.Argument(help="Grids like 53T2/1444/9999/TT11, or - for stdin.")
    ],
    json_output: Annotated[
        bool, typer.Option("--json", help="One JSON object per grid per line.")
    ] = False,
    engine: Annotated[str, typer.Option(metavar="fast|ref", help=ENGINE_HELP)] = DEFAULT_ENGINE,
) -> None:
    api = engine_by_name(engine)
    bad = 0
    for text in _grid_texts(grids):
        try:
            grid = parse_grid(text)
            result = api.score_grid(grid)
        except DekalError as error:
            bad += 1
            # The grid is echoed cut short: the message already quotes what is wrong in it.
            if json_output:  # the one error object, inside this grid's result
                print_json({"grid": text[:QUOTE_LIMIT]} | error_of(error, "GRIDS"))
            else:
                err.print(Text(f"error: {shortened(text)}: {describe(error)}", style="red"))
            continue
        cancelled = sorted(result.cancelled)
        hole = cell_name(grid.index(HOLE)) if HOLE in grid else None
        if json_output:
            payload = {
                "grid": format_grid(grid),
                "score": result.points,
                "remaining": result.remaining,
                "cancelled": [cell_name(c) for c in cancelled],
            }
            print_json(payload | ({"hole": hole} if hole else {}))
        else:
            out.print(grid_picture(grid, result.cancelled, title=format_grid(grid)), end="")
            names = " ".join(cell_name(c) for c in cancelled) or "none"
            out.print(Text(f"  cancelled [x]: {names}"))
            if hole:
                out.print(Text(f"  not a final grid: the hole at {hole} counts as no card"))
            left = plural(result.remaining, "card")
            out.print(f"  score {result.points} with {left} left\n", style="bold")
    if bad:
        raise typer.Exit(EXIT_BAD_INPUT)


PUSH_HELP = """Insert a card into a grid by a push (rules P1, P2).

Insert CARD into GRID from SIDE and print the grid after. GRID has exactly one hole '.'.
SIDE is L, R, T or B: the edge the card enters from. With the default slide variant the
card pushes the hole's row or column; with --variant eject, also name the line (L2 = row 2
from the left, T4 = column d from the top): along a full line, the card pushed out at the
far end drops into the hole.

\b
    dekal push 5T32/1.44/9999/TT11 L 7          # -> 5T32/7144/9999/TT11
    dekal push 5T32/1.44/9999/TT11 T3 7 --variant eject --json
    dekal push 5T32/1.44/9999/TT11 L 7 --engine ref   # the reference engine, to cross-check
"""


def push(
    grid_text: Annotated[str, typer.Argument(metavar="GRID", help="A grid with one hole '.'.")],
    side: Annotated[str, typer.Argument(help="Entry side L/R/T/B (eject: plus line, e.g. L2).")],
    card: Annotated[str, typer.Argument(help="The card to insert: 1-9 or T.")],
    variant: Annotated[
        str, typer.Option(metavar="slide|eject", help="Push rule: slide (P1) or eject (P2).")
    ] = "slide",
    json_output: Annotated[
        bool, typer.Option("--json", help='Print {"grid": "<notation>"}.')
    ] = False,
    engine: Annotated[str, typer.Option(metavar="fast|ref", help=ENGINE_HELP)] = DEFAULT_ENGINE,
) -> None:
    api = engine_by_name(engine)
    with user_errors():
        grid = parse_grid(grid_text)
        move = parse_push(side)
        value = parse_value(card)
        rule = parse_variant(variant.strip().lower())
        if 0 not in grid:
            raise IllegalAction(
                "T4",
                f"{format_grid(grid)} has no hole: a card is pushed only into a grid with one hole",
            )
        after = api.push_card(grid, move, value, rule)
    if json_output:
        print_json({"grid": format_grid(after)})
    else:
        out.print(grid_picture(after, title=f"{format_grid(grid)} + {card} from {move} ({rule})"))
        out.print(format_grid(after))


def register(app: typer.Typer) -> None:
    app.command("score", help=SCORE_HELP, cls=DekalCommand)(score)
    app.command("push", help=PUSH_HELP, cls=DekalCommand)(push)
