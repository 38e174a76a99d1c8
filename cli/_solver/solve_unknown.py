"""`dekal solve GRID --unknown`: what the solo rest of a round can guarantee and expect when
the face-down cards are unknown (spec/solo-unknown.md, U1–U10), printed or as JSON.

The question is read into an `UnknownPosition` (errors name the field: `grid`, `unseen`,
`variant`), answered by `dekal.proofs._unknown.answer` under the command's one deadline,
and reported: the three values, exact or as bounds (exit code 4 when a bound is left), and
the strategy table of the first step.
"""

from __future__ import annotations

import sys
from fractions import Fraction

from rich.text import Text

from dekal.cli._common import EXIT_UNPROVED, fail, out, print_json, user_errors
from dekal.cli._pictures import legend, looks_picture
from dekal.cli._rates import duration
from dekal.cli._solver.solve_run import on_time
from dekal.cli._written import write_output, wrote
from dekal.proofs._answer import Progress
from dekal.proofs._unknown.answer import (
    Board,
    Bounded,
    UnknownAnswer,
    answer,
    answer_so_far,
    fraction_text,
)
from dekal.proofs._unknown.position import (
    UNKNOWN,
    UnknownPosition,
    format_unknown_grid,
    make_unknown,
)
from dekal.proofs._unknown.search import FirstStep
from dekal.proofs.limits import Deadline
from dekal_ref.notation import cell_name
from dekal_ref.picture import FACE_DOWN, FACE_UP, CardLook
from dekal_ref.svg_puzzles import strategy_svg

UNKNOWN_HELP = """
--unknown: the face-down cards are unknown, as at a real table (M3). Write them `?` in GRID
(5T3?/1?44/9999/TT11). Each step reveals a `?` of your choice, its value drawn from the unseen
cards (default: the deck less the grid's face-up cards; --unseen 1,1,5,T gives them), and
the card comes straight back in by a push of your choice (--variant as always). The answer:
guaranteed (the least score a strategy promises whatever comes), expected (the least
expected score, an exact fraction), perfect_information (the mean best score if the values
were known in advance), and the best first reveal with the push for each value that can
come. spec/solo-unknown.md defines it all (U1-U10).

\b
    dekal solve '3311/3371/5225/T55?' --unknown --unseen 1,1,7
    dekal solve 'T133/1?11/?231/2231' --unknown --unseen 1,1,T --json
    dekal solve '9T9?/5T55/3737/1T1?' --unknown --variant eject
"""


def build_position(grid_text: str, unseen: str | None, variant: str) -> UnknownPosition:
    """The validated position of the command line (a one-line error naming the field)."""
    with user_errors():
        return make_unknown(grid_text, unseen=unseen, variant=variant)


def run_unknown(
    position: UnknownPosition,
    deadline: Deadline,
    timeout: float,
    json_output: bool,
    progress: Progress,
    svg: str | None = None,
) -> None:
    """Answer and report; exit code 4 when a value is left as bounds. A watchdog answers
    for work that cannot look at the clock (numba loading or compiling the kernel): with
    what the work had reached (`board`), as bounds."""
    board = Board()

    def work() -> UnknownAnswer:
        return answer(position, deadline=deadline, progress=progress, board=board)

    def fallback() -> UnknownAnswer:
        return answer_so_far(position, board)

    found = on_time(work, fallback, deadline)
    if svg == "-":  # the picture is the output (--json was refused with it)
        sys.stdout.write(strategy_picture(found))
    else:
        if svg is not None:  # the path was checked before the work; the file replaced whole
            write_output(svg, strategy_picture(found), "--svg")
        if json_output:
            print_json(found.as_json() | ({"svg": svg} if svg is not None else {}))
        else:
            show(found)
        if svg is not None:
            wrote(svg)
    if not found.proved:
        fail(
            f"not every value proved within --timeout {timeout:g} s: bounds are printed",
            EXIT_UNPROVED,
        )


def strategy_picture(found: UnknownAnswer) -> str:
    """--svg: the position, the three values and the expected-optimal first step (U7) with
    one row per value that can come, as `show` prints them (dekal_ref.svg_puzzles.strategy_svg)."""
    position = found.position
    first = found.expected_first
    total = position.unseen_total
    rows = [
        (
            value,
            fraction_text(Fraction(position.unseen[value - 1], total)),
            str(push),
            fraction_text(then),
        )
        for value, push, then in first.push_by_value
    ]
    kind = "optimal" if found.optimal_first else "greedy (not proved: time limit)"
    values = [
        f"guaranteed {_value(found.guaranteed, whole=True)}",
        f"expected {_value(found.expected, whole=False)}",
        f"perfect information {_value(found.perfect_information, whole=False)}",
        f"first step: {kind}, by expected score"
        + ("" if found.optimal_first else "; after = immediate score"),
    ]
    return strategy_svg(
        [None if v == UNKNOWN else v for v in position.grid],
        first.reveal,
        rows,
        heading=position.describe(),
        values=values,
        notation=format_unknown_grid(position.grid),
    )


def show(found: UnknownAnswer) -> None:
    """The position, the three values, and the strategy table."""
    position = found.position
    out.print(position.describe(), style="bold")
    looks = [
        CardLook(cell, None, FACE_DOWN) if value == UNKNOWN else CardLook(cell, value, FACE_UP)
        for cell, value in enumerate(position.grid)
    ]
    out.print(looks_picture(looks))
    out.print(Text(legend(looks) + "\n"))
    out.print(f"guaranteed           {_value(found.guaranteed, whole=True)}")
    out.print(f"expected             {_value(found.expected, whole=False)}")
    out.print(f"perfect information  {_value(found.perfect_information, whole=False)}")
    if found.expected.proved and found.perfect_information.proved:
        cost = found.expected.upper - found.perfect_information.upper
        out.print(f"the hidden values cost {fraction_text(cost)} = {float(cost):.4f} points (U9)")
    out.print("")
    kind = "optimal" if found.optimal_first else "greedy (not proved: time limit)"
    _table(found.expected_first, position, f"first step, {kind}, by expected score", found)
    if found.guaranteed_first.reveal != found.expected_first.reveal or not found.optimal_first:
        _table(found.guaranteed_first, position, f"first step, {kind}, by guarantee", found)
    proved = "proved (exhaustive search)" if found.proved else "NOT all proved (time limit)"
    out.print(f"{found.method}: {proved}, {duration(found.seconds)}")


def _value(value: Bounded, *, whole: bool) -> str:
    if value.proved:
        exact = fraction_text(value.upper)
        decimal = "" if whole or value.upper.denominator == 1 else f" = {float(value.upper):.4f}"
        return f"{exact}{decimal}  (proved)"
    return (
        f"in [{fraction_text(value.lower)}, {fraction_text(value.upper)}]"
        f" = [{float(value.lower):.4f}, {float(value.upper):.4f}]  (bounds: time limit)"
    )


def _table(first: FirstStep, position: UnknownPosition, title: str, found: UnknownAnswer) -> None:
    """One line per value that can come: its chance, the push, the value after it."""
    out.print(f"{title}: reveal {cell_name(first.reveal)}")
    after = "after (immediate score)" if not found.optimal_first else "after"
    out.print(f"  value  chance    push  {after}")
    total = position.unseen_total
    for value, push, then in first.push_by_value:
        chance = Fraction(position.unseen[value - 1], total)
        symbol = "T" if value == 10 else str(value)
        out.print(
            f"  {symbol:>5}  {fraction_text(chance):>6}  {str(push):>6}  {fraction_text(then)}"
        )
    out.print("")
