"""The `dekal` command tree, walked: every command, every parameter, and a cheap invocation of
each to change one value in (issue 19; used by tests/cli/test_cli_walker.py).

Nothing here names a command but BASELINES, and only to make an expensive first example
cheap: a command added to cli/_app.py's COMMANDS is walked from the first example of its own
--help (tests/cli/test_cli_conventions.py makes every command show one).
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import signal
import typing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import typer.main
from typer._click.core import Command, Context, Parameter
from typer.core import TyperGroup
from typer.testing import CliRunner, Result

from dekal.cli._app import app

ROOT = typer.main.get_command(app)
QUOTE_LIMIT = 40  # dekal_ref.reading.QUOTE_LIMIT, restated: the walker checks it from outside
EXIT_CODES = frozenset({0, 1, 2, 3, 4})  # docs/guide.md; 130 and 141 need a signal or a pipe
SECONDS = 120  # one invocation taking longer has hung (generous: the machine is shared)
MEMORY = 1 << 30  # bytes: no invocation may raise the process's peak RSS by more
ERROR_KEYS = frozenset(
    {"kind", "rule", "field", "message", "round", "turn", "action", "extra", "module"}
)
"""What an error object may hold: the convention's keys, replay's place in the game, and a
missing extra's name and module."""

BASELINES: dict[str, str] = {
    # the first example of these commands' --help runs for seconds: a smaller question
    "solve": "1112/3131/1435/2435 --incoming 5,3 --method search --timeout 20",
    "prove": "--list",
    "advise": '"slide/lowest/single 1.16 push@0:3 0 T491/8437/8837/555.|1112/TT82/T72T/T62T'
    ' -,- - #68 - 0,0" --seat 0 --samples 30',
    "play": "--bots greedy --seed 1",
    "annotate": "two-players-first-tie --seat 1 --samples 30",
    "simulate": "--players 2 --games 20 --seed 1",
    "conformance run": "--engine ref --filter perft-0001",
    "conformance fuzz": "--engine ref --games 1 --no-db --shrink-seconds 0",
    "conformance report": "{place}/report.json --badge {place}/badge.svg",
    "conformance trend": "{place}/report.json {place}/report.json --html {place}/trend.html",
}
"""Command path -> its cheap invocation ({place}: a folder with a saved `conformance run`
report)."""


@dataclass(frozen=True)
class Walked:
    """One command of the tree: its words (`conformance run`), its Click command."""

    path: tuple[str, ...]
    command: Command

    @property
    def name(self) -> str:
        return " ".join(self.path)


def commands(group: Command = ROOT, path: tuple[str, ...] = ()) -> Iterator[Walked]:
    """Every command under `group`, sub-groups included (the root's are built as listed)."""
    assert isinstance(group, TyperGroup)
    context = Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None, name
        if isinstance(command, TyperGroup):
            yield from commands(command, (*path, name))
        else:
            yield Walked((*path, name), command)


def takes_value(param: Parameter) -> bool:
    return param.param_type_name == "argument" or not getattr(param, "is_flag", False)


def label(param: Parameter) -> str:
    """How errors name a parameter: its long option, or an argument's metavar in capitals."""
    longs = [opt for opt in param.opts if opt.startswith("--")]
    return longs[0] if longs else str(param.metavar or param.name).upper()


def is_number(walked: Walked, param: Parameter) -> bool:
    """Does the command take this parameter as a number (its annotation: int or float)?"""
    callback = walked.command.callback
    hints = typing.get_type_hints(callback) if callback is not None else {}
    kinds = typing.get_args(hints.get(str(param.name))) or (hints.get(str(param.name)),)
    return bool({int, float} & set(kinds))


def first_example(walked: Walked) -> str:
    """The arguments of the first `dekal <command> ...` line of the command's help."""
    prefix = "dekal " + walked.name + " "
    for line in (walked.command.help or "").splitlines():
        text = line.strip().split("  #")[0]
        if text.startswith(prefix) and "|" not in text and ">" not in text:
            return text[len(prefix) :]
    return ""


@dataclass
class Invocation:
    """A command line as parameter name -> tokens, rendered options first, then `--` and the
    arguments (so an argument may start with a dash)."""

    walked: Walked
    values: dict[str, list[str]]
    flags: set[str]

    @classmethod
    def parse(cls, walked: Walked, text: str) -> Invocation:
        by_opt = {opt: p for p in walked.command.params for opt in p.opts}
        arguments = [p for p in walked.command.params if p.param_type_name == "argument"]
        values: dict[str, list[str]] = {}
        flags: set[str] = set()
        loose: list[str] = []
        tokens = iter(shlex.split(text))
        for token in tokens:
            name, equals, value = token.partition("=")
            param = by_opt.get(name)
            if param is None:
                loose.append(token)
            elif not takes_value(param):
                flags.add(str(param.name))
            else:
                values[str(param.name)] = [value if equals else next(tokens)]
        for param in arguments:
            take = len(loose) if param.nargs == -1 else min(param.nargs, len(loose))
            if take:
                values[str(param.name)], loose = loose[:take], loose[take:]
        return cls(walked, values, flags)

    def with_value(self, param: Parameter, value: str) -> Invocation:
        return Invocation(self.walked, self.values | {str(param.name): [value]}, set(self.flags))

    def with_flag(self, param: Parameter) -> Invocation:
        return Invocation(self.walked, dict(self.values), self.flags | {str(param.name)})

    def args(self) -> list[str]:
        options: list[str] = []
        arguments: list[str] = []
        for param in self.walked.command.params:
            name = str(param.name)
            if param.param_type_name == "argument":
                arguments += self.values.get(name, [])
            elif name in self.flags:
                options.append(param.opts[0])
            elif name in self.values:
                options += [f"{label(param)}={value}" for value in self.values[name]]
        return [*self.walked.path, *options, "--", *arguments]


class Hung(BaseException):
    """An invocation ran past SECONDS (a BaseException: no `except Exception` may eat it)."""


def _hung(signum: int, frame: FrameType | None) -> None:
    raise Hung(f"no answer within {SECONDS} s")


def peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: kilobytes


def invoke(args: Sequence[str]) -> tuple[Result, int]:
    """Run `dekal args` in this process with empty standard input; (result, peak RSS growth)."""
    before = peak_rss()
    previous = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(SECONDS)
    try:
        result = CliRunner().invoke(app, list(args), input="")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return result, peak_rss() - before


def error_objects(stdout: str) -> Iterator[dict[str, Any]]:
    """Every `"error"` object of every JSON line on standard output (AssertionError for a
    line that is not a JSON object)."""
    for line in stdout.splitlines():
        payload = json.loads(line)
        assert isinstance(payload, dict), line[:200]
        if "error" in payload:
            yield payload["error"]


def check_error_object(error: object) -> None:
    """The one shape of an error: {"kind", "rule" or "field", "message"} (common.py)."""
    assert isinstance(error, dict), error
    assert set(error) <= ERROR_KEYS, error
    assert isinstance(error.get("kind"), str) and isinstance(error.get("message"), str), error
    assert "rule" in error or "field" in error, error
    assert error["kind"] != "illegal" or "rule" in error, error


def hostile_paths(folder: Path) -> dict[str, str]:
    """Paths a careless or hostile user names, made under `folder`: what each is, its text."""
    fifo = folder / "pipe"
    if not fifo.exists():
        os.mkfifo(fifo)
    loop = folder / "loop"
    if not loop.is_symlink():
        loop.symlink_to(loop)
    (folder / "a-file").write_text("x")
    return {
        "fifo": str(fifo),
        "fifo in a name": str(fifo) + ".svg",
        "proc, missing": "/proc/x.svg",
        "proc, a kernel file": "/proc/self/status",
        "proc, memory": "/proc/self/mem",
        "sys": "/sys/x.html",
        "device": "/dev/zero",
        "null device": "/dev/null",
        "missing folder": str(folder / "missing" / "x.svg"),
        "a directory": str(folder),
        "under a file": str(folder / "a-file" / "x.svg"),
        "symlink loop": str(loop),
        "root": "/",
    }


HOSTILE_TEXT = {
    "empty": "",
    "dash": "-",
    "space": " ",
    "negative": "-1",
    "zero": "0",
    "huge": "9" * 40,
    "overflow float": "1e309",
    "nan": "nan",
    "inf": "inf",
    "arabic digits": "\u0661\u0662",
    "fullwidth digit": "\uff12",
    "superscript": "\u00b2",
    "underscore": "1_0",
    "hex": "0x10",
    "padded": " 7 ",
    "long text": "Z" * 100_000,
    "long digits": "7" * 100_000,
    "line break": "a\nb",
    "nul": "\x00",
    "escape": "\x1b[31m",
    "seven names": ",".join(["greedy"] * 7),
    "bot with foreign digits": "pimc:samples=\u0661\u0662",
}
"""Values of any option, argument or path: what each is, its text."""

LONG_MARKS = ("Z" * (QUOTE_LIMIT + 1), "7" * (QUOTE_LIMIT + 1))
"""Text that is in the output only when a long value was quoted back past QUOTE_LIMIT."""
