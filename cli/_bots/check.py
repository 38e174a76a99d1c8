"""`dekal bots check`: does a bot keep the bot protocol's promises (dekal.bots._protocol.check)?"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from dekal.cli._common import (
    EXIT_VERDICT,
    DekalCommand,
    DekalGroup,
    fail,
    out,
    print_json,
    text_of_at_most,
    whole_number,
)
from dekal.cli._progress import progress_bar
from dekal_ref.errors import NotationError
from dekal_ref.reading import SEED_MAX

if TYPE_CHECKING:
    from dekal.bots._protocol.check import CheckReport

MOST_GAMES = 1000

CHECK_HELP = """Check a bot: legal, in time, deterministic, blind to hidden cards.

\b
    dekal bots check --bot random --games 1
    dekal bots check --bot "cmd:python -m dekal.bots.serve greedy" --games 2 --json
    dekal bots check --bot "cmd:./mybot" --games 1000 --think-ms 500

--bot is a bot spec: cmd:COMMAND, a program speaking the bot protocol (spec/bot-protocol.md),
or one of ours (random, greedy, pimc, ismcts). The checks:

\b
  legal and in time  --games seeded games at every player count the bot claims in its
                     hello (2-6), the bot at each seat in turn against greedy: every
                     answer one of the legal actions it was sent, within --think-ms
                     (B1; any forfeit of spec/bot-protocol.md, section 5, is a finding)
  deterministic      each player count's first game played again from the same seeds,
                     by a new process: the same actions
  blind              at some of its decisions, asked again with the same view and seed
                     while the table holds another world of that view (the face-down
                     cards, the pile, the hidden picks drawn again): the same action,
                     or it decided from a card its seat cannot see (M3, T1)
  refuses bad input  (programs) think before new_game and an unknown command: each
                     refused with ok false and its id, and the program still answering
                     hello afterwards

--games is per player count (default 10: 50 games, about a second of CPU). The issue's
thousand seeded games at every player count is --games 1000: 5,000 games, about a minute of
CPU for one of our bots in this process and four for a program (docs/bots.md, measured).

--json prints {"bot", "hello", "passed", "games", "decisions", "think_ms": {"median",
"max"}, "checks": [{"name", "passed", "findings": [...]}]}.

Exit codes: 0 every check passed; 1 a check failed (the findings say where); 2 bad input;
3 the program cannot be started or does not answer hello in the protocol's version.
"""

bots_app = typer.Typer(
    name="bots",
    help="Check bots against the bot protocol (spec/bot-protocol.md).",
    no_args_is_help=True,
    rich_markup_mode=None,
    cls=DekalGroup,
)


def check(
    bot: Annotated[
        str,
        typer.Option(
            metavar="BOT",
            help="cmd:COMMAND (a program) or one of our bots.",
            parser=text_of_at_most(1_000),
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            metavar="N",
            help=f"Games at each player count, 1-{MOST_GAMES}.",
            parser=whole_number(1, MOST_GAMES),
        ),
    ] = 10,
    think_ms: Annotated[
        int,
        typer.Option(
            metavar="MS",
            help="A program's time for one decision, in ms (default 10000).",
            parser=whole_number(1, 3_600_000),
        ),
    ] = 10_000,
    seed: Annotated[
        int,
        typer.Option(
            metavar="S", help="The games' seed, 0 ≤ S < 2^64.", parser=whole_number(0, SEED_MAX)
        ),
    ] = 0,  # fmt: skip
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    from dekal.bots._protocol.check import check_bot
    from dekal.bots._protocol.process_bot import ProcessBot
    from dekal.bots.bot import COMMAND_PREFIX
    from dekal.cli._bot_specs import checked_bot, checked_command

    kind, _, command = bot.strip().partition(":")
    try:
        if kind == COMMAND_PREFIX:
            checked_command(command)
        else:
            checked_bot(bot)
    except NotationError as error:
        fail(error.message, kind="notation", field="--bot")

    def make() -> Any:
        if kind == COMMAND_PREFIX:
            return ProcessBot(command.strip(), think_ms=think_ms)
        return checked_bot(bot)

    with progress_bar("check", "games") as report_progress:
        report = check_bot(make, games, seed, report_progress)
    payload = report_json(report)
    if json_output:
        print_json(payload)
    else:
        print_report(payload)
    if not report.passed:
        raise typer.Exit(EXIT_VERDICT)


def report_json(report: CheckReport) -> dict[str, Any]:
    from dekal.bots._protocol.check import think_ms_summary

    median, most = think_ms_summary(report)
    return {
        "bot": report.bot,
        "hello": report.hello,
        "passed": report.passed,
        "games": report.games,
        "decisions": report.decisions,
        "think_ms": {"median": round(median, 3), "max": round(most, 3)},
        "checks": [
            {"name": c.name, "passed": c.passed, "findings": c.findings} for c in report.checks
        ],
    }


def print_report(payload: dict[str, Any]) -> None:
    name = payload["hello"].get("name") if payload["hello"] else None
    out.print(
        f"bots check: {payload['bot']}" + (f" ({name})" if name else "")
        + f": {payload['games']} games, {payload['decisions']} decisions,"
        f" {payload['think_ms']['median']:.1f} ms median, {payload['think_ms']['max']:.1f} ms"
        " at most",
        markup=False,
    )  # fmt: skip
    for item in payload["checks"]:
        mark = "pass" if item["passed"] else "FAIL"
        out.print(f"  {mark}  {item['name']}", markup=False)
        for finding in item["findings"][:5]:
            out.print(f"        {finding}", markup=False)
        if len(item["findings"]) > 5:
            out.print(f"        … and {len(item['findings']) - 5} more", markup=False)
    out.print("passed" if payload["passed"] else "failed", markup=False)


def register(app: typer.Typer) -> None:
    bots_app.command("check", help=CHECK_HELP, cls=DekalCommand)(check)
    app.add_typer(bots_app, name="bots")
