"""`dekal show`: the picture of a grid or a position, as text or SVG (notation.md; S1, M3).

A picture reads the notation and the reference's state and nothing reads it back: the SVG is
drawn by dekal_ref.svg, the text by dekal.cli._pictures, from the same cell looks
(dekal_ref.picture).
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.text import Text

from dekal.cli._common import fail, out, output_file_or_stdout, print_json, user_errors
from dekal.cli._pictures import grid_picture, legend, position_picture
from dekal.cli._written import Quiet, write_output, wrote
from dekal_ref.notation import HOLE, Grid, cell_name, format_grid, parse_grid
from dekal_ref.picture import CardLook, grid_looks, score_caption, seat_looks
from dekal_ref.position import format_position, parse_position
from dekal_ref.scoring import score_grid
from dekal_ref.state import GameState
from dekal_ref.svg import grid_svg, position_svg

SHOW_HELP = """Draw a grid or a position, as text or SVG.

A grid (four rows joined by '/') is drawn scored: the cards S1 cancels are marked [x].
A position (the ten fields of spec/notation.md, quoted) draws every seat's grid; face-down
cards are marked (x), or hidden as ? with --public, the view the players have (M3).

\b
    dekal show 5T32/1.44/9999/TT11
    dekal show 5T32/1444/9999/TT11 --svg grid.svg
    dekal show 5T32/1444/9999/TT11 --svg - > grid.svg
    dekal show "slide/lowest/single 1.1 push@0:1 0 jj.b/gfhh/gabg/baja|.ejh/bcch/jdie/djej -,- 3 25566376374645612481935447358T196T78935165878718672994349226493T1992 - 0,0" --public
    dekal show 5T32/1444/9999/TT11 --json

In the SVG every card is an element with data-cell, data-value and data-state (face-up,
face-down, hole or cancelled); --json prints the same cells.
"""  # noqa: E501 (an example is one line, however long, so it can be copied)


def _cells_json(looks: tuple[CardLook, ...]) -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = []
    for look in looks:
        cell: dict[str, Any] = {"cell": cell_name(look.cell), "state": look.state}
        if look.value is not None:
            cell["value"] = look.value
        cells.append(cell)
    return cells


def _write_svg(picture: str, target: str) -> None:
    if target == "-":
        sys.stdout.write(picture)
        return
    write_output(target, picture, "--svg")  # checked before the work (output_file_or_stdout)


def _grid_json(grid: Grid) -> dict[str, Any]:
    score = score_grid(grid)
    payload: dict[str, Any] = {
        "grid": format_grid(grid),
        "score": score.points,
        "remaining": score.remaining,
        "cells": _cells_json(grid_looks(grid, scored=True)),
    }
    if HOLE in grid:  # as `dekal score --json` says it: the grid is not final
        payload["hole"] = cell_name(grid.index(HOLE))
    return payload


def _position_json(state: GameState, public: bool) -> dict[str, Any]:
    return {
        "position": format_position(state, public),
        "public": public,
        "seats": [
            {
                "seat": seat,
                "grid": format_grid(state.values(seat)) if not public else None,
                "cells": _cells_json(seat_looks(state, seat, public)),
            }
            for seat in range(state.players)
        ],
    }


def show(
    notation: Annotated[
        str, typer.Argument(metavar="GRID|POSITION", help="A grid, or a position in quotes.")
    ],
    public: Annotated[
        bool, typer.Option("--public", help="Draw a position as the players see it (M3).")
    ] = False,
    svg: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Write the SVG picture to FILE (- for stdout).",
            parser=output_file_or_stdout,
        ),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the cells as one JSON object.")
    ] = False,
    quiet: Quiet = False,
) -> None:
    if svg == "-" and json_output:
        fail("--svg - and --json both write to standard output: choose one", field="--svg")
    is_position = len(notation.split()) > 1
    if public and not is_position:
        fail(
            "--public hides face-down cards: it applies to a position, and a grid has none",
            field="--public",
        )
    with user_errors():
        if is_position:
            state = parse_position(notation)
        else:
            grid = parse_grid(notation)
    if is_position:
        picture, payload = position_svg(state, public), _position_json(state, public)
    else:
        picture, payload = grid_svg(grid), _grid_json(grid)
    if svg is not None:
        _write_svg(picture, svg)
        wrote(svg, quiet)
    if json_output:
        print_json(payload | ({"svg": svg} if svg is not None else {}))
    elif svg is None:
        _print_text(state if is_position else grid, public)


def _print_text(shown: GameState | Grid, public: bool) -> None:
    if isinstance(shown, GameState):
        out.print(position_picture(shown, public, out.width), end="")
        return
    looks = grid_looks(shown, scored=True)
    out.print(grid_picture(shown, score_grid(shown).cancelled, title=format_grid(shown)), end="")
    for line in score_caption(shown):
        out.print(Text(f"  {line}"))
    if marks := legend(looks):
        out.print(Text(f"  {marks}", style="dim"))


def register(app: typer.Typer) -> None:
    app.command("show", help=SHOW_HELP)(show)
