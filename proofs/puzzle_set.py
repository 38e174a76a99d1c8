"""The bundled rated puzzles (spec/puzzles/puzzles.jsonl): one entry, its JSON, the loader.

A *rated puzzle* is a `Puzzle` (proofs.puzzle: grid, face-down cells, incoming cards or solo,
slide or eject) whose best first move is unique: it is the only first move after which the
lowest score (S2) can still be reached; every other first move ends at least `gap` points
higher, whatever is played after it. Each entry carries its answer and the evidence:

* `ranking`: every legal first move (T1, P1/P2) with the optimum still reachable after it
  (points, cards left) and `ahead`, the lowest points reachable looking 1, 2, …, turns − 1
  steps ahead — what the rating is computed from (proofs.puzzle_rating);
* `best`, `line` (one optimal sequence from the best first move), `optimum`, `second`;
* `rating` and `proved_by`: the methods that each proved the optimum after every first
  move (an exhaustive search, a Z3 refutation) and agreed.

`load_puzzles()` reads the set shipped in the wheel (`dekal.spec`), checks every line against
spec/schemas/puzzle.schema.json and then against itself (the best first move heads the
ranking, the line replays on the reference engine to the optimum, the rating is the one the
ranking gives); a bad entry is a `PuzzleSetError` naming the line and field. The independent
proof of every answer is tests/solver/test_puzzle_set.py (brute force on dekal_ref).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from dekal.proofs._puzzle_rating import Rating, rate
from dekal.proofs._replay import replay
from dekal.proofs.puzzle import (
    Move,
    Puzzle,
    PuzzleError,
    make_puzzle,
    parse_cards,
    parse_cells,
)
from dekal_ref.errors import DekalError, NotationError
from dekal_ref.json_reading import read_json
from dekal_ref.notation import (
    cell_name,
    format_grid,
    parse_cell,
    parse_grid,
    parse_push,
    value_symbol,
)
from dekal_ref.push import legal_pushes

SET_FILE = "puzzles.jsonl"
SCHEMA_FILE = "puzzle.schema.json"


class PuzzleSetError(DekalError):
    """A bundled puzzle entry that does not hold together. `field` names the part."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def parse_move(text: str, field: str = "move") -> Move:
    """`d1:B` -> Move(d1, B); `b4:R3` (eject: the side and the line). NotationError(field)."""
    cell, colon, push = text.strip().partition(":")
    if not colon:
        raise NotationError(
            field, f"{text!r} is not a move: write the cell to reveal and the push, like d1:B"
        )
    try:
        return Move(parse_cell(cell.strip()), parse_push(push))
    except NotationError as error:
        raise NotationError(field, f"{text!r}: {error.message}") from None


@dataclass(frozen=True)
class Ranked:
    """A first move, the optimum still reachable after it, and the look-ahead points."""

    move: Move
    points: int
    remaining: int
    ahead: tuple[int, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "move": str(self.move),
            "score": self.points,
            "remaining": self.remaining,
            "ahead": list(self.ahead),
        }


@dataclass(frozen=True)
class RatedPuzzle:
    """One bundled puzzle with its answer, the ranking of every first move, and its rating."""

    number: int
    puzzle: Puzzle
    ranking: tuple[Ranked, ...]
    line: tuple[Move, ...]
    rating: Rating
    proved_by: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"puzzle-{self.number:03d}"

    @property
    def best(self) -> Ranked:
        return self.ranking[0]

    @property
    def second(self) -> Ranked:
        return self.ranking[1]

    def after(self, move: Move) -> Ranked | None:
        """The ranking entry of a first move (None when it is not a legal first move)."""
        return next((entry for entry in self.ranking if entry.move == move), None)

    def as_json(self) -> dict[str, Any]:
        puzzle = self.puzzle
        payload: dict[str, Any] = {
            "id": self.id,
            "number": self.number,
            "grid": format_grid(puzzle.grid),
            "face_down": ",".join(cell_name(cell) for cell in sorted(puzzle.face_down)),
            "solo": puzzle.solo,
        }
        if puzzle.incoming is not None:
            payload["incoming"] = ",".join(value_symbol(card) for card in puzzle.incoming)
        payload |= {
            "turns": puzzle.turns,
            "variant": puzzle.variant,
            "best": str(self.best.move),
            "line": [str(move) for move in self.line],
            "optimum": {"score": self.best.points, "remaining": self.best.remaining},
            "second": {
                "move": str(self.second.move),
                "score": self.second.points,
                "remaining": self.second.remaining,
            },
            "rating": self.rating.as_json(),
            "proved_by": list(self.proved_by),
            "ranking": [entry.as_json() for entry in self.ranking],
        }
        return payload


def first_moves(puzzle: Puzzle) -> list[Move]:
    """Every legal first move, read off the reference engine: a face-down cell and a push."""
    return [
        Move(cell, push)
        for cell in sorted(puzzle.face_down)
        for push in legal_pushes(cell, puzzle.variant)
    ]


def ranking_order(entry: Ranked) -> tuple[int, int, Move]:
    """Best first: fewest points, then fewest cards (S3), then the move, so the order is one."""
    return (entry.points, entry.remaining, entry.move)


def rating_of(ranking: Sequence[Ranked], turns: int) -> Rating:
    """The rating the ranking gives (proofs.puzzle_rating.rate)."""
    optimum = {str(entry.move): entry.points for entry in ranking}
    ahead = {str(entry.move): entry.ahead for entry in ranking}
    return rate(optimum, ahead, turns)


def puzzle_of(entry: dict[str, Any]) -> Puzzle:
    """The Puzzle an entry states (grid, face-down cells, incoming cards or solo, variant)."""
    cards = entry.get("incoming")
    return make_puzzle(
        parse_grid(entry["grid"], allow_hole=False),
        incoming=None if cards is None else parse_cards(cards),
        face_down=parse_cells(entry["face_down"]),
        turns=entry["turns"],
        variant=entry["variant"],
    )


def rated_puzzle(entry: dict[str, Any]) -> RatedPuzzle:
    """An entry already checked against the schema, read and checked against itself."""
    try:
        puzzle = puzzle_of(entry)
    except (PuzzleError, NotationError) as error:
        raise PuzzleSetError(getattr(error, "field", "puzzle"), str(error)) from None
    if ("incoming" not in entry) != entry["solo"]:
        raise PuzzleSetError("solo", "a solo puzzle has no incoming cards, any other has them")
    ranking = tuple(
        Ranked(
            parse_move(item["move"], "ranking"),
            item["score"],
            item["remaining"],
            tuple(item["ahead"]),
        )
        for item in entry["ranking"]
    )
    if sorted(entry.move for entry in ranking) != sorted(first_moves(puzzle)):
        raise PuzzleSetError("ranking", "the ranking must list every legal first move, once")
    if list(ranking) != sorted(ranking, key=ranking_order):
        raise PuzzleSetError("ranking", "the ranking must be best first (points, cards, move)")
    if any(len(item.ahead) != puzzle.turns - 1 for item in ranking):
        raise PuzzleSetError("ranking", f"ahead lists the points 1..{puzzle.turns - 1} steps ahead")
    line = tuple(parse_move(text, "line") for text in entry["line"])
    rated = RatedPuzzle(
        number=entry["number"],
        puzzle=puzzle,
        ranking=ranking,
        line=line,
        rating=_rating(ranking, puzzle.turns),
        proved_by=tuple(entry["proved_by"]),
    )
    _check_claims(rated, entry)
    return rated


def _rating(ranking: Sequence[Ranked], turns: int) -> Rating:
    try:
        return rating_of(ranking, turns)
    except ValueError as error:
        raise PuzzleSetError("ranking", str(error)) from None


def _check_claims(rated: RatedPuzzle, entry: dict[str, Any]) -> None:
    """The entry's summary fields say what its ranking says, and its line replays."""
    best, second = rated.best, rated.second
    claims = {
        "id": rated.id,
        "best": str(best.move),
        "optimum": {"score": best.points, "remaining": best.remaining},
        "second": {"move": str(second.move), "score": second.points, "remaining": second.remaining},
        "rating": rated.rating.as_json(),
    }
    for field, value in claims.items():
        if entry[field] != value:
            raise PuzzleSetError(field, f"{entry[field]!r} but the ranking gives {value!r}")
    if not rated.line or rated.line[0] != best.move:
        raise PuzzleSetError("line", f"the best line must start with the best move {best.move}")
    try:
        outcome = replay(rated.puzzle, rated.line)
    except DekalError as error:
        raise PuzzleSetError("line", f"does not replay on the reference engine: {error}") from None
    if (outcome.points, outcome.remaining) != (best.points, best.remaining):
        raise PuzzleSetError(
            "line",
            f"replays to {outcome.points} points, {outcome.remaining} cards, not the optimum",
        )


@cache
def schema() -> Any:
    """spec/schemas/puzzle.schema.json, as shipped in the wheel."""
    text = resources.files("dekal.spec").joinpath("schemas", SCHEMA_FILE).read_text("utf-8")
    return json.loads(text)


def inlined(node: Any, definitions: dict[str, Any]) -> Any:
    """The schema with every local `$ref` replaced by its definition: the same constraints,
    checked twice as fast (jsonschema looks each reference up in its registry on every use,
    and a set of 120 puzzles uses them some ten thousand times)."""
    if isinstance(node, list):
        return [inlined(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return inlined(definitions[node["$ref"].removeprefix("#/$defs/")], definitions)
    return {key: inlined(value, definitions) for key, value in node.items() if key != "$defs"}


def read_puzzles(text: str, where: str = SET_FILE) -> list[RatedPuzzle]:
    """Every entry of a JSON-lines text, schema-checked then self-checked, numbered 1, 2, …"""
    import jsonschema  # type: ignore[import-untyped, unused-ignore]

    validator = jsonschema.Draft202012Validator(inlined(schema(), schema()["$defs"]))
    puzzles: list[RatedPuzzle] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        entry = read_json(line, f"{where}:{number}")
        problem = next(iter(validator.iter_errors(entry)), None)
        if problem is not None:
            field = ".".join(str(part) for part in problem.absolute_path) or "entry"
            raise PuzzleSetError(field, f"{where}:{number}: {problem.message}")
        try:
            rated = rated_puzzle(entry)
        except PuzzleSetError as error:
            raise PuzzleSetError(error.field, f"{where}:{number}: {error.message}") from None
        if rated.number != len(puzzles) + 1:
            raise PuzzleSetError(
                "number", f"{where}:{number}: {rated.number}, expected {len(puzzles) + 1}"
            )
        puzzles.append(rated)
    return puzzles


@cache
def load_puzzles() -> tuple[RatedPuzzle, ...]:
    """The bundled set, as shipped in the wheel, every entry checked."""
    text = resources.files("dekal.spec").joinpath("puzzles", SET_FILE).read_text("utf-8")
    return tuple(read_puzzles(text))
