"""Shell completion of option values: `dekal simulate --variant <TAB>` offers slide, eject.

Each command's options keep their declarations; `attach` (called by dekal.cli._app when it
builds a command) gives every option or argument named below its completer, by the
parameter's name, so a command that names its option `--variant` completes it without
saying so. A completer returns click CompletionItems; a RECORD also offers the shell's own
file completion (type "file").

    --variant         slide, eject (P1, P2)
    --first           lowest, chosen (F1-F2, F3)
    --bots, --bot,    bot names; after `NAME:` that bot's options (`pimc:samples=`);
    --against         after a comma, the next bot of the list
    --method          the solver's methods
    --engine          the bundled engines, ref and fast
    --rating          the puzzle levels
    RECORD            the bundled game records (replay, annotate), and files
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from typer._click.core import Command, Context, Parameter
from typer._click.shell_completion import CompletionItem
from typer.core import TyperGroup

Completer = Callable[[Context, Parameter, str], list[CompletionItem]]

VARIANTS = {"slide": "P1: the card slides the line along", "eject": "P2: the end card leaves"}
FIRST_RULES = {"lowest": "F1-F2: the lowest card revealed starts", "chosen": "F3: a seat chosen"}
METHODS = {"portfolio": "z3 and search raced", "z3": "the Z3 model", "search": "compiled search"}
ENGINES = {"fast": "the optimized engine", "ref": "the literal reference engine"}


def _matching(choices: dict[str, str] | Iterable[str], incomplete: str) -> list[CompletionItem]:
    helps = choices if isinstance(choices, dict) else dict.fromkeys(choices, "")
    return [
        CompletionItem(value, help=words or None)
        for value, words in helps.items()
        if value.startswith(incomplete)
    ]


def _fixed(choices: dict[str, str] | Iterable[str]) -> Completer:
    return lambda ctx, param, incomplete: _matching(choices, incomplete)


def bot_options() -> dict[str, tuple[str, ...]]:
    """Every bot `make_bot` knows and the options it takes (its dataclass fields)."""
    from dekal.bots.bot import BOT_NAMES, KINDS

    kinds = KINDS
    return {
        name: tuple(field.name for field in dataclasses.fields(kinds[name])) for name in BOT_NAMES
    }


def complete_bots(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """A bot list: the piece after the last comma is completed, the text before it kept.

    `gr` → greedy; `pimc:` → pimc:samples=, …; `greedy,p` → greedy,pimc; after
    `pimc:samples=9,` both the next option of pimc (`pimc:samples=9,rollout=`) and the next
    bot (`pimc:samples=9,random`), as simulate's split_bots reads either."""
    head, comma, piece = incomplete.rpartition(",")
    before = head + comma
    options = bot_options()
    bot, colon, option = piece.partition(":")
    if colon:
        return [
            CompletionItem(f"{before}{bot}:{name}=")
            for name in options.get(bot, ())
            if name.startswith(option)
        ]
    items = []
    owner = _bot_of(head) if comma else ""
    if owner:  # that bot's options are being written: one more may follow
        items = [
            CompletionItem(f"{before}{name}=", help=f"an option of {owner}")
            for name in options.get(owner, ())
            if name.startswith(piece)
        ]
    return items + [
        CompletionItem(f"{before}{name}", help=f"options: {', '.join(opts) or 'none'}")
        for name, opts in options.items()
        if name.startswith(piece)
    ]


def _bot_of(head: str) -> str:
    """The bot whose options the list ends with (`pimc:samples=9` → pimc), or '' when it
    ends with a bot without options (as split_bots groups the pieces)."""
    owner = ""
    for piece in head.split(","):
        if ":" in piece:
            owner = piece.partition(":")[0]
        elif not (owner and "=" in piece):
            owner = ""
    return owner


def complete_record(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """A RECORD: the bundled records' names, and the shell's file completion."""
    from dekal.cli._replay import bundled_examples

    names = sorted(name for name in bundled_examples() if name.startswith(incomplete))
    return [CompletionItem(name, help="bundled record") for name in names] + [
        CompletionItem(incomplete, type="file")
    ]


def _levels() -> Completer:
    from dekal.proofs._puzzle_rating import LEVELS

    return _fixed(LEVELS)


COMPLETERS: dict[str, Callable[[], Completer]] = {
    "variant": lambda: _fixed(VARIANTS),
    "first": lambda: _fixed(FIRST_RULES),
    "bots": lambda: complete_bots,
    "bot": lambda: complete_bots,
    "against": lambda: complete_bots,
    "method": lambda: _fixed(METHODS),
    "engine": lambda: _fixed(ENGINES),
    "rating": _levels,
    "record": lambda: complete_record,
}
"""A parameter's name (its Python name) -> its completer's maker."""


def attach(command: Command) -> Command:
    """Give every parameter of `command` (and of its subcommands) named in COMPLETERS its
    completer, unless it has one already; returns `command`."""
    for param in command.params:
        maker = COMPLETERS.get(param.name or "")
        if param.name == "record" and param.param_type_name != "argument":
            continue  # play/fuzz --record FILE is a file to write, not a record to read
        if maker is not None and param._custom_shell_complete is None:
            param._custom_shell_complete = maker()
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            attach(sub)
    return command
