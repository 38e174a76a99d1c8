"""Reading the case sources of spec/conformance/sources/ into the shapes of
dekal.conformance.cases._source_types.

A source file holds one JSON object a line; each line is one shape, told by its fields
(a line whose fields fit no shape, or two, is refused). Every field is checked against the
type hints of its shape, so the dataclasses are the one statement of what a line may hold.
A line that does not read raises SourceDataError, whose message starts with `FILE:LINE:`.
The files are read from the installed package `dekal.spec`, so the generator finds them in
a wheel as in a checkout.
"""

from __future__ import annotations

import dataclasses
import json
import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from dekal.conformance.cases._source_types import (
    Arranged,
    Broken,
    Deal,
    Explicit,
    FromPosition,
    Game,
    Mirrored,
    Perft,
    Seeded,
    Twins,
)

# Twins: the same check written again under the other first-player rule.
#
# A source line `{"id": NEW, "chosen_twin_of": OLD}` (or `lowest_twin_of`) stands for the case
# OLD again under that rule, titled "… (chosen first player: as OLD)"; the line's other fields
# replace the twin's (a lowest twin arranges its deal so that the seat that started under
# `chosen` reveals the lowest card). TWIN_OF pairs the two, and `"twin": OTHER` pairs a case
# written out in full with its twin: the coverage test counts a check as run when either
# twin runs (dekal.conformance.judge._coverage). Perft twins are not paired: perft is an optional
# feature, never a core check.

TWIN_OF: dict[str, str] = {}
"""Case ID -> the ID of the case that makes the same check under the other first-player rule
(the test of coverage counts a check as run when either runs)."""


def twins(*pairs: tuple[str, str]) -> None:
    """Pair each (one, other) both ways in TWIN_OF."""
    for one, other in pairs:
        TWIN_OF[one], TWIN_OF[other] = other, one


def chosen_twin(source: Game | FromPosition | Perft, case_id: str) -> Game | FromPosition | Perft:
    """`source` again under the `chosen` rule, seat 0 first: its check does not depend on it.
    A game twin is asked at level must (the twins of B1-neg-0001/0002 are, as those are in
    suite v2)."""
    if isinstance(source, Perft):
        game = replace(source.game, first="chosen", first_player=0)
        title = f"{source.title} (chosen first player: as {source.id})"
        return replace(source, id=case_id, title=title, game=game)
    twins((source.id, case_id))
    if isinstance(source, FromPosition):
        reach = replace(source.reach, first="chosen", first_player=0)
        title = f"{source.title} (chosen first player)"
        return replace(source, id=case_id, title=title, reach=reach)
    title = f"{source.title} (chosen first player: as {source.id})"
    return replace(source, id=case_id, title=title, first="chosen", first_player=0, level="must")


def lowest_twin(source: Game, case_id: str) -> Game:
    """The chosen game `source` again under the lowest-card rule."""
    twins((source.id, case_id))
    title = f"{source.title} (lowest-card rule: as {source.id})"
    return replace(source, id=case_id, title=title, first="lowest", first_player=None)


T = TypeVar("T")


class SourceDataError(ValueError):
    """A line of a case source that does not read; the message names the file and line."""


@dataclass(frozen=True)
class Line:
    """One line of a source file: where it stands (`FILE:LINE`) and its fields."""

    where: str
    fields: dict[str, Any]


def source_root() -> Traversable:
    """spec/conformance/sources/ of the installed package."""
    return resources.files("dekal.spec").joinpath("conformance", "sources")


def lines(name: str, root: Traversable | None = None) -> Iterator[Line]:
    """Every line of the source file `name` (e.g. "v1/games.jsonl"), as a JSON object."""
    path = (root or source_root()).joinpath(*name.split("/"))
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceDataError(f"{path}: cannot read the case source: {error}") from None
    for number, raw in enumerate(text.splitlines(), start=1):
        where = f"{path}:{number}"
        try:
            fields = json.loads(raw)
        except json.JSONDecodeError as error:
            told = f"{error.msg} (column {error.colno})"
            raise SourceDataError(f"{where}: not JSON: {told}") from None
        if not isinstance(fields, dict):
            raise SourceDataError(f"{where}: a line is one JSON object, not {raw[:40]!r}")
        yield Line(where, fields)


def read(
    name: str,
    *shapes: type[Any],
    earlier: list[Any] | None = None,
    root: Traversable | None = None,
) -> list[Any]:
    """Every line of the source file `name` as one of `shapes`, in order.

    A line may write a case as the twin of an earlier one (`chosen_twin_of`, `lowest_twin_of`:
    dekal.conformance.cases._source_files), among `earlier` or above it in the file, and pair it
    with its twin (`twin`)."""
    known = {item.id: item for item in earlier or [] if hasattr(item, "id")}
    listed: list[Any] = []
    for line in lines(name, root):
        fields = dict(line.fields)
        twin = fields.pop("twin", None)
        start = None
        for key, derive in (("chosen_twin_of", chosen_twin), ("lowest_twin_of", lowest_twin)):
            if key in fields:
                source = known.get(fields.pop(key))
                case_id = fields.get("id")
                if source is None or not isinstance(case_id, str):
                    raise SourceDataError(
                        f"{line.where}: {key} names no case above (or in an earlier file), "
                        "or the line has no id"
                    )
                if derive is lowest_twin and not isinstance(source, Game):
                    raise SourceDataError(f"{line.where}: {key}: only a game has a lowest twin")
                start = derive(source, case_id)
        shape = type(start) if start is not None else shape_of(Line(line.where, fields), shapes)
        if shape not in shapes:
            raise SourceDataError(
                f"{line.where}: the twin of a {shape.__name__}, not of a case here"
            )
        item = build(shape, fields, line.where, start)
        if twin is not None:
            if not isinstance(twin, str) or not hasattr(item, "id"):
                raise SourceDataError(f"{line.where}: twin: expected the ID of a case")
            twins((item.id, twin))
        if hasattr(item, "id"):
            known[item.id] = item
        listed.append(item)
    return listed


def shape_of(line: Line, shapes: tuple[type[Any], ...]) -> type[Any]:
    """The one shape among `shapes` whose fields the line's fit (all required ones, no other);
    where none fits, the nearest (most fields in common), for `build` to name what is wrong."""
    keys = set(line.fields)
    fits = [shape for shape in shapes if _required(shape) <= keys <= _names(shape)]
    if len(fits) > 1:
        told = "; ".join(_described(shape) for shape in fits)
        raise SourceDataError(f"{line.where}: the fields {sorted(keys)} fit several shapes: {told}")
    if fits:
        return fits[0]
    return max(shapes, key=lambda shape: len(keys & _names(shape)) - len(keys - _names(shape)))


def build(shape: type[T], fields: Mapping[str, Any], where: str, start: T | None = None) -> T:
    """An instance of `shape` from JSON `fields`, each checked against its type hint; with
    `start`, the fields given replace those of `start` and none is required."""
    hints = _hints(shape)
    unknown = sorted(set(fields) - _names(shape))
    if unknown:
        raise SourceDataError(f"{where}: unknown field {unknown[0]!r} ({_described(shape)})")
    missing = [] if start is not None else sorted(_required(shape) - set(fields))
    if missing:
        raise SourceDataError(f"{where}: missing field {missing[0]!r} ({_described(shape)})")
    values = {name: convert(item, hints[name], f"{where}: {name}") for name, item in fields.items()}
    if start is not None:
        return dataclasses.replace(start, **values)  # type: ignore[type-var]
    return shape(**values)


def convert(value: Any, hint: Any, where: str) -> Any:
    """`value` read from JSON as the type `hint` says (lists become tuples, an object a tuple
    of pairs where pairs are expected), or a SourceDataError naming `where`."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is object:
        return value
    if hint == Deal:
        return read_deal(value, where)
    if hint is Game:
        _expect(isinstance(value, dict), value, "an object (a game)", where)
        return build(Game, value, where, start=Game("", "", ()))
    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        for arg in (arg for arg in args if arg is not type(None)):
            try:
                return convert(value, arg, where)
            except SourceDataError:
                continue
        raise SourceDataError(f"{where}: expected {_hint_name(hint)}, got {json.dumps(value)}")
    if hint in (int, str, bool):
        exact = isinstance(value, hint) and (hint is bool or not isinstance(value, bool))
        _expect(exact, value, hint.__name__, where)
        return value
    if origin is dict:
        _expect(isinstance(value, dict), value, "an object", where)
        return {str(k): convert(v, args[1], f"{where}.{k}") for k, v in value.items()}
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = args[0]
        if isinstance(value, dict) and get_origin(item) is tuple and get_args(item)[0] is str:
            # pairs (name, value) are written as an object, in order
            inner = get_args(item)[1]
            return tuple((k, convert(v, inner, f"{where}.{k}")) for k, v in value.items())
        _expect(isinstance(value, list), value, "a list", where)
        return tuple(convert(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is tuple:
        fits = isinstance(value, list) and len(value) == len(args)
        _expect(fits, value, _hint_name(hint), where)
        pairs = enumerate(zip(value, args, strict=True))
        return tuple(convert(v, arg, f"{where}[{i}]") for i, (v, arg) in pairs)
    raise TypeError(f"no reader for the type {hint!r}")  # a shape this module cannot read


# -- deals ------------------------------------------------------------------------------------
DEAL_FORMS: dict[str, tuple[type[Any], dict[str, str]]] = {
    "seeded": (Seeded, {"seeded": "seed", "players": "players"}),
    "broken": (Broken, {"seeded": "seed", "broken": "how"}),
    "arranged": (Arranged, {"arranged": "cells", "pile": "pile", "seed": "seed"}),
    "mirrored": (Mirrored, {"mirrored": "seed"}),
    "twins": (Twins, {"twins": "seats", "seed": "seed"}),
    "explicit": (Explicit, {"explicit": "grids", "pile": "pile"}),
}
"""A deal is written as an object named by its form: {"seeded": 1}, {"seeded": 1, "players":
3}, {"seeded": 577, "broken": "extra-1"}, {"arranged": {"0:a1": "5"}, "pile": "52", "seed":
2}, {"mirrored": 1}, {"twins": [0, 1], "seed": 5}, {"explicit": [GRID, ...], "pile": "6"}."""


def read_deal(value: Any, where: str) -> Deal:
    """The source deal a JSON object stands for (DEAL_FORMS)."""
    _expect(isinstance(value, dict), value, "a deal object", where)
    form = "broken" if "broken" in value else next((k for k in DEAL_FORMS if k in value), None)
    if form is None:
        raise SourceDataError(
            f"{where}: a deal names its form, one of {', '.join(DEAL_FORMS)}: {json.dumps(value)}"
        )
    shape, renamed = DEAL_FORMS[form]
    fields = {renamed.get(key, key): item for key, item in value.items()}
    deal: Deal = build(shape, fields, f"{where} ({form} deal)")
    return deal


# -- helpers ------------------------------------------------------------------------------------
def _expect(ok: bool, value: Any, wanted: str, where: str) -> None:
    if not ok:
        raise SourceDataError(f"{where}: expected {wanted}, got {json.dumps(value)}")


@dataclass(frozen=True)
class _Fields:
    """What a shape's lines may hold, worked out once per shape."""

    hints: dict[str, Any]
    names: frozenset[str]
    required: frozenset[str]


_FIELDS: dict[type[Any], _Fields] = {}


def _fields(shape: type[Any]) -> _Fields:
    if shape not in _FIELDS:
        listed = dataclasses.fields(shape)
        _FIELDS[shape] = _Fields(
            get_type_hints(shape),
            frozenset(field.name for field in listed),
            frozenset(
                field.name
                for field in listed
                if field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING
            ),
        )
    return _FIELDS[shape]


def _hints(shape: type[Any]) -> dict[str, Any]:
    return _fields(shape).hints


def _names(shape: type[Any]) -> frozenset[str]:
    return _fields(shape).names


def _required(shape: type[Any]) -> frozenset[str]:
    return _fields(shape).required


def _described(shape: type[Any]) -> str:
    """`Name(required, [optional, ...])`, to tell what a line of that shape holds."""
    required = [f.name for f in dataclasses.fields(shape) if f.name in _required(shape)]
    optional = [f.name for f in dataclasses.fields(shape) if f.name not in _required(shape)]
    listed = ", ".join(required + ([f"[{', '.join(optional)}]"] if optional else []))
    return f"{shape.__name__}({listed})"


def _hint_name(hint: Any) -> str:
    return str(hint).replace("typing.", "").replace("dekal.conformance.cases._source_types.", "")
