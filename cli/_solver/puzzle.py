"""`dekal puzzle`: one of the bundled rated puzzles, shown, and the player's answer checked.

The puzzles, their answers and ratings are data (spec/puzzles/puzzles.jsonl, read by
proofs.puzzle_set); checking an answer looks it up in the puzzle's proved ranking, so no
solver runs here. The best line shown by --solution is replayed on the reference engine.
"""

from __future__ import annotations

import random
import sys
from typing import Annotated, Any

import typer
from rich.text import Text

from dekal.cli._common import (
    EXIT_VERDICT,
    DekalCommand,
    describe,
    fail,
    grid_picture,
    out,
    output_file_or_stdout,
    print_json,
    user_errors,
    whole_number,
)
from dekal.cli._solver.puzzle_unknown import unknown_puzzle
from dekal.cli._written import Quiet, write_output, wrote
from dekal.proofs._puzzle_rating import LEVELS
from dekal.proofs._replay import replay
from dekal.proofs.puzzle import Move, Puzzle
from dekal.proofs.puzzle_set import RatedPuzzle, load_puzzles, parse_move
from dekal_ref.errors import IllegalAction
from dekal_ref.notation import cell_name, value_symbol
from dekal_ref.push import push_chain
from dekal_ref.reading import SEED_MAX, shown
from dekal_ref.svg_puzzles import puzzle_svg
from dekal_ref.words import plural

PUZZLE_HELP = """Solve a rated puzzle: find the one best first move.

Each bundled puzzle is a grid whose values you see, a few face-down cells, and the cards
that will come in (or solo: each revealed card comes back). A step reveals a face-down
cell (its card leaves, T1) and pushes the next card in (slide P1, or eject P2). After the
last step the grid is scored (S1, S2). Exactly one first move lets you reach the lowest
score; every other first move ends higher, whatever you play next (proved).

\b
    dekal puzzle 7                          # puzzle number 7
    dekal puzzle --rating hard              # the first hard one
    dekal puzzle --random --seed 3          # a random one (same seed, same puzzle)
    dekal puzzle --random --rating expert
    dekal puzzle 7 --answer c3:L            # right: exit 0; wrong: exit 1, and why
    dekal puzzle 7 --solution               # the best line, step by step
    dekal puzzle 7 --svg puzzle.svg          # the grid, the incoming cards, the target
    dekal puzzle 7 --answer c3:L --json
    dekal puzzle --unknown --seed 2         # a guarantee puzzle: the ? cards are unknown
    dekal puzzle --unknown --seed 2 --answer b1

A move is the cell you reveal and the push: c3:L (slide), b4:R3 (eject: the side and the
line). With --unknown the puzzle is generated from --seed and its question is which ? to
reveal first to guarantee the lowest score whatever values come (proved by exhaustive
search, spec/solo-unknown.md); the answer is a cell. Levels: easy, medium, hard, expert
(docs/puzzles.md, Rated puzzles, says how a puzzle is rated).

Exit codes: 0 shown, or your answer is right; 1 your answer is legal but not the best;
2 a bad option or an illegal move (the message names the field or the rule).
"""


def choose(
    puzzles: tuple[RatedPuzzle, ...],
    number: int | None,
    level: str | None,
    at_random: bool,
    seed: int | None,
) -> RatedPuzzle:
    """The puzzle the options ask for: by number, the first of a level, or at random."""
    if number is not None:
        if at_random or level is not None:
            fail("choose a puzzle by NUMBER, or by --rating / --random, not both", field="NUMBER")
        return puzzles[number - 1]
    if seed is not None and not at_random:
        fail("--seed chooses the random puzzle: give --random too", field="--seed")
    pool = [rated for rated in puzzles if level is None or rated.rating.level == level]
    if not at_random:
        return pool[0]
    draw = random.Random(seed) if seed is not None else random.SystemRandom()
    return draw.choice(pool)


def legal_answer(puzzle: Puzzle, text: str) -> Move:
    """The player's move, read and checked against the rules (T1, P1/P2) with the puzzle."""
    with user_errors():  # the error names its field, --answer
        move = parse_move(text, "--answer")
    if move.reveal not in puzzle.face_down:
        fail(
            f"--answer: {cell_name(move.reveal)} is face up: a step reveals a face-down card "
            f"(T1), one of {', '.join(cell_name(c) for c in sorted(puzzle.face_down))}",
            kind="illegal",
            rule="T1",
            field="--answer",
        )
    try:
        push_chain(move.reveal, move.push, puzzle.variant)
    except IllegalAction as error:
        fail(f"--answer: {describe(error)}", kind="illegal", rule=error.rule, field="--answer")
    return move


def _cards_line(puzzle: Puzzle) -> str:
    if puzzle.incoming is None:
        return f"solo: each revealed card comes straight back in, {puzzle.turns} turns"
    cards = ", ".join(value_symbol(card) for card in puzzle.incoming)
    return f"incoming cards, in order: {cards}"


def _heading(rated: RatedPuzzle, total: int) -> str:
    rating = rated.rating
    return (
        f"Puzzle {rated.number} of {total} · {rating.level} (difficulty {rating.difficulty}) · "
        f"{rated.puzzle.variant}, {plural(rated.puzzle.turns, 'step')}"
    )


def show_puzzle(rated: RatedPuzzle, total: int) -> None:
    puzzle = rated.puzzle
    best = rated.best
    out.print(_heading(rated, total), style="bold")
    out.print(grid_picture(puzzle.grid, face_down=puzzle.face_down, title="start"))
    out.print(Text(_cards_line(puzzle)))
    down = ", ".join(cell_name(cell) for cell in sorted(puzzle.face_down))
    out.print(Text(f"face down (x): {down}; a step reveals one of them (T1)"))
    out.print(
        Text(
            f"The best play ends with {best.points} points "
            f"({plural(best.remaining, 'card')} left), and only one first move of the "
            f"{rated.rating.choices} gets there. Which?"
        )
    )
    example = "the side and the line, like c2:L1" if puzzle.variant == "eject" else "like c2:L"
    out.print(
        Text(
            f"answer with: dekal puzzle {rated.number} --answer CELL:PUSH ({example})", style="dim"
        )
    )


def show_solution(rated: RatedPuzzle) -> None:
    from dekal.cli._solver.solve import show_outcome

    best, second = rated.best, rated.second
    out.print(
        Text(
            f"solution: {best.move}, then {' '.join(str(m) for m in rated.line[1:]) or 'nothing'}: "
            f"{best.points} points, {plural(best.remaining, 'card')} left; the runner-up "
            f"{second.move} reaches {second.points} at best"
        ),
        style="bold",
    )
    show_outcome(replay(rated.puzzle, rated.line))


def _puzzle_json(rated: RatedPuzzle) -> dict[str, Any]:
    entry = rated.as_json()
    fields = ("grid", "face_down", "solo", "incoming", "turns", "variant")
    return {
        "id": rated.id,
        "number": rated.number,
        "puzzle": {key: entry[key] for key in fields if key in entry},
        "rating": entry["rating"],
        "optimum": entry["optimum"],
    }


def _solution_json(rated: RatedPuzzle) -> dict[str, Any]:
    entry = rated.as_json()
    return {key: entry[key] for key in ("best", "line", "second", "ranking", "proved_by")}


def puzzle_picture(rated: RatedPuzzle, total: int) -> str:
    """--svg: the puzzle as `show_puzzle` prints it: the grid, the incoming cards, the target."""
    puzzle, best = rated.puzzle, rated.best
    target = (
        f"target: {best.points} points ({plural(best.remaining, 'card')} left); "
        f"one first move of {rated.rating.choices} gets there"
    )
    return puzzle_svg(
        puzzle.grid,
        puzzle.face_down,
        puzzle.incoming,
        puzzle.turns,
        heading=_heading(rated, total),
        target=target,
    )


def _write_svg(picture: str, target: str) -> None:
    if target == "-":
        sys.stdout.write(picture)
        return
    write_output(target, picture, "--svg")  # checked before the work (output_file_or_stdout)


def puzzle_number(value: object) -> int:
    """NUMBER: 1 to the size of the bundled set, one range whichever end it misses."""
    count = len(load_puzzles())
    return whole_number(1, count, f"there are {plural(count, 'puzzle')}")(value)


def puzzle(
    number: Annotated[
        int | None,
        typer.Argument(
            metavar="NUMBER",
            help="The puzzle's number (1, 2, …).",
            parser=puzzle_number,
        ),
    ] = None,
    rating: Annotated[
        str | None,
        typer.Option(
            metavar="LEVEL", help="Only puzzles of this level: " + ", ".join(LEVELS) + "."
        ),
    ] = None,
    at_random: Annotated[
        bool, typer.Option("--random", help="A random puzzle (of --rating, if given).")
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(
            metavar="X",
            help="Seed of --random, 0 ≤ X < 2^64: the same seed gives the same puzzle.",
            parser=whole_number(0, SEED_MAX),
        ),
    ] = None,
    answer: Annotated[
        str | None,
        typer.Option(metavar="MOVE", help="Your first move, like c3:L (eject: b4:R3)."),
    ] = None,
    solution: Annotated[
        bool, typer.Option("--solution", help="Show the best line, step by step.")
    ] = False,
    svg: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Write the puzzle's grid as SVG to FILE (- for stdout); --unknown too.",
            parser=output_file_or_stdout,
        ),
    ] = None,
    unknown: Annotated[
        bool,
        typer.Option(
            "--unknown",
            help="A guarantee puzzle: the ? cards are unknown; which reveal guarantees the "
            "lowest score? (by --seed; --answer CELL)",
        ),
    ] = False,
    variant: Annotated[
        str | None,
        typer.Option(metavar="RULE", help="With --unknown: the push rule, slide or eject."),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help='One JSON object; an error is {"error": {...}}.')
    ] = False,
    quiet: Quiet = False,
) -> None:
    if rating is not None and rating not in LEVELS:
        fail(f"{shown(rating)}: choose one of {', '.join(LEVELS)}", field="--rating")
    if variant is not None and not unknown:
        fail("--variant goes with --unknown (a bundled puzzle has its own)", field="--variant")
    if unknown:
        if number is not None:
            fail("a guarantee puzzle is chosen by --seed, not NUMBER", field="NUMBER")
        if svg == "-" and json_output:
            fail("--svg - and --json both write to standard output: choose one", field="--svg")
        rule = (variant or "slide").strip().lower()
        if rule not in ("slide", "eject"):
            fail(f"{shown(variant or '')} is not a push variant: slide or eject", field="--variant")
        unknown_puzzle(
            seed=seed,
            at_random=at_random,
            level=rating,
            variant=rule,
            answer=answer,
            solution=solution,
            json_output=json_output,
            svg=svg,
            quiet=quiet,
        )
        return
    if svg == "-" and json_output:
        fail("--svg - and --json both write to standard output: choose one", field="--svg")
    puzzles = load_puzzles()
    rated = choose(puzzles, number, rating, at_random, seed)
    move = legal_answer(rated.puzzle, answer) if answer is not None else None
    if svg is not None:
        _write_svg(puzzle_picture(rated, len(puzzles)), svg)
        if svg == "-":
            return
        wrote(svg, quiet)
    verdict = _verdict(rated, move) if move is not None else None
    if json_output:
        payload = _puzzle_json(rated)
        if verdict is not None:
            payload["answer"] = verdict
        if solution:
            payload["solution"] = _solution_json(rated)
        if svg is not None:
            payload["svg"] = svg
        print_json(payload)
    else:
        if verdict is None and not solution:
            show_puzzle(rated, len(puzzles))
        if verdict is not None:
            out.print(Text(verdict["explanation"]), style="bold")
        if solution:
            show_solution(rated)
    if verdict is not None and not verdict["right"]:
        raise typer.Exit(EXIT_VERDICT)


def _verdict(rated: RatedPuzzle, move: Move) -> dict[str, Any]:
    """Right or wrong, and why: the best outcome still reachable after the player's move
    (from the proved ranking) against the optimum."""
    mine = rated.after(move)
    assert mine is not None  # legal_answer let only legal first moves through
    best = rated.best
    right = mine.move == best.move
    if right:
        explanation = (
            f"right: {move} is the only first move that reaches {best.points} points "
            f"({plural(best.remaining, 'card')} left); the next best ends at {rated.second.points}"
        )
    else:
        explanation = (
            f"wrong: after {move} the best you can still reach is {mine.points} points "
            f"({plural(mine.remaining, 'card')} left), {mine.points - best.points} more than the "
            f"best first move reaches ({best.points}); try again, or --solution"
        )
    return {
        "move": str(move),
        "right": right,
        "score": mine.points,
        "remaining": mine.remaining,
        "optimum": {"score": best.points, "remaining": best.remaining},
        "explanation": explanation,
    }


def register(app: typer.Typer) -> None:
    app.command("puzzle", help=PUZZLE_HELP, cls=DekalCommand)(puzzle)
