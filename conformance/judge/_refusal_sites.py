"""Which refusal branches of the reference a suite reaches (issue 18: complete by construction).

A *refusal site* is one `raise` of a refusal in the reference as the protocol serves it: an
`IllegalAction` (a rule), a `NotationError`, or the adapter's `BadRequest` and `Unsupported`,
in the modules that play, set up, deal, read and check positions (SITE_MODULES). The sites are
found by reading those modules (every `raise X(...)` of those four classes); the sites a run
reaches are recorded while it runs, by noting where each refusal is constructed.

`reached_sites(cases)` runs `cases` (their probes included) on the reference and returns the
sites reached; `unreached(cases)` what is left. A site no protocol request can
reach (a check that an earlier one always pre-empts) is listed in UNREACHABLE with the reason.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from types import CodeType, FrameType, ModuleType
from typing import Any

from dekal.conformance.drive import _adapter as adapter
from dekal_ref.errors import IllegalAction, NotationError

SITE_MODULES: tuple[ModuleType, ...] = tuple(
    import_module(name)
    for name in (
        "dekal_ref.game",
        "dekal_ref.push",
        "dekal_ref.deal",
        "dekal_ref.actions",
        "dekal_ref.notation",
        "dekal_ref.position",
        "dekal_ref.state",
        "dekal.conformance.drive._reachable",
        "dekal.conformance.drive._adapter",
    )
)
"""The reference as the protocol serves it: moves, pushes, set-up and deals, the readers of
actions, grids and positions, the reachability checks and the adapter's own refusals."""
REFUSALS = ("IllegalAction", "NotationError", "BadRequest", "Unsupported")

Site = tuple[str, str, int]
"""(module file name, function, which refusal of that function: 1, 2, …): stable while lines
around it move."""

UNREACHABLE: dict[Site, str] = {
    ("_adapter.py", "handle", 1): "an id that is not an integer: the runner sends integers only",
    ("_adapter.py", "_check_claims", 2): "players not claimed: the runner skips such cases",
    ("_adapter.py", "_check_claims", 3): "match not claimed: the runner skips such cases",
    ("_adapter.py", "new_game_from_position", 1): "position not claimed: the runner skips",
    ("_adapter.py", "_game", 1): "no game yet: every case the runner sends starts one first",
    ("_adapter.py", "new_round", 1): "match not claimed: the runner skips such cases",
    ("_adapter.py", "deal", 1): "seeded-deal not claimed: the runner skips such cases",
    ("_adapter.py", "perft", 1): "perft not claimed: the runner skips such cases",
    ("game.py", "check_setup", 1): "M2 of the set-up: the adapter refuses a player count that "
    "differs from the grids first",
    ("game.py", "reveal", 3): "a cell outside the grid: parse_cell reads only a1-d4",
    ("push.py", "hole_of", 1): "a push into a grid without one hole: the adapter's push and "
    "pushes refuse it first, and in a game the seat to push has one",
    ("push.py", "push_chain", 1): "a side other than L R T B: parse_push reads only those",
    ("push.py", "push_chain", 4): "a line outside 1-4: parse_push reads only 1-4",
    ("push.py", "push_card", 1): "a card outside 1-10: parse_value reads only 1-9 and T",
    ("state.py", "__post_init__", 1): "an unknown push variant: read and refused before",
    ("state.py", "__post_init__", 2): "an unknown first rule: read and refused before",
    ("state.py", "__post_init__", 3): "a threshold under 1: read and refused before",
}
"""Refusal sites no request of the suite can reach, with what pre-empts them: a reader or an
earlier check, or a feature the runner never asks of an engine that does not claim it."""


def _site_lines() -> dict[tuple[str, int], Site]:
    """(file name, line of the refusal's call) -> its site, for every refusal site."""
    lines: dict[tuple[str, int], Site] = {}
    for module in SITE_MODULES:
        path = Path(str(module.__file__))
        for function in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(function, ast.FunctionDef):
                continue
            calls = sorted(
                node.exc.lineno
                for node in ast.walk(function)
                if isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and isinstance(node.exc.func, ast.Name)
                and node.exc.func.id in REFUSALS
            )
            for number, line in enumerate(calls, start=1):
                lines[(path.name, line)] = (path.name, function.name, number)
    return lines


def refusal_sites() -> set[Site]:
    """Every `raise` of a refusal in SITE_MODULES."""
    return set(_site_lines().values())


@contextmanager
def recording() -> Iterator[set[Site]]:
    """Within the block, every refusal constructed in SITE_MODULES adds its site to the set."""
    sites = _site_lines()
    paths = [Path(str(module.__file__)) for module in SITE_MODULES]
    files = {path.resolve(): path.name for path in paths}
    reached: set[Site] = set()
    classes: list[Any] = [IllegalAction, NotationError, adapter.BadRequest, adapter.Unsupported]
    originals = [vars(cls).get("__init__") for cls in classes]

    # a whole suite constructs some 80,000 refusals: each code object's file is resolved once
    # and each call's line read once (a code object and its offset name one call for good)
    names: dict[str, str | None] = {}
    lines: dict[tuple[CodeType, int], int] = {}

    def name_of(filename: str) -> str | None:
        if filename not in names:
            names[filename] = files.get(Path(filename).resolve())
        return names[filename]

    def wrap(original: Any) -> Any:
        def init(self: Any, *args: Any, **kwargs: Any) -> None:
            frame: FrameType | None = sys._getframe(1)
            name = None if frame is None else name_of(frame.f_code.co_filename)
            if frame is not None and name is not None:
                where = (frame.f_code, frame.f_lasti)
                if where not in lines:
                    lines[where] = _call_line(frame)
                site = sites.get((name, lines[where]))
                if site is not None:
                    reached.add(site)
            original(self, *args, **kwargs)

        return init

    for cls in classes:
        cls.__init__ = wrap(cls.__init__)
    try:
        yield reached
    finally:
        for cls, original in zip(classes, originals, strict=True):
            if original is None:
                del cls.__init__
            else:
                cls.__init__ = original


def _call_line(frame: FrameType) -> int:
    """The first line of the call being made in `frame` (a call spread over lines)."""
    positions = list(frame.f_code.co_positions())
    index = frame.f_lasti // 2
    line = positions[index][0] if 0 <= index < len(positions) else None
    if line is not None:
        return line
    return frame.f_lineno or 0


class DirectReference:
    """The reference behind the protocol adapter, called directly (no thread, no JSON, no
    deadline): the cheapest engine to run a whole suite on, for an engine that cannot hang.
    `make` gives another game API built like the reference, or a protocol adapter, at each
    start (a planted fault, an own-deal adapter)."""

    label = "dekal-ref (direct)"

    def __init__(self, make: Callable[[], Any] | None = None) -> None:
        self.make = make
        if make is None:
            import dekal_ref

            made: Any = dekal_ref
        else:
            made = make()
        self.adapter = made if hasattr(made, "handle") else adapter.ProtocolAdapter(made)
        self.info: dict[str, Any] = self.adapter.handle({"id": 0, "cmd": "hello", "protocol": 1})
        self.next_id = 0

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.next_id += 1
        return self.adapter.handle({"id": self.next_id, **message})

    def restart(self) -> None:
        self.__init__(self.make)  # type: ignore[misc]

    def close(self) -> None:
        pass


def reached_sites(cases: list[dict[str, Any]], engine: DirectReference | None = None) -> set[Site]:
    """The refusal sites a run of `cases` on the reference reaches (`engine`: the reference
    driven so, e.g. one that also reads the situations it plays: judge._situations)."""
    from dekal.conformance.judge._runner import run_suite

    with recording() as reached:
        run = run_suite(engine or DirectReference(), cases)
    failed = [o.id for o in run.outcomes if o.status not in ("pass", "skip")]
    if failed:
        raise AssertionError(f"the reference does not pass its own suite: {failed[:5]}")
    return reached


def unreached(cases: list[dict[str, Any]], engine: DirectReference | None = None) -> list[Site]:
    """The refusal sites that neither the cases reach nor UNREACHABLE explains."""
    return sorted(refusal_sites() - reached_sites(cases, engine) - set(UNREACHABLE))
