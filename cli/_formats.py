"""The value formats `dekal --help` describes, each with examples the command accepts (B1).

A help text that shows what a parameter reads ("lines `ID RULE [reason]`", "like c3:L",
"7,3,3") makes a promise the parser must keep. Every such parameter is listed here with the
examples its help shows; tests/cli/test_help_formats.py holds the two together: each
example appears in the command's --help and the command, run with it, accepts it; and
every parameter that takes a value is either listed here, or a number (whose range the
walker holds), or in NOT_FORMATS, with what it is instead.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Example:
    """A value as a help text shows it; `beside`: the other options it needs to be accepted
    (an eject side needs --variant eject), `text`: for a parameter that names a file, the
    file's content the help describes (the example is then written to a file), `instead`:
    the invocation to put it in, where the command's cheap one cannot take it."""

    value: str
    beside: str = ""
    text: bool = False
    instead: str = ""
    """The invocation to put the value in, where the command's cheap one cannot take it."""


@dataclass(frozen=True)
class Format:
    """What one parameter of one or more commands reads, with the examples its help shows."""

    commands: tuple[str, ...]
    parameter: str
    examples: tuple[Example, ...]
    parser: str = ""
    """"module:function", the function the commands call on the value, where running the
    command would cost seconds (a searching bot, a suite's cases): the test calls it
    instead, and checks that each command's module calls it. Empty: the command is run."""


def _examples(*values: str, beside: str = "", text: bool = False) -> tuple[Example, ...]:
    return tuple(Example(value, beside, text) for value in values)


GRID = "53T2/1444/9999/TT11"
POSITION = (
    "slide/lowest/single 1.16 push@0:3 0 T491/8437/8837/555.|1112/TT82/T72T/T62T -,- - #68 - 0,0"
)
FULL_POSITION = (
    "slide/lowest/single 1.1 push@0:1 0 jj.b/gfhh/gabg/baja|.ejh/bcch/jdie/djej -,- 3"
    " 25566376374645612481935447358T196T78935165878718672994349226493T1992 - 0,0"
)
EXPECT_LINES = ("game-0007 S3 our tie-break is still the old one", "M3 the view shows a size")
"""An --expect file's two kinds of line (dekal.conformance.judge._expect): the help shows
their shapes, `ID RULE [reason]` and `RULE [reason]`, and these are written in them."""

FORMATS = (
    Format(("score",), "GRIDS", _examples(GRID, "9994/4416/T637/2111")),
    Format(("push",), "GRID", _examples("5T32/1.44/9999/TT11")),
    Format(("push",), "SIDE", (Example("L"), Example("T3", "--variant eject"))),
    Format(("push",), "CARD", _examples("7", "T")),
    Format(("show",), "GRID|POSITION", _examples("5T32/1.44/9999/TT11", FULL_POSITION)),
    Format(("replay",), "RECORD", _examples("two-players-first-tie")),
    Format(
        ("annotate",),
        "RECORD",
        _examples("two-players-first-tie"),
        "dekal.cli._bots.annotate:read_game",
    ),
    Format(("solve",), "GRID", _examples("1112/3131/1435/2435")),
    Format(("solve",), "--incoming", _examples("5,3", "7,3,3")),
    Format(("solve",), "--face-down", _examples("a1,b3,c4")),
    Format(
        ("solve",),
        "--unseen",
        (Example("1,1,7", instead="'3311/3371/5225/T55?' --unknown --timeout 20"),),
    ),
    Format(("solve",), "--reach", _examples("1112/1315/1435/2435", beside="--incoming 5")),
    Format(("puzzle",), "--answer", _examples("c3:L")),
    Format(("prove",), "--only", _examples("push", "push,score")),
    Format(("advise",), "POSITION", _examples(POSITION)),
    Format(
        ("advise", "annotate"),
        "--bot",
        _examples("greedy", "random", "pimc:samples=10"),
        "dekal.cli._bots.advise:checked_model",
    ),
    Format(("annotate",), "--seat", _examples("0", "0,2"), "dekal.cli._bots.annotate:parse_seats"),
    Format(("play",), "--bots", _examples("greedy", "ismcts:iterations=400,c=0.7")),
    Format(("simulate",), "--bots", _examples("greedy,random")),
    Format(
        ("simulate",), "--bots", _examples("pimc:samples=50"), "dekal.cli._bot_specs:checked_bot"
    ),
    Format(("match",), "--bots", _examples("greedy,random")),
    Format(("match",), "--sprt", _examples("elo0=0,elo1=50"), "dekal.cli._bots.match:read_sprt"),
    Format(("bots check",), "--bot", _examples("random")),
    Format(
        ("conformance run",),
        "--filter",
        _examples("T3", "perft", "P1-neg", "game-0007", "P1,T3"),
        "dekal.cli._conformance.run:cases_matching",
    ),
    Format(("conformance run",), "--expect", _examples(*EXPECT_LINES, text=True)),
    Format(("conformance run",), "--suite", _examples("v1", "v2", "v3")),
    Format(("conformance fuzz",), "--expect", _examples("M3,S3")),
)

NOT_FORMATS = {
    "--engine": "a choice of engines (fast|ref, completed by the shell), or a command line",
    "--variant": "a choice, slide|eject (dekal_ref.notation.VARIANTS)",
    "--first": "a choice, lowest|chosen (dekal_ref.notation.FIRST_RULES)",
    "--method": "a choice of the solver's methods",
    "--rating": "a choice of the puzzle levels (dekal.proofs._puzzle_rating.LEVELS)",
    "--python": "MODULE:FACTORY, an import path: accepted only where that module exists",
    "--scheduler": "an address, tcp://HOST:PORT: accepted only where a scheduler runs",
    "--svg": "a file or folder to write",
    "--html": "a file to write",
    "--junit": "a file to write",
    "--badge": "a file to write",
    "--plot": "a file to write",
    "--record": "a file to write",
    "--resume": "a file to write, and read back when the match is run again",
    "--save": "a folder to write",
    "--records": "a folder to write",
    "--db": "a folder to write",
    "--cases": "a file or folder of conformance cases (spec/conformance's own format)",
    "RESULTS": "files saved by `conformance run --json`",
}
"""Parameters that take a value but describe no format of their own: what each is."""
