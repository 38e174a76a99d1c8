"""`dekal solve`: the lowest score a grid can still reach, answered and proved (T1, P1–P2, S1–S3).

The command builds a `Puzzle`, asks the portfolio (both methods at once, the first proof
wins: the default), one method (Z3 or the exhaustive search), or both in turn (--check), and
prints the certified witness: every answer was replayed on the reference engine before it
reaches the terminal.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.text import Text

from dekal.cli._common import (
    EXIT_ENGINE,
    EXIT_UNPROVED,
    EXIT_VERDICT,
    DekalCommand,
    err,
    fail,
    grid_picture,
    out,
    output_file_or_stdout,
    parse_seconds,
    print_json,
    user_errors,
    whole_number,
)
from dekal.cli._pictures import side_by_side
from dekal.cli._rates import duration
from dekal.cli._solver.solve_run import (
    METHODS,
    Bounded,
    deadline_of,
    exit_now_if_work_was_left_behind,
    run_bounded,
    run_minimum,
    run_rank,
)
from dekal.cli._solver.solve_unknown import UNKNOWN_HELP
from dekal.proofs._answer import Answer, GaveUp, Progress, RankedMove, quiet
from dekal.proofs._replay import Outcome, WitnessError
from dekal.proofs.puzzle import Puzzle, make_puzzle, parse_cards, parse_cells
from dekal_ref.notation import HOLE, Grid, cell_name, format_grid, parse_grid, value_symbol
from dekal_ref.reading import shown
from dekal_ref.scoring import score_grid
from dekal_ref.words import plural

SOLVE_HELP = """Find the lowest score a grid can still reach, with proof.

The answer comes with a witness (the moves) and a proof that nothing scores lower.

A puzzle is a grid whose values are all known, the cells still face down (default: all 16)
and the cards that will come in. Each step reveals one face-down cell (that card leaves, a
hole remains, T1) and inserts the next card by a legal push (slide P1, or --variant eject
P2). Inserted cards are face up; cards that move keep their face. After the last step the
grid is scored (S1, S2): lowest score first, then fewest cards left (S3).

\b
    dekal solve 1112/3131/1435/2435 --incoming 5,3,3
    dekal solve 1112/3131/1435/2435 --incoming 5,3 --face-down a1,b3,c4 --json
    dekal solve 1112/3131/1435/2435 --solo --turns 3 --variant eject --method search
    dekal solve 1112/3131/1435/2435 --incoming 5,3 --method z3   # one method only
    dekal solve 1112/3131/1435/2435 --incoming 5,3 --check       # Z3 and search must agree
    dekal solve 1112/3131/1435/2435 --incoming 5,3 --at-most 4   # yes with a witness, or no
    dekal solve 1112/3131/1435/2435 --incoming 5 --reach 1112/1315/1435/2435   # this final grid?
    dekal solve 1112/3131/1435/2435 --incoming 5,3 --rank        # every first move, ranked

--solo is the one-player game: each revealed card comes straight back in (--turns K steps,
default every face-down card). --method portfolio (default) runs both methods at once (Z3 in
a child process) and the first proof wins; the answer names the method that proved it.
--method z3 proves optimality by refuting the next better score; --method search proves it
by exhaustion or by meeting its lower bound. Every witness is replayed on the reference
engine before it is printed.

--json prints {"score", "remaining", "moves": [{"reveal": "b3", "push": "L"}, ...],
"proved_optimal", "seconds", "method", "proof", ...} (pushes in spec notation: side, plus
line for eject); the portfolio adds "via": "portfolio" and "race" (who proved it first).

--timeout S bounds each method's whole query in wall time, counted from the command's start
(the portfolio's two share one clock), --rank included (one clock, shared out among the
first moves): when it runs out, the best witness found so far is printed, marked NOT proved
(a method that holds no witness yet gives the greedy line of the search's beam), within
about half a second, however busy the machine (a watchdog answers for work that cannot look
at the clock: loading the compiled search, building Z3's formula).

Exit codes: 0 answered and proved (--at-most / --reach: reachable, with a witness); 1 a
negative verdict: unreachable (proved), or the two methods of --check DISAGREE; 2 a
malformed or unplayable puzzle; 3 a solver produced a witness the reference engine refuses
(a bug); 4 answered, not proved within --timeout (the best witness found is printed), or no
verdict at all within it, or --check incomplete because a method ran out of time; 130
interrupted (Ctrl-C).
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
    """The grids step by step (the hole each reveal leaves, then the grid after the push),
    then the scored final grid with its cancelled cells."""
    start = outcome.frames[0]
    out.print(grid_picture(start.grid, title="start", face_down=start.face_down))
    for number, frame in enumerate(outcome.frames[1:], start=1):
        move = frame.move
        assert move is not None and frame.card is not None
        before = outcome.frames[number - 1]
        left = value_symbol(before.grid[move.reveal])
        holed = tuple(HOLE if cell == move.reveal else v for cell, v in enumerate(before.grid))
        revealed = grid_picture(
            holed,
            title=f"step {number}: reveal {cell_name(move.reveal)} ({left} leaves)",
            face_down=before.face_down - {move.reveal},
        )
        pushed = grid_picture(
            frame.grid,
            title=f"then {value_symbol(frame.card)} enters by {move.push}",
            face_down=frame.face_down,
        )
        out.print(side_by_side([revealed, pushed], out.width))
    final = score_grid(outcome.final)
    out.print(
        grid_picture(outcome.final, final.cancelled, title="final, scored (S1: [x] cancelled)")
    )
    out.print(Text("(x) a face-down card: the puzzle gives its value, no player may look (M3)"))
    out.print(Text(". the hole a reveal leaves (T1), filled by the push (T4)\n"))


def answer_line(answer: Answer) -> str:
    method = f"{answer.method} ({answer.via}: {answer.race})" if answer.via else answer.method
    proof = (
        f"optimal, proved ({answer.proof})"
        if answer.proved_optimal
        else "best found, NOT proved optimal (time limit)"
    )
    moves = " ".join(str(m) for m in answer.moves)
    return (
        f"{method}: score {answer.points} with {plural(answer.remaining, 'card')} left: {proof}, "
        f"{duration(answer.seconds)}; moves {moves}"
    )


def check_problem(answers: list[Answer]) -> tuple[int, str] | None:
    """What --check found, as (exit code, message); None when every method proved the same.

    A proved optimum bounds every other answer: a second proved optimum that differs, or an
    answer better than a proved optimum, is a real disagreement (a bug in one method). An
    unproved answer merely worse than a proved one is not: the check is then incomplete.
    """
    key = {a.method: (a.points, a.remaining) for a in answers}
    for proved in (a for a in answers if a.proved_optimal):
        for other in answers:
            if key[other.method] < key[proved.method] or (
                other.proved_optimal and key[other.method] != key[proved.method]
            ):
                found = "; ".join(f"{a.method} {a.points}/{a.remaining}" for a in answers)
                return EXIT_VERDICT, f"the methods DISAGREE: {found}"
    unproved = [a for a in answers if not a.proved_optimal]
    if not unproved:
        return None
    named = " and ".join(a.method for a in unproved)
    found = "; ".join(f"{a.method} {a.points}/{a.remaining}" for a in answers)
    return EXIT_UNPROVED, f"incomplete: {named} stopped without proof ({found})"


def report_minimum(
    answers: list[Answer], puzzle: Puzzle, json_output: bool, timeout: float
) -> None:
    first = answers[0]
    problem = check_problem(answers) if len(answers) > 1 else None
    if json_output:
        payload: dict[str, Any] = first.as_json()
        payload["puzzle"] = puzzle.describe()
        if len(answers) > 1:
            payload["check"] = {
                "agree": problem is None or problem[0] != EXIT_VERDICT,
                "proved": all(a.proved_optimal for a in answers),
                "answers": {a.method: a.as_json() for a in answers},
            }
        print_json(payload)
    else:
        out.print(puzzle.describe(), style="bold")
        show_outcome(first.outcome)
        for answer in answers:
            out.print(answer_line(answer))
    if problem is not None:
        fail(f"--check: {problem[1]}", problem[0])
    if not first.proved_optimal:
        fail(
            f"not proved optimal within --timeout {timeout:g} s: the best found is printed",
            EXIT_UNPROVED,
        )


def report_bound(
    kind: str, target: int | str, results: list[Bounded], json_output: bool, timeout: float
) -> None:
    """--at-most / --reach: reachable with a witness, proved unreachable (exit 1), or no
    verdict within the time limit (exit 4)."""
    if json_output:
        entries: list[dict[str, Any]] = []
        for result in results:
            entry: dict[str, Any] = {
                kind: target,
                "method": result.method,
                "reachable": result.reachable,
            }
            if result.answer is not None:
                entry |= {
                    "score": result.answer.points,
                    "remaining": result.answer.remaining,
                    "moves": [m.as_json() for m in result.answer.moves],
                    "final": format_grid(result.answer.outcome.final),
                }
            if result.gave_up:
                entry["no_verdict"] = result.gave_up
            entry["seconds"] = round(result.seconds, 3)
            entries.append(entry)
        payload = dict(entries[0])
        if len(entries) > 1:
            known = {r.reachable for r in results if r.reachable is not None}
            payload["check"] = {"agree": len(known) <= 1, "answers": entries}
        print_json(payload)
    else:
        for result in results:
            answer = result.answer
            if result.gave_up:
                out.print(f"{result.method}: no verdict within --timeout {timeout:g} s")
            elif answer is None:
                out.print(f"{result.method}: no, unreachable (proved, {duration(result.seconds)})")
            else:
                show_outcome(answer.outcome)
                moves = " ".join(str(m) for m in answer.moves)
                out.print(
                    f"{result.method}: yes, score {answer.points} with "
                    f"{plural(answer.remaining, 'card')} "
                    f"({duration(result.seconds)}); moves {moves}"
                )
    verdicts = {r.reachable for r in results}
    if {True, False} <= verdicts:
        fail(f"--check: the methods DISAGREE on {kind} {target}", EXIT_VERDICT)
    if None in verdicts:
        silent = " and ".join(r.method for r in results if r.gave_up)
        fail(f"no verdict from {silent} within --timeout {timeout:g} s", EXIT_UNPROVED)
    if verdicts == {False}:
        raise typer.Exit(EXIT_VERDICT)


def report_rank(
    rankings: list[list[RankedMove]], seconds: float, json_output: bool, timeout: float
) -> None:
    ranked = rankings[0]
    proved = all(r.answer.proved_optimal for ranks in rankings for r in ranks)
    if json_output:
        print_json(
            {
                "ranking": [r.as_json() for r in ranked],
                "proved": proved,
                "seconds": round(seconds, 3),
            }
        )
    else:
        out.print("first move  best score  cards  proved  then")
        for entry in ranked:
            rest = " ".join(str(m) for m in entry.answer.moves[1:])
            out.print(
                f"{str(entry.move):<10}  {entry.points:>10}  {entry.remaining:>5}  "
                f"{'yes' if entry.answer.proved_optimal else 'NO':>6}  {rest}"
            )
    if len(rankings) > 1:
        by_move = [{r.move: r for r in ranks} for ranks in rankings]
        if by_move[0].keys() != by_move[1].keys():
            fail("--check: the methods DISAGREE on which first moves are legal", EXIT_VERDICT)
        for move, entry in by_move[0].items():  # the same move, ranked by each method
            problem = check_problem([entry.answer, by_move[1][move].answer])
            if problem is not None and problem[0] == EXIT_VERDICT:
                fail(f"--check: after {move}, {problem[1]}", EXIT_VERDICT)
    if not proved:
        unproved = sum(not r.answer.proved_optimal for ranks in rankings for r in ranks)
        fail(
            f"{unproved} first move(s) not proved within --timeout {timeout:g} s (marked NO)",
            EXIT_UNPROVED,
        )


def solve(
    grid_text: Annotated[
        str, typer.Argument(metavar="GRID", help="The grid, all 16 values: 1112/3131/1435/2435.")
    ],
    incoming: Annotated[
        str | None,
        typer.Option(metavar="CARDS", help="The cards that come in, in order: 7,3,3 (T for ten)."),
    ] = None,
    solo: Annotated[
        bool, typer.Option("--solo", help="One-player game: each revealed card comes back in.")
    ] = False,
    face_down: Annotated[
        str | None,
        typer.Option(metavar="CELLS", help="Cells still face down: a1,b3,c4 (default: all)."),
    ] = None,
    turns: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Steps to play, 0-16 (solo; default every face-down card).",
            parser=whole_number(0, 16, "a grid has 16 face-down cells at most"),
        ),
    ] = None,
    variant: Annotated[
        str, typer.Option(metavar="slide|eject", help="Push rule: slide (P1) or eject (P2).")
    ] = "slide",
    method: Annotated[
        str,
        typer.Option(
            metavar="portfolio|z3|search",
            help="portfolio (both at once, first proof wins), z3 or search.",
        ),
    ] = "portfolio",
    check: Annotated[
        bool, typer.Option("--check", help="Answer with both methods; exit 1 if they differ.")
    ] = False,
    at_most: Annotated[
        int | None,
        typer.Option(
            metavar="S",
            help="Only ask: can the score reach at most S (0-160)?",
            parser=whole_number(0, 160, "a score is at most 16 cards of 10"),
        ),
    ] = None,
    reach: Annotated[
        str | None,
        typer.Option(metavar="GRID", help="Only ask: can the final grid be exactly this one?"),
    ] = None,
    rank: Annotated[
        bool, typer.Option("--rank", help="Rank every first move by its best reachable outcome.")
    ] = False,
    timeout: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="Seconds allowed per method (0 < s ≤ 604800).",
            parser=parse_seconds,
        ),
    ] = 60.0,
    json_output: Annotated[
        bool, typer.Option("--json", help='One JSON object; an error is {"error": {...}}.')
    ] = False,
    unknown: Annotated[
        bool, typer.Option("--unknown", help="The ? cells are unknown: guaranteed and expected.")
    ] = False,
    unseen: Annotated[
        str | None,
        typer.Option(metavar="CARDS", help="With --unknown: the unseen cards (default: the deck)."),
    ] = None,
    svg: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="With --unknown: draw the first step's strategy table as SVG to FILE (- for "
            "stdout).",
            parser=output_file_or_stdout,
        ),
    ] = None,
) -> None:
    if svg is not None and not unknown:
        fail("--svg draws the --unknown strategy table: give --unknown", field="--svg")
    if svg == "-" and json_output:
        fail("--svg - and --json both write to standard output: choose one", field="--svg")
    if unknown or unseen is not None:
        others = {"--incoming": incoming, "--solo": solo or None, "--face-down": face_down,
                  "--turns": turns, "--at-most": at_most, "--reach": reach,
                  "--rank": rank or None, "--check": check or None}  # fmt: skip
        given = [name for name, value in others.items() if value is not None]
        if not unknown:
            fail("--unseen goes with --unknown", field="--unseen")
        if given:
            fail(f"--unknown plays every ? cell solo: {given[0]} does not apply", field=given[0])
        if method == "z3":
            fail("--unknown is answered by the search: --method search", field="--method")
        try:
            ask_unknown(grid_text, unseen, variant, timeout, json_output, svg)
        except typer.Exit as done:
            exit_now_if_work_was_left_behind(done.exit_code)
            raise
        exit_now_if_work_was_left_behind(0)
        return
    if method not in METHODS:
        fail(f"{shown(method)}: choose portfolio, z3 or search", field="--method")
    with user_errors():
        puzzle = build_puzzle(grid_text, incoming, solo, face_down, turns, variant)
        target: Grid | None = parse_grid(reach, allow_hole=False) if reach is not None else None
    if sum(x is not None and x is not False for x in (at_most, reach, rank or None)) > 1:
        fail("ask one question at a time: --at-most, --reach or --rank")
    names = ["z3", "search"] if check else [method]
    question = Question(puzzle, names, at_most, target, reach, rank, timeout, json_output)
    try:
        ask(question)
    except typer.Exit as done:
        exit_now_if_work_was_left_behind(done.exit_code)
        raise
    exit_now_if_work_was_left_behind(0)


@dataclass(frozen=True)
class Question:
    """What the command line asks, once read and checked."""

    puzzle: Puzzle
    names: list[str]
    at_most: int | None
    target: Grid | None
    reach: str | None
    rank: bool
    timeout: float
    json_output: bool


def ask(q: Question) -> None:
    """Answer the question and report it (typer.Exit with the exit code when not 0)."""
    puzzle, names, at_most, target, reach = q.puzzle, q.names, q.at_most, q.target, q.reach
    rank, timeout, json_output = q.rank, q.timeout, q.json_output
    try:
        with progress_status(True) as progress:
            if at_most is not None or target is not None:
                results = [
                    run_bounded(name, puzzle, at_most, target, deadline_of(number, timeout))
                    for number, name in enumerate(names)
                ]
                if at_most is not None:
                    report_bound("at_most", at_most, results, json_output, timeout)
                else:
                    report_bound("reach", reach or "", results, json_output, timeout)
                return
            if rank:
                started = time.perf_counter()
                rankings = run_rank(puzzle, names, timeout, progress)
                report_rank(rankings, time.perf_counter() - started, json_output, timeout)
                return
            answers = run_minimum(puzzle, names, timeout, progress)
    except GaveUp as error:
        fail(f"no verdict within --timeout {timeout:g} s: {error}", EXIT_UNPROVED)
    except WitnessError as error:
        fail(f"solver bug, witness refused by the reference engine: {error}", EXIT_ENGINE)
    report_minimum(answers, puzzle, json_output, timeout)


def ask_unknown(
    grid_text: str,
    unseen: str | None,
    variant: str,
    timeout: float,
    json_output: bool,
    svg: str | None = None,
) -> None:
    """--unknown (spec/solo-unknown.md): the position read, answered on time, reported
    (and drawn to `svg`)."""
    from dekal.cli._solver.solve_unknown import build_position, run_unknown

    position = build_position(grid_text, unseen, variant)
    with progress_status(True) as progress:
        run_unknown(position, deadline_of(0, timeout), timeout, json_output, progress, svg)


def register(app: typer.Typer) -> None:
    app.command("solve", help=SOLVE_HELP + UNKNOWN_HELP, cls=DekalCommand)(solve)
