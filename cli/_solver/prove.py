"""`dekal prove`: every proof obligation, discharged by Z3 (S1–S2, P1–P2, T4, M1)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dekal.cli._common import (
    EXIT_VERDICT,
    DekalCommand,
    err,
    fail,
    out,
    parse_seconds,
    print_json,
    text_of_at_most,
)
from dekal.cli._rates import duration
from dekal.proofs._obligations.catalogue import OBLIGATIONS, run_all
from dekal.proofs._obligations.obligation import Obligation, Verdict
from dekal_ref.reading import shown
from dekal_ref.words import plural

PROVE_HELP = """Prove the optimized engine means what the spec says.

Each obligation is a claim over all inputs (every grid of values 0-10, every hole, side and
card); Z3 proves it by finding no counterexample (unsat). The claims import the optimized
engine's own kernels and constants (engine/bits.py, engine/tables.py), so changing one there
breaks a proof here. A failed claim prints the counterexample Z3 found; "unknown" (a time
out) is a failure, never a proof.

\b
    dekal prove                      # every obligation, with its time
    dekal prove --only push          # the obligations whose name starts with "push"
    dekal prove --only push,score    # several prefixes, comma separated (as run --filter)
    dekal prove --list               # names and statements only
    dekal prove --json               # one JSON object: {"proved": bool, "obligations": [...]}

--timeout bounds each Z3 check; a Ctrl-C stops the check at once.

Exit codes: 0 every obligation proved; 1 at least one counterexample or unknown; 2 bad
options (an --only that matches nothing); 130 interrupted (Ctrl-C).
"""


def _line(verdict: Verdict) -> str:
    status = "proved" if verdict.proved else "FAILED"
    # a column of times: fixed decimals keep it aligned (the total below says 3 figures)
    text = f"{status:<7} {verdict.name:<24} {verdict.seconds:7.3f} s  {verdict.statement}"
    if verdict.detail:
        text += f"\n        {'':<24}            {verdict.detail}"
    if not verdict.proved:
        text += f"\n        counterexample: {verdict.counterexample}"
    return text


def prove(
    only: Annotated[
        str | None,
        typer.Option(
            metavar="PREFIXES",
            help="Run the obligations whose name starts with one of these (comma separated),"
            " like run --filter.",
            parser=text_of_at_most(10_000),
        ),
    ] = None,
    timeout: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="Seconds allowed per Z3 check (0 < s ≤ 604800).",
            parser=parse_seconds,
        ),
    ] = 60.0,
    list_only: Annotated[
        bool, typer.Option("--list", help="List the obligations, run none.")
    ] = False,
    json_output: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    prefixes = [token.strip() for token in (only or "").split(",") if token.strip()]

    def keep(obligation: Obligation) -> bool:
        return not prefixes or obligation.name.startswith(tuple(prefixes))

    chosen = [o for o in OBLIGATIONS if keep(o)]
    if not chosen:
        names = ", ".join(o.name for o in OBLIGATIONS)
        fail(f"{shown(str(only))} matches no obligation; they are: {names}", field="--only")
    if list_only:
        if json_output:
            print_json(
                {"obligations": [{"name": o.name, "statement": o.statement} for o in chosen]}
            )
        else:
            for obligation in chosen:
                out.print(f"{obligation.name:<24} {obligation.statement}")
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task("proving", total=len(chosen))

        def started(obligation: Obligation) -> None:
            bar.update(
                task, description=f"proving {obligation.name}", completed=chosen.index(obligation)
            )

        verdicts = run_all(timeout=timeout, only=keep, started=started)
        bar.update(task, completed=len(chosen))
    every = all(v.proved for v in verdicts)
    if json_output:
        print_json(
            {
                "proved": every,
                "seconds": round(sum(v.seconds for v in verdicts), 3),
                "obligations": [v.as_json() for v in verdicts],
            }
        )
    else:
        for verdict in verdicts:
            out.print(_line(verdict), style=None if verdict.proved else "bold red")
        total = sum(v.seconds for v in verdicts)
        failed = sum(not v.proved for v in verdicts)
        summary = (
            f"{'all ' if len(verdicts) > 1 else ''}{plural(len(verdicts), 'obligation')} proved"
            f" in {duration(total)}"
            if every
            else f"{failed} of {plural(len(verdicts), 'obligation')} FAILED ({duration(total)})"
        )
        out.print(summary, style="bold")
    if not every:
        raise typer.Exit(EXIT_VERDICT)


def register(app: typer.Typer) -> None:
    app.command("prove", help=PROVE_HELP, cls=DekalCommand)(prove)
