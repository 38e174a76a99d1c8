"""What every `dekal` command shares: exit codes, error reporting, JSON output, grid pictures.

The pictures themselves are drawn by dekal.cli._pictures.

Errors (issue 13): one line on standard error, `error: …`, naming the rule or the field; with
`--json`, one JSON object on standard output instead,

    {"error": {"kind": "notation", "field": "grid", "message": "…"}}

where `kind` is `illegal` (with `rule`), `notation` (with `field`), `usage` (a bad option or
argument, with `field` naming it), `input` (an unreadable file, an unplayable puzzle),
`missing_extra` (an optional library this use needs is not installed: with `extra`, the one
to install, and `module`), `verdict` or `engine`; then the exit code. Every error names a
rule or a field (issue 19): when the caller names neither, `fail` names the first option its
message mentions, else the command itself. A key that does not apply is left out (never
null). No word of the command line is quoted back longer than QUOTE_LIMIT characters,
whoever wrote the message. A command that already printed its JSON report (a `--check` that
failed) says the verdict on standard error, so standard output stays one object. Every
command gets this by being registered with `cls=DekalCommand`; `fail` is the one way to
report an error.

Exit codes (docs/guide.md):
    0  success
    1  the command ran and its verdict is negative (a conformance failure, a proof
       counterexample, two solver methods that disagree)
    2  bad input: malformed notation, an illegal action, a bad option (typer also uses 2
       for usage errors)
    3  an engine under test could not be started or driven at all
    4  answered, but not proved within the time limit (`dekal solve`: the best witness
       found is printed; no verdict at all counts here too)
  130  interrupted (Ctrl-C)
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.text import Text
from typer._click.core import Command, Context  # typer's vendored click
from typer._click.exceptions import UsageError
from typer.core import TyperGroup

from dekal._streams import StreamLost, encodes
from dekal.cli import _paths as paths
from dekal.cli._help_format import ManPageCommand
from dekal.cli._pictures import grid_picture as grid_picture
from dekal.engines import ENGINE_NAMES, GameAPI, get_engine
from dekal.extras import MissingExtra
from dekal.simulation.runner import MAX_WORKERS
from dekal_ref.errors import DekalError, IllegalAction, NotationError
from dekal_ref.json_reading import json_line
from dekal_ref.reading import QUOTE_LIMIT, read_number, shortened, shown

T = TypeVar("T")

EXIT_OK = 0
EXIT_VERDICT = 1
EXIT_BAD_INPUT = 2
EXIT_ENGINE = 3
EXIT_UNPROVED = 4
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C

_KIND_OF_CODE = {EXIT_VERDICT: "verdict", EXIT_BAD_INPUT: "usage", EXIT_ENGINE: "engine"}


class _Output(Console):
    """Standard output. A closed pipe is passed up to the root command, which exits quietly
    with 141 (cli/_app.py); rich's own handling would exit 1, the code of a negative verdict."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


out = _Output(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

_JSON_ERRORS: ContextVar[bool] = ContextVar("dekal_json_errors", default=False)
"""True while a command that was given --json runs: its errors are then JSON on stdout."""
_JSON_PRINTED: ContextVar[bool] = ContextVar("dekal_json_printed", default=False)
"""True once the running command has printed a JSON object on stdout."""


def print_json(payload: Any) -> None:
    """One JSON object on one line, for machines: UTF-8 text always. A command-line word
    that was not UTF-8 (its bytes kept as lone surrogates) is written as a \\u escape, not
    as the raw bytes a JSON reader would refuse."""
    line = json_line(payload)
    if not line.isascii() and not (_is_utf8(line) and encodes(line)):
        # a lone surrogate, or a terminal that cannot show the text (an ASCII locale):
        # every non-ASCII character as a \u escape, which any reader decodes the same
        line = json.dumps(payload, separators=(",", ":"), allow_nan=False)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    _JSON_PRINTED.set(True)


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def error_object(
    message: str,
    kind: str,
    *,
    rule: str | None = None,
    field: str | None = None,
    details: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`{"error": {"kind", "rule" or "field", "message", …details}}`; absent keys are left out,
    so no null (and no Python None) ever reaches the reader."""
    body: dict[str, Any] = {"kind": kind}
    if rule is not None:
        body["rule"] = rule
    if field is not None:
        body["field"] = field
    body["message"] = message
    body |= {key: value for key, value in (details or {}).items() if value is not None}
    return {"error": body}


def fail(
    message: str,
    code: int = EXIT_BAD_INPUT,
    *,
    kind: str | None = None,
    rule: str | None = None,
    field: str | None = None,
    details: dict[str, Any] | None = None,
) -> NoReturn:
    """Report an error and exit with `code`: one line on standard error, no traceback; under
    --json one JSON object on standard output (see the module docstring).

    `field` (an option like `--timeout`, or a notation field) is named in the text line too."""
    kind = kind or _KIND_OF_CODE.get(code, "usage")
    message = _quoted_short(message)
    if rule is None and field is None:  # every error names what it is about (issue 19)
        option = _OPTION.search(message)
        field = option.group() if option else _COMMAND.get()
    if _JSON_ERRORS.get() and not _JSON_PRINTED.get():
        print_json(error_object(message, kind, rule=rule, field=field, details=details))
    else:
        named = field is None or kind not in ("usage", "input") or field in message
        where = "" if named else f"{field}: "
        err.print(Text(f"error: {where}{message}", style="bold red"))
    raise typer.Exit(code)


def checked(check: Callable[[object], T], value: object, field: str) -> T:
    """`check(value)`, or a one-line error (exit 2) naming `field`, from a command's body."""
    try:
        return check(value)
    except paths.PathRefused as error:
        fail(str(error), kind="usage", field=field)


def missing_details(missing: MissingExtra) -> dict[str, Any]:
    """The JSON error's keys for a missing extra: which extra to install, for which module."""
    return {"extra": missing.extra, "module": missing.module}


_ARGUMENTS: ContextVar[tuple[str, ...]] = ContextVar("dekal_arguments", default=())
"""The words of the running command's line: `fail` never quotes a long one back whole."""
_COMMAND: ContextVar[str] = ContextVar("dekal_command", default="dekal")
"""The running command's path (`dekal conformance run`): the field of an error that names
no option, because it is about the command line as a whole."""
_OPTION = re.compile(r"--[a-z][a-z0-9-]*")
_PIECES = re.compile(r"[=,:\s]")


def _quoted_short(message: str) -> str:
    """`message` with every long word of the command line in it cut to QUOTE_LIMIT
    characters, as typed or as repr quotes it (a library's message may quote a value
    whole: `No module named 'xxx…'`)."""
    for argument in _ARGUMENTS.get():
        if len(argument) <= QUOTE_LIMIT:
            continue
        # --option=value, and the items of a list (5,3,3), are quoted on their own too
        for word in sorted({argument, *_PIECES.split(argument)}, key=len, reverse=True):
            if len(word) <= QUOTE_LIMIT:
                continue
            for form in (word, repr(word)[1:-1]):
                if form in message:
                    message = message.replace(form, shortened(word))
    return message


def describe(error: DekalError) -> str:
    """The one-line message for an error: illegal actions name their rule ID."""
    if isinstance(error, IllegalAction):
        return f"illegal (rule {error.rule}): {error.message}"
    if isinstance(error, NotationError):
        return f"malformed {error.field}: {error.message}"
    return str(error)


def _parts(error: DekalError) -> tuple[str, str | None, str | None]:
    """(kind, rule, field) of a Dékal error: `illegal` naming the rule, `notation` naming the
    field, or `input` (naming the field if the error has one)."""
    if isinstance(error, IllegalAction):
        return "illegal", error.rule, None
    if isinstance(error, NotationError):
        return "notation", None, error.field
    return "input", None, getattr(error, "field", None)  # other Dékal errors may name one


def error_of(error: DekalError, field: str) -> dict[str, Any]:
    """The error object of a Dékal error, for a command that reports several results (one
    per grid): {"error": {"kind", "rule" or "field", "message"}}, `field` when it names none."""
    kind, rule, named = _parts(error)
    if rule is None and named is None:
        named = field
    return error_object(_quoted_short(describe(error)), kind, rule=rule, field=named)


def fail_with(
    error: DekalError, prefix: str = "", details: dict[str, Any] | None = None
) -> NoReturn:
    """`fail` for a Dékal error, its kind, rule and field as `_parts` says."""
    kind, rule, field = _parts(error)
    fail(prefix + describe(error), kind=kind, rule=rule, field=field, details=details)


@contextmanager
def user_errors(prefix: str = "") -> Iterator[None]:
    """Turn a Dékal error raised inside the block into a one-line error and exit code 2."""
    try:
        yield
    except DekalError as error:
        fail_with(error, prefix)


class DekalCommand(ManPageCommand):
    """A `dekal` command: its errors follow the one convention of this module.

    Usage errors (a missing argument, an option value its parser refuses) are one line, or
    one JSON object when `--json` is among the arguments; while the command runs, `fail`
    writes JSON when the command was given `--json`."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        json_wanted = "--json" in args
        _ARGUMENTS.set(tuple(args))  # until the command ends (invoke) or is refused below
        _COMMAND.set(ctx.command_path)
        try:
            return super().parse_args(ctx, args)
        except UsageError as error:
            token, printed = _JSON_ERRORS.set(json_wanted), _JSON_PRINTED.set(False)
            try:
                fail(
                    f"{error.format_message()} (see {ctx.command_path} --help)",
                    EXIT_BAD_INPUT,
                    kind="usage",
                    field=_usage_field(error),
                )
            finally:
                _JSON_ERRORS.reset(token)
                _JSON_PRINTED.reset(printed)
                _ARGUMENTS.set(())

    def invoke(self, ctx: Context) -> Any:
        token = _JSON_ERRORS.set(bool(ctx.params.get("json_output")))
        printed = _JSON_PRINTED.set(False)
        try:
            _refuse_overwriting_an_input(ctx)
            return super().invoke(ctx)
        except MissingExtra as missing:  # dekal.extras: one line naming the extra, exit 2
            fail(str(missing), kind="missing_extra", details=missing_details(missing))
        except StreamLost as lost:  # standard output lost: dekal.cli._app.main says it
            if lost.name != "standard input":
                raise
            fail(f"{lost.message}: give the input as an argument or a file", kind="input",
                 field="standard input")  # fmt: skip
        except Exception as error:
            if _bot_program_failed(error):  # spec/bot-protocol.md, section 5: exit 3
                option = "--bots" if "bots" in ctx.params else "--bot"
                fail(str(error), EXIT_ENGINE, kind="engine", field=option)
            raise
        finally:
            _JSON_ERRORS.reset(token)
            _JSON_PRINTED.reset(printed)
            _ARGUMENTS.set(())


def _refuse_overwriting_an_input(ctx: Context) -> None:
    """An option naming a file to write that is one of the files the command reads (an
    argument or option naming an existing file) is refused before any work (issue 29)."""
    outputs: dict[str, object] = {}
    inputs: dict[str, object] = {}
    for param in ctx.command.params:
        values = ctx.params.get(str(param.name))
        if values is None or isinstance(values, bool):
            continue
        check = _parser_name(param)
        name = _param_label(param)
        if check in paths.OUTPUT_CHECKS:
            outputs[name] = values
        else:
            for number, value in enumerate(values if isinstance(values, list) else [values]):
                inputs[f"{name}#{number}"] = value
    clash = paths.output_among_inputs(outputs, inputs)
    if clash is not None:
        output, read = clash[0], clash[1].partition("#")[0]
        fail(
            f"{shown(str(ctx.params[_param_name(ctx, output)]))} is also read by this command"
            f" ({read}): writing it would destroy it; name another file",
            field=output,
        )


def _parser_name(param: Any) -> str:
    """The name of the `parser=` a parameter was declared with ("" when none): typer keeps
    it in the parameter's type descriptor (or, in older releases, as its type's func)."""
    info = getattr(getattr(param, "type_descriptor", None), "parameter_info", None)
    parser = getattr(info, "parser", None) or getattr(getattr(param, "type", None), "func", None)
    return str(getattr(parser, "__name__", ""))


def _param_label(param: Any) -> str:
    longs = [opt for opt in getattr(param, "opts", []) if opt.startswith("--")]
    return longs[0] if longs else str(param.metavar or param.name).upper()


def _param_name(ctx: Context, label: str) -> str:
    return next(str(p.name) for p in ctx.command.params if _param_label(p) == label)


def _bot_program_failed(error: Exception) -> bool:
    """Is `error` a bot program's forfeit or failure to start (dekal.bots._protocol.process_bot)?
    Only a command that played a `cmd:` bot has imported that module, so no other pays for it."""
    programs = sys.modules.get("dekal.bots._protocol.process_bot")
    return programs is not None and isinstance(error, (programs.BotForfeit, programs.BotUnusable))


class DekalGroup(TyperGroup):
    """The `dekal` command's groups: an unknown command is one line (or one JSON object when
    `--json` is among the arguments), like any other usage error."""

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as error:
            unknown_command(ctx, args, error)


def unknown_command(ctx: Context, args: list[str], error: UsageError) -> NoReturn:
    """Report a group's usage error (an unknown command) by the one convention, and exit."""
    token, printed = _JSON_ERRORS.set("--json" in args), _JSON_PRINTED.set(False)
    _ARGUMENTS.set(tuple(args))
    try:
        fail(
            f"{error.format_message()} (see {ctx.command_path} --help)",
            kind="usage",
            field="COMMAND",
        )
    finally:
        _JSON_ERRORS.reset(token)
        _JSON_PRINTED.reset(printed)
        _ARGUMENTS.set(())


def _usage_field(error: UsageError) -> str | None:
    """The option or argument a usage error is about (`--timeout`, `GRID`), if it says."""
    param = getattr(error, "param", None)
    if param is not None:
        opts = [opt for opt in getattr(param, "opts", []) if opt.startswith("--")]
        return opts[0] if opts else str(getattr(param, "metavar", None) or param.name).upper()
    option = getattr(error, "option_name", None)
    return str(option) if option else None


# --- Option values, checked once before any work starts -----------------------------------

MAX_SECONDS = 7 * 24 * 3600
"""The longest time limit an option accepts (a week): beyond it, a limit means nothing."""

_SECONDS = re.compile(r"[0-9]{1,7}(?:\.[0-9]{0,6})?|\.[0-9]{1,6}")


def parse_seconds(value: object) -> float:
    """--timeout: a finite number of seconds, 0 < s ≤ a week, in ASCII digits (10, 2.5).

    `inf`, `nan`, `1e308`, `0` and negative numbers are refused: each would make every
    deadline meaningless (never, or at once)."""
    is_default = isinstance(value, (int, float)) and not isinstance(value, bool)
    if is_default or isinstance(value, str) and _SECONDS.fullmatch(value):
        seconds = float(str(value))
    else:
        raise typer.BadParameter(
            f"{shown(str(value))} is not a number of seconds: write digits, like 10 or 2.5"
        )
    if not 0 < seconds <= MAX_SECONDS:
        raise typer.BadParameter(
            f"{seconds:g} s is out of range: more than 0 and at most {MAX_SECONDS} (a week)"
        )
    return seconds


def whole_number(least: int, most: int, why: str = "") -> Callable[[object], int]:
    """A parser for an integer option: ASCII digits, least ≤ n ≤ most (dekal_ref.reading)."""

    def parse(value: object) -> int:
        try:  # the declared default (an int) is read like typed text
            return read_number(str(value), "option", most=most, least=least)
        except NotationError as error:
            raise typer.BadParameter(error.message + (f" ({why})" if why else "")) from None

    return parse


def text_of_at_most(most: int) -> Callable[[object], str]:
    """A parser for a text option whose length bounds the work it makes (like --filter)."""

    def parse(value: object) -> str:
        text = str(value)
        if len(text) > most:
            raise typer.BadParameter(f"{len(text)} characters: at most {most}")
        return text

    return parse


def _parsed(check: Callable[[object], T], value: object) -> T:
    """A path check of dekal.cli._paths as a typer `parser=`: a usage error naming the option."""
    try:
        return check(value)
    except paths.PathRefused as error:
        raise typer.BadParameter(str(error)) from None


def output_file(value: object) -> Path:
    """--junit, --html, --badge, --plot, --record: a file to write (dekal.cli._paths)."""
    return _parsed(paths.output_file, value)


def output_file_or_stdout(value: object) -> str:
    """A file to write, or `-` for standard output (fuzz --record)."""
    return _parsed(paths.output_file_or_stdout, value)


def seconds_or_zero(value: object) -> float:
    """A time budget where 0 means none (fuzz --shrink-seconds); else as parse_seconds."""
    if re.fullmatch(r"0+(?:\.0*)?|\.0+", str(value)):  # 0, 0.0, .0: no time at all
        return 0.0
    return parse_seconds(value)


def output_directory(value: object) -> Path:
    """--save, --db, replay --svg: a folder to write into (dekal.cli._paths)."""
    return _parsed(paths.output_folder, value)


def input_file(value: object) -> Path:
    """--expect, RESULTS: a regular file to read (dekal.cli._paths)."""
    return _parsed(paths.input_file, value)


def input_path(value: object) -> Path:
    """--cases: a regular file to read, or a folder of them (dekal.cli._paths)."""
    return _parsed(paths.input_file_or_folder, value)


def command_line(value: object) -> str:
    """--engine CMD, --python MODULE:FACTORY: not empty, not only spaces (an empty value
    would otherwise read as "not given" and quietly judge the bundled engines instead)."""
    text = str(value)
    if not text.strip():
        raise typer.BadParameter("empty: name the engine to judge (see the examples in --help)")
    if "\x00" in text:  # no command line holds one; a NUL would fail in the engine's thread
        raise typer.BadParameter(f"{shown(text)} holds a NUL character")
    return text


def _reason(error: BaseException) -> str:
    return getattr(error, "strerror", None) or str(error)


def read_text_file(path: Path, option: str, limit: int) -> str:
    """A UTF-8 text file of at most `limit` characters, or `fail` naming the option and file.

    The file is checked by dekal.cli._paths first (a FIFO in a --cases folder would block)."""
    try:
        paths.input_file(path)
    except paths.PathRefused as error:
        fail(str(error), kind="input", field=option)
    try:
        with path.open(encoding="utf-8") as handle:
            text = handle.read(limit + 1)
    except UnicodeDecodeError as error:
        fail(
            f"{shown(str(path))} is not UTF-8 text (byte {error.start})", kind="input", field=option
        )
    except (OSError, ValueError) as error:
        fail(f"{shown(str(path))}: {_reason(error)}", kind="input", field=option)
    if len(text) > limit:
        fail(f"{shown(str(path))} is longer than {limit} characters", kind="input", field=option)
    return text


ENGINE_HELP = (
    "Engine that computes the result: fast (dekal, packed 64-bit grids, the default) or ref"
    " (dekal_ref, the literal reference). Both must agree: run both to cross-check."
)


def engine_by_name(name: str) -> GameAPI:
    """The engine named by --engine, or a one-line error (exit 2) naming the choices."""
    if name not in ENGINE_NAMES:
        fail(f"{shown(name)}: choose one of {', '.join(ENGINE_NAMES)}", field="--engine")
    return get_engine(name)


_SCHEDULER = re.compile(r"tcp://[A-Za-z0-9.\-\[\]:]{1,253}:[0-9]{1,5}")


def scheduler_address(value: object) -> str:
    """--scheduler (simulate, advise, conformance fuzz): tcp://HOST:PORT of a running Dask
    scheduler (an IPv6 host in brackets). An empty value is refused, not read as "not given"."""
    text = str(value)
    if not _SCHEDULER.fullmatch(text):
        raise typer.BadParameter(f"{shown(text)} is not a scheduler address: tcp://HOST:PORT")
    return text


Workers = Annotated[
    int,
    typer.Option(
        metavar="N",
        help=f"Worker processes, 1-{MAX_WORKERS}: at most twice this machine's cores (1: this"
        " process, no Dask).",
        parser=whole_number(1, MAX_WORKERS),
    ),
]
"""--workers of simulate, advise and conformance fuzz (dekal.simulation.runner)."""

Scheduler = Annotated[
    str | None,
    typer.Option(
        metavar="tcp://HOST:PORT",
        help="Run on the workers of this running Dask scheduler instead (docs/simulate.md).",
        parser=scheduler_address,
    ),
]
"""--scheduler of simulate, advise and conformance fuzz (dekal.simulation.runner)."""
