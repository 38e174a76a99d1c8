"""`dekal puzzle --unknown`: a guarantee puzzle (proofs/_unknown/puzzle.py), shown, and the
player's reveal checked against the proved guarantees (spec/solo-unknown.md, U5)."""

from __future__ import annotations

import random
import sys
from typing import Any

import typer
from rich.text import Text

from dekal.cli._common import EXIT_VERDICT, fail, out, print_json, user_errors
from dekal.cli._pictures import legend, looks_picture
from dekal.cli._written import write_output, wrote
from dekal.proofs._unknown.position import UNKNOWN, format_unknown_grid
from dekal.proofs._unknown.puzzle import GuaranteePuzzle, guarantee_puzzle
from dekal_ref.notation import cell_name, parse_cell
from dekal_ref.picture import FACE_DOWN, FACE_UP, CardLook
from dekal_ref.svg_puzzles import guarantee_svg
from dekal_ref.words import plural


def unknown_puzzle(
    *,
    seed: int | None,
    at_random: bool,
    level: str | None,
    variant: str,
    answer: str | None,
    solution: bool,
    json_output: bool,
    svg: str | None = None,
    quiet: bool = False,
) -> None:
    """The puzzle of --seed (or a random one, or seed 1), then the verdict or solution;
    `svg`: the puzzle drawn there too (`-`: instead, on standard output)."""
    if seed is not None:
        chosen = seed
    else:
        chosen = random.SystemRandom().randrange(1 << 32) if at_random else 1
    try:
        found = guarantee_puzzle(chosen, level=level, variant=variant)
    except ValueError as error:
        fail(str(error), field="--seed")
    cell = _reveal(found, answer) if answer is not None else None
    verdict = _verdict(found, cell) if cell is not None else None
    if svg is not None:
        picture = guarantee_picture(found)
        if svg == "-":
            sys.stdout.write(picture)
            return
        write_output(svg, picture, "--svg")  # the path was checked before the work
        wrote(svg, quiet)
    if json_output:
        payload: dict[str, Any] = {"puzzle": found.as_json()}
        if verdict is not None:
            payload["answer"] = verdict
        if solution:
            payload["solution"] = found.solution_json()
        if svg is not None:
            payload["svg"] = svg
        print_json(payload)
    else:
        if verdict is None and not solution:
            _show(found)
        if verdict is not None:
            out.print(Text(verdict["explanation"]), style="bold")
        if solution:
            _show_solution(found)
    if verdict is not None and not verdict["right"]:
        raise typer.Exit(EXIT_VERDICT)


def _unseen_note(found: GuaranteePuzzle) -> str:
    return (
        f"Nobody knows the ? cards (M3): each comes from the {found.position.unseen_total} unseen "
        "cards (the deck less the face-up ones) and goes straight back in by a push of "
        "your choice (spec/solo-unknown.md)."
    )


def _question(found: GuaranteePuzzle) -> str:
    return (
        f"With the best play you can guarantee {found.best.guaranteed} points whatever "
        f"values come, and only one first reveal of the {len(found.reveals)} does. Which?"
    )


def _heading(found: GuaranteePuzzle) -> str:
    position = found.position
    return (
        f"Guarantee puzzle, seed {found.seed} · {found.level} (difficulty {found.difficulty}) · "
        f"{position.variant}, {plural(len(position.face_down), 'unknown cell')}"
    )


def guarantee_picture(found: GuaranteePuzzle) -> str:
    """--svg: the puzzle as `_show` prints it: the heading, the grid with its `?` cards (no
    cell marked: the answer stays hidden), what is unseen, and the question
    (dekal_ref.svg_puzzles.guarantee_svg)."""
    position = found.position
    note = _unseen_note(found)
    cut = note.index(" and goes")
    return guarantee_svg(
        [None if v == UNKNOWN else v for v in position.grid],
        heading=_heading(found),
        lines=[note[:cut], note[cut + 1 :]],
        question=_question(found),
        notation=format_unknown_grid(position.grid),
    )


def _reveal(found: GuaranteePuzzle, text: str) -> int:
    with user_errors("--answer: "):
        cell = parse_cell(text.strip().lower())
    if found.reveal(cell) is None:
        down = ", ".join(cell_name(r.cell) for r in found.reveals)
        fail(
            f"--answer: {cell_name(cell)} is face up: a step reveals a face-down card (T1), "
            f"one of {down}",
            kind="illegal",
            rule="T1",
            field="--answer",
        )
    return cell


def _verdict(found: GuaranteePuzzle, cell: int) -> dict[str, Any]:
    mine, best = found.reveal(cell), found.best
    assert mine is not None  # _reveal let only face-down cells through
    right = mine.cell == best.cell
    if right:
        explanation = (
            f"right: revealing {cell_name(cell)} first guarantees {best.guaranteed} points "
            f"whatever values come; no other first reveal guarantees less than "
            f"{best.guaranteed + found.gap}"
        )
    else:
        explanation = (
            f"wrong: revealing {cell_name(cell)} first guarantees only {mine.guaranteed} points, "
            f"{mine.guaranteed - best.guaranteed} more than the best first reveal; try again, "
            "or --solution"
        )
    return {
        "reveal": cell_name(cell),
        "right": right,
        "guaranteed": mine.guaranteed,
        "optimum": best.guaranteed,
        "explanation": explanation,
    }


def _show(found: GuaranteePuzzle) -> None:
    position = found.position
    out.print(_heading(found), style="bold")
    looks = [
        CardLook(cell, None, FACE_DOWN) if value == UNKNOWN else CardLook(cell, value, FACE_UP)
        for cell, value in enumerate(position.grid)
    ]
    out.print(looks_picture(looks))
    out.print(Text(legend(looks)))
    out.print(Text(_unseen_note(found)))
    out.print(Text(_question(found)))
    out.print(
        Text(
            f"answer with: dekal puzzle --unknown --seed {found.seed}{_variant_option(found)} "
            "--answer CELL",
            style="dim",
        )
    )


def _variant_option(found: GuaranteePuzzle) -> str:
    return " --variant eject" if found.position.variant == "eject" else ""


def _show_solution(found: GuaranteePuzzle) -> None:
    best = found.best
    out.print(
        Text(f"solution: reveal {cell_name(best.cell)} first: {best.guaranteed} points guaranteed"),
        style="bold",
    )
    out.print("  reveal  guaranteed  expected")
    for row in found.solution_json()["ranking"]:
        out.print(f"  {row['reveal']:>6}  {row['guaranteed']:>10}  {row['expected']:>8.4f}")
    out.print(Text("proved by exhaustive search (proofs/_unknown/search.py)", style="dim"))
