"""`dekal solve`: the lowest score a grid can still reach, answered and proved (T1, P1–P2, S1–S3).

The command builds a `Puzzle`, asks one method (Z3 or the exhaustive search) or both
(--check), and prints the certified witness: every answer was replayed on the reference
engine before it reaches the terminal.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Annotated, Any

import typer

from dekal.cli.common import (
    EXIT_ENGINE,
    EXIT_VERDICT,
    DekalCommand,
    err,
    fail,
    grid_picture,
    out,
    parse_seconds,
    print_json,
    user_errors,
    whole_number,
)
from dekal.proofs import search, z3_solve
from dekal.proofs.answer import Answer, GaveUp, Progress, RankedMove, quiet
from dekal.proofs.puzzle import Puzzle, make_puzzle, parse_cards, parse_cells
from dekal.proofs.replay import Outcome, WitnessError
from dekal_ref.notation import Grid, cell_name, format_grid, parse_grid, value_symbol
from dekal_ref.reading import shown
from dekal_ref.scoring import score_grid

METHODS: dict[str, ModuleType] = {"z3": z3_solve, "search": search}

SOLVE_HELP = """Find the lowest score a grid can still reach, with a witness and a proof.

A puzzle is a grid whose values are all known, the cells still face down (default: all 16)
and the cards that will come in. Each step reveals one face-down cell (that card leaves, a
hole remains, T1) and inserts the next card by a legal push (slide P1, or --variant eject
P2). Inserted cards are face up; cards that move keep their face. After the last step the
grid is scored (S1, S2): lowest score first, then fewest cards left (S3).

\b
    dekal solve 1112/3131/1435/2435 --incoming 5,3,3
    dekal solve 1112/3131/1435/2435 --incoming 5,3 --face-down a1,b3,c4 --json
    dekal solve 1112/3131/1435/2435 --solo --turns 3 --variant eject --method search
    dekal solve 1112/3131/1435/2435 --incoming 5,3 --check       # Z3 and search must agree
    dekal solve 1112/3131/1435/2435 --incoming 5,3 --at-most 4   # yes with a witness, or no
    dekal solve 1112/3131/1435/2435 --incoming 5,3 --rank        # every first move, ranked

--solo is the one-player game: each revealed card comes straight back in (--turns K steps,
default every face-down card). --method z3 (default) proves optimality by refuting the next
better score; --method search proves it by exhaustion. Every witness is replayed on the
reference engine before it is printed.

--json prints {"min_score", "remaining", "moves": [{"reveal": "b3", "push": "L"}, ...],
"proved_optimal", "seconds", ...} (pushes in spec notation: side, plus line for eject).

Exit codes: 0 answered (--at-most / --reach: reachable); 1 unreachable, the two methods
of --check disagree, or no verdict within --timeout; 2 a malformed or unplayable puzzle;
3 a solver produced a witness the reference engine refuses (a bug).
"""


@contextmanager
def progress_status(enabled: bool) -> Iterator[Progress]:
    """A spinner on standard error whose text the solvers update (only on a terminal)."""
    if not enabled or not err.is_terminal:
        yield quiet
        return
    with err.status("solving…") as status:
        yield lambda message: status.update(message)


def build_puzzle(
    grid_text: str,
    incoming: str | None,
    solo: bool,
    face_down: str | None,
    turns: int | None,
    variant: str,
) -> Puzzle:
    """The validated puzzle of the command line (PuzzleError / NotationError on bad input)."""
    grid = parse_grid(grid_text, allow_hole=False)
    if incoming is not None and solo:
        fail("give either --incoming CARDS or --solo, not both")
    if incoming is None and not solo:
        fail("give the incoming cards (--incoming 7,3,3) or --solo (each revealed card comes back)")
    cards = parse_cards(incoming) if incoming is not None else None
    down = parse_cells(face_down) if face_down is not None else None
    return make_puzzle(grid, incoming=cards, face_down=down, turns=turns, variant=variant)


def show_outcome(outcome: Outcome) -> None:
    """The grids step by step, then the scored final grid with its cancelled cells."""
    start = outcome.frames[0]
    out.print(grid_picture(start.grid, title="start"))
    for number, frame in enumerate(outcome.frames[1:], start=1):
        move = frame.move
        assert move is not None and frame.card is not None
        before = outcome.frames[number - 1].grid
        title = (
            f"step {number}: reveal {cell_name(move.reveal)} "
            f"({value_symbol(before[move.reveal])} leaves), "
            f"{value_symbol(frame.card)} enters by {move.push}"
        )
        out.print(grid_picture(frame.grid, title=title))
    final = score_grid(outcome.final)
    out.print(
        grid_picture(outcome.final, final.cancelled, title="final, scored (S1: [x] cancelled)")
    )


def answer_line(answer: Answer) -> str:
    proof = (
        f"optimal, proved ({answer.proof})"
        if answer.proved_optimal
        else "best found, NOT proved optimal (time limit)"
    )
    moves = " ".join(str(m) for m in answer.moves)
    return (
        f"{answer.method}: score {answer.points} with {answer.remaining} cards left: {proof}, "
        f"{answer.seconds:.2f} s; moves {moves}"
    )


def run_minimum(
    puzzle: Puzzle, methods: list[str], timeout: float, progress: Progress
) -> list[Answer]:
    return [METHODS[name].minimum(puzzle, timeout=timeout, progress=progress) for name in methods]


def report_minimum(answers: list[Answer], puzzle: Puzzle, json_output: bool) -> None:
    first = answers[0]
    agree = len({(a.points, a.remaining) for a in answers}) == 1
    proved = all(a.proved_optimal for a in answers)
    if json_output:
        payload: dict[str, Any] = first.as_json()
        payload["puzzle"] = puzzle.describe()
        if len(answers) > 1:
            payload["check"] = {
                "agree": agree,
                "proved": proved,
                "answers": {a.method: a.as_json() for a in answers},
            }
        print_json(payload)
    else:
        out.print(puzzle.describe(), style="bold")
        show_outcome(first.outcome)
        for answer in answers:
            out.print(answer_line(answer))
    if len(answers) > 1 and not (agree and proved):
        what = (
            "the methods DISAGREE: "
            + "; ".join(f"{a.method} {a.points}/{a.remaining}" for a in answers)
            if not agree
            else "a method stopped without proof, so the check is not complete"
        )
        fail(f"--check failed: {what}", EXIT_VERDICT)


def report_bound(
    kind: str,
    target: int | str,
    answers: list[tuple[str, Answer | None, float]],
    json_output: bool,
) -> None:
    """--at-most / --reach: reachable with a witness, or proved unreachable (exit 1)."""
    verdicts = {answer is not None for _, answer, _ in answers}
    if json_output:
        entries: list[dict[str, Any]] = []
        for method, answer, seconds in answers:
            entry: dict[str, Any] = {
                kind: target,
                "method": method,
                "reachable": answer is not None,
            }
            if answer is not None:
                entry |= {
                    "score": answer.points,
                    "remaining": answer.remaining,
                    "moves": [m.as_json() for m in answer.moves],
                    "final": format_grid(answer.outcome.final),
                }
            entry["seconds"] = round(seconds, 3)
            entries.append(entry)
        payload = dict(entries[0])
        if len(entries) > 1:
            payload["check"] = {"agree": len(verdicts) == 1, "answers": entries}
        print_json(payload)
    else:
        for method, answer, seconds in answers:
            if answer is None:
                out.print(f"{method}: no, unreachable (proved, {seconds:.2f} s)")
            else:
                show_outcome(answer.outcome)
                moves = " ".join(str(m) for m in answer.moves)
                out.print(
                    f"{method}: yes, score {answer.points} with {answer.remaining} cards "
                    f"({seconds:.2f} s); moves {moves}"
                )
    if len(verdicts) > 1:
        fail(f"--check failed: the methods DISAGREE on {kind} {target}", EXIT_VERDICT)
    if verdicts == {False}:
        raise typer.Exit(EXIT_VERDICT)


def report_rank(ranked: list[RankedMove], seconds: float, json_output: bool) -> None:
    if json_output:
        print_json({"ranking": [r.as_json() for r in ranked], "seconds": round(seconds, 3)})
        return
    out.print("first move  best score  cards  proved  then")
    for entry in ranked:
        rest = " ".join(str(m) for m in entry.answer.moves[1:])
        out.print(
            f"{str(entry.move):<10}  {entry.points:>10}  {entry.remaining:>5}  "
            f"{'yes' if entry.answer.proved_optimal else 'NO':>6}  {rest}"
        )


def solve(
    grid_text: Annotated[
        str, typer.Argument(metavar="GRID", help="The grid, all 16 values: 1112/3131/1435/2435.")
    ],
    incoming: Annotated[
        str | None, typer.Option(help="The cards that come in, in order: 7,3,3 (T for ten).")
    ] = None,
    solo: Annotated[
        bool, typer.Option("--solo", help="One-player game: each revealed card comes back in.")
    ] = False,
    face_down: Annotated[
        str | None, typer.Option(help="Cells still face down: a1,b3,c4 (default: all).")
    ] = None,
    turns: Annotated[
        int | None,
        typer.Option(
            help="Steps to play, 0-16 (solo; default every face-down card).",
            parser=whole_number(0, 16, "a grid has 16 face-down cells at most"),
        ),
    ] = None,
    variant: Annotated[str, typer.Option(help="Push rule: slide (P1) or eject (P2).")] = "slide",
    method: Annotated[str, typer.Option(help="z3 (proof by refutation) or search.")] = "z3",
    check: Annotated[
        bool, typer.Option("--check", help="Answer with both methods; exit 1 if they differ.")
    ] = False,
    at_most: Annotated[
        int | None,
        typer.Option(
            help="Only ask: can the score reach at most S (0-160)?",
            parser=whole_number(0, 160, "a score is at most 16 cards of 10"),
        ),
    ] = None,
    reach: Annotated[
        str | None, typer.Option(help="Only ask: can the final grid be exactly this one?")
    ] = None,
    rank: Annotated[
        bool, typer.Option("--rank", help="Rank every first move by its best reachable outcome.")
    ] = False,
    timeout: Annotated[
        float,
        typer.Option(help="Seconds allowed per method (0 < s ≤ 604800).", parser=parse_seconds),
    ] = 60.0,
    json_output: Annotated[
        bool, typer.Option("--json", help='One JSON object; an error is {"error": {...}}.')
    ] = False,
) -> None:
    if method not in METHODS:
        fail(f"{shown(method)}: choose z3 or search", field="--method")
    with user_errors():
        puzzle = build_puzzle(grid_text, incoming, solo, face_down, turns, variant)
        target: Grid | None = parse_grid(reach, allow_hole=False) if reach is not None else None
    if sum(x is not None and x is not False for x in (at_most, reach, rank or None)) > 1:
        fail("ask one question at a time: --at-most, --reach or --rank")
    names = ["z3", "search"] if check else [method]
    try:
        with progress_status(True) as progress:
            if at_most is not None or target is not None:
                results: list[tuple[str, Answer | None, float]] = []
                for name in names:
                    results.append(_bounded(name, puzzle, at_most, target, timeout))
                if at_most is not None:
                    report_bound("at_most", at_most, results, json_output)
                else:
                    report_bound("reach", reach or "", results, json_output)
                return
            if rank:
                started = time.perf_counter()
                rankings = [
                    METHODS[name].rank(puzzle, timeout=timeout, progress=progress) for name in names
                ]
                seconds = time.perf_counter() - started
                report_rank(rankings[0], seconds, json_output)
                if len(rankings) > 1:
                    keys = [[(r.move, r.points, r.remaining) for r in ranks] for ranks in rankings]
                    if keys[0] != keys[1]:
                        fail(
                            "--check failed: the methods rank the first moves differently",
                            EXIT_VERDICT,
                        )
                return
            answers = run_minimum(puzzle, names, timeout, progress)
    except GaveUp as error:
        fail(f"no verdict within --timeout {timeout:g} s: {error}", EXIT_VERDICT)
    except WitnessError as error:
        fail(f"solver bug, witness refused by the reference engine: {error}", EXIT_ENGINE)
    report_minimum(answers, puzzle, json_output)


def _bounded(
    name: str, puzzle: Puzzle, at_most: int | None, target: Grid | None, timeout: float
) -> tuple[str, Answer | None, float]:
    started = time.perf_counter()
    if at_most is not None:
        found = METHODS[name].at_most(puzzle, at_most, timeout=timeout)
    else:
        found = METHODS[name].reach(puzzle, target, timeout=timeout)
    return name, found, time.perf_counter() - started


def register(app: typer.Typer) -> None:
    app.command("solve", help=SOLVE_HELP, cls=DekalCommand)(solve)
