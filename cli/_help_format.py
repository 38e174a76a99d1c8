"""How every `dekal` command's --help reads: plain usage lines and copyable examples.

Typer (≥ 0.2x) writes a required argument as `{grids}...` in the usage line and every value as
its Python type (`<str>`, `<list[str]>`, `<int range>`). ManPageCommand writes them the way
man pages and Click always have: `dekal score [OPTIONS] GRIDS...`, `--seed SEED`,
`--variant slide|eject` (a metavar given in the command wins).

Examples stay copyable because every help text puts them in `\\b` paragraphs, which Click
prints verbatim instead of re-wrapping (tests/cli/test_cli_conventions.py checks each one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from typer.core import TyperCommand

if TYPE_CHECKING:  # typer vendors Click there; only the type checker looks
    from typer._click import Context, HelpFormatter, Parameter


def _is_argument(param: Parameter) -> bool:
    return param.param_type_name == "argument"


def argument_name(param: Parameter) -> str:
    """GRID, GRIDS..., [RECORD]: the metavar (or the name) in upper case, as in a man page."""
    name = (param.metavar or param.name or "").upper()
    if param.nargs != 1:
        name += "..."
    return name if param.required else f"[{name}]"


def name_the_values(params: Sequence[Parameter]) -> None:
    """Give every option that takes a value a metavar: its name in upper case, unless set."""
    for param in params:
        takes_value = param.param_type_name == "option" and not getattr(param, "is_flag", False)
        if takes_value and param.metavar is None:
            param.metavar = (param.name or "value").upper()


class ManPageCommand(TyperCommand):
    """A typer command whose usage line and argument list read like a man page."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        name_the_values(self.params)

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        return pieces + [argument_name(p) for p in self.get_params(ctx) if _is_argument(p)]

    def format_options(self, ctx: Context, formatter: HelpFormatter) -> None:
        arguments = [
            (argument_name(param).strip("[]"), getattr(param, "help", None) or "")
            for param in self.get_params(ctx)
            if _is_argument(param)
        ]
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        options = [
            record
            for param in self.get_params(ctx)
            if not _is_argument(param) and (record := param.get_help_record(ctx)) is not None
        ]
        if options:
            with formatter.section("Options"):
                formatter.write_dl(options)
