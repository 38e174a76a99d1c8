"""The bundled rated puzzles (spec/puzzles/puzzles.jsonl): every answer proved again, here,
by a path that shares nothing with the generator.

The generator (proofs.puzzle_make) ranks first moves with the exhaustive search on the
optimized engine's bit grids and with Z3. This file ranks them with a literal brute force on
the reference engine: every legal push (`dekal_ref.push.legal_pushes`), applied by
`dekal_ref.push.push_card`, scored by `dekal_ref.scoring.score_grid`, the optimum of each
first move by exhaustive depth-first search with a memo. It reads the raw JSON lines, not
the loader's objects, for what it checks.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal.proofs import puzzle_set
from dekal.proofs._puzzle_make import RECIPES, Recipe, analyse, cut, generate
from dekal.proofs._puzzle_rating import LEVELS, rate
from dekal.proofs.puzzle import make_puzzle, parse_cells
from dekal.proofs.puzzle_set import PuzzleSetError, load_puzzles, read_puzzles
from dekal_ref.notation import (
    HOLE,
    Grid,
    cell_name,
    parse_cell,
    parse_grid,
    parse_push,
    parse_value,
)
from dekal_ref.push import apply_chain, legal_pushes, push_card, push_chain
from dekal_ref.scoring import score_grid

RAW = resources.files("dekal.spec").joinpath("puzzles", "puzzles.jsonl").read_text("utf-8")
ENTRIES: list[dict[str, Any]] = [json.loads(line) for line in RAW.splitlines() if line.strip()]
SCHEMA = json.loads(
    resources.files("dekal.spec").joinpath("schemas", "puzzle.schema.json").read_text("utf-8")
)

Step = tuple[int, str]  # the revealed cell, the push as written


class BruteForce:
    """One puzzle of the set, played out completely on the reference engine."""

    def __init__(self, entry: dict[str, Any]) -> None:
        self.variant: str = entry["variant"]
        self.turns: int = entry["turns"]
        cards = entry.get("incoming")
        self.cards = None if cards is None else [parse_value(c) for c in cards.split(",")]
        self.grid = parse_grid(entry["grid"], allow_hole=False)
        self.down = frozenset(parse_cell(name) for name in entry["face_down"].split(","))
        self.memo: dict[tuple[int, int, Grid, frozenset[int]], tuple[int, int]] = {}
        # many leaves share a grid (only their face-down cells differ): each scored once
        self.scores: dict[Grid, tuple[int, int]] = {}

    def steps(self, down: frozenset[int]) -> list[Step]:
        return [
            (cell, str(push)) for cell in sorted(down) for push in legal_pushes(cell, self.variant)
        ]

    def play(
        self, depth: int, grid: Grid, down: frozenset[int], step: Step
    ) -> tuple[Grid, frozenset[int]]:
        """T1 then T4: the card of `cell` leaves, the next card enters by the push; faces
        travel with their cards, the new card is face up."""
        cell, written = step
        push = parse_push(written)
        card = grid[cell] if self.cards is None else self.cards[depth]
        holed = grid[:cell] + (HOLE,) + grid[cell + 1 :]
        faces = apply_chain(
            [c in down and c != cell for c in range(16)],
            chain_of(cell, written, self.variant),
            False,
        )
        return push_card(holed, push, card, self.variant), frozenset(
            c for c, d in enumerate(faces) if d
        )

    def best(self, depth: int, until: int, grid: Grid, down: frozenset[int]) -> tuple[int, int]:
        """The lowest (points, cards left) of the grid after step `until`, from step `depth`."""
        if depth == until:
            if grid not in self.scores:
                result = score_grid(grid)
                self.scores[grid] = result.points, result.remaining
            return self.scores[grid]
        key = (depth, until, grid, down)
        if key not in self.memo:
            self.memo[key] = min(
                self.best(depth + 1, until, *self.play(depth, grid, down, step))
                for step in self.steps(down)
            )
        return self.memo[key]

    def after_first(self, step: Step, until: int) -> tuple[int, int]:
        return self.best(1, until, *self.play(0, self.grid, self.down, step))


@cache
def chain_of(cell: int, written: str, variant: str) -> tuple[int, ...]:
    """dekal_ref's chain of a push, asked once per hole and push (it depends on nothing else)."""
    return tuple(push_chain(cell, parse_push(written), variant))


def _move(step: Step) -> str:
    return f"{cell_name(step[0])}:{step[1]}"


@cache
def _verified(number: int) -> dict[str, tuple[tuple[int, int], list[int]]]:
    """Every first move of puzzle `number`: its optimum, and its points 1..turns-1 steps ahead."""
    brute = BruteForce(ENTRIES[number - 1])
    return {
        _move(step): (
            brute.after_first(step, brute.turns),
            [brute.after_first(step, d)[0] for d in range(1, brute.turns)],
        )
        for step in brute.steps(brute.down)
    }


def test_the_set_holds_at_least_100_puzzles_at_every_level() -> None:
    assert len(ENTRIES) >= 100
    assert [entry["number"] for entry in ENTRIES] == list(range(1, len(ENTRIES) + 1))
    assert {entry["rating"]["level"] for entry in ENTRIES} == set(LEVELS)


def test_every_entry_matches_the_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for entry in ENTRIES:
        assert not list(validator.iter_errors(entry)), entry["id"]


def test_the_loader_reads_every_entry_back_as_written() -> None:
    loaded = load_puzzles()
    assert [rated.as_json() for rated in loaded] == ENTRIES


@pytest.mark.parametrize("number", range(1, len(ENTRIES) + 1), ids=lambda n: f"puzzle-{n:03d}")
def test_the_best_first_move_is_unique_by_brute_force_on_the_reference(number: int) -> None:
    """S2/S3 after T1, T4, P1/P2: the claimed best first move is the only one reaching the
    optimum score; every stored optimum and look-ahead is the brute force's."""
    entry = ENTRIES[number - 1]
    verified = _verified(number)
    stored = {item["move"]: item for item in entry["ranking"]}
    assert stored.keys() == verified.keys()  # every legal first move, and no other
    for move, (optimum, ahead) in verified.items():
        assert (stored[move]["score"], stored[move]["remaining"]) == optimum, move
        assert stored[move]["ahead"] == ahead, move
    best = entry["best"]
    assert verified[best][0] == (entry["optimum"]["score"], entry["optimum"]["remaining"])
    others = [optimum for move, (optimum, _) in verified.items() if move != best]
    assert min(points for points, _ in others) == entry["second"]["score"]
    assert all(points > verified[best][0][0] for points, _ in others)


@pytest.mark.parametrize("number", range(1, len(ENTRIES) + 1), ids=lambda n: f"puzzle-{n:03d}")
def test_the_rating_is_the_one_the_brute_force_numbers_give(number: int) -> None:
    entry = ENTRIES[number - 1]
    verified = _verified(number)
    optimum = {move: points for move, ((points, _), _) in verified.items()}
    ahead = {move: looks for move, (_, looks) in verified.items()}
    assert rate(optimum, ahead, entry["turns"]).as_json() == entry["rating"]


def test_the_best_line_replays_on_the_reference_to_the_optimum() -> None:
    for entry in ENTRIES:
        brute = BruteForce(entry)
        grid, down = brute.grid, brute.down
        for depth, text in enumerate(entry["line"]):
            cell, push = text.split(":")
            step = (parse_cell(cell), push)
            assert step[0] in down, (entry["id"], text)
            grid, down = brute.play(depth, grid, down, step)
        result = score_grid(grid)
        assert (result.points, result.remaining) == tuple(entry["optimum"].values()), entry["id"]


def _tampered(change: dict[str, Any]) -> str:
    return json.dumps(ENTRIES[0] | change)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"best": ENTRIES[0]["second"]["move"]}, "best"),
        ({"optimum": {"score": 0, "remaining": 0}}, "optimum"),
        ({"rating": ENTRIES[0]["rating"] | {"level": "expert", "difficulty": 99}}, "rating"),
        ({"grid": "1111/2222"}, "grid"),
        ({"ranking": ENTRIES[0]["ranking"][1:]}, "ranking"),
        ({"line": list(reversed(ENTRIES[0]["line"]))}, "line"),
        ({"number": 2, "id": "puzzle-002"}, "number"),
        ({"proved_by": []}, "proved_by"),
        (
            {"ranking": [ENTRIES[0]["ranking"][0] | {"move": "e9:Q"}, *ENTRIES[0]["ranking"][1:]]},
            "ranking.0.move",
        ),
        ({"second": ENTRIES[0]["second"] | {"score": -1}}, "second.score"),
    ],
)
def test_the_loader_refuses_an_entry_that_does_not_hold_together(
    change: dict[str, Any], field: str
) -> None:
    with pytest.raises(PuzzleSetError) as refused:
        read_puzzles(_tampered(change))
    assert refused.value.field == field


def test_the_loader_checks_the_schema_as_written() -> None:
    """The loader validates against the schema with its references inlined (for speed):
    the same verdicts as the schema file itself, on every entry and on broken ones."""
    validator = jsonschema.Draft202012Validator(SCHEMA)
    inlined = jsonschema.Draft202012Validator(puzzle_set.inlined(SCHEMA, SCHEMA["$defs"]))
    broken = [
        ENTRIES[0] | {"best": "a1"},
        ENTRIES[0] | {"optimum": {"score": 3}},
        ENTRIES[0] | {"ranking": [ENTRIES[0]["ranking"][0] | {"ahead": [-1]}]},
    ]
    for entry in ENTRIES + broken:
        assert validator.is_valid(entry) == inlined.is_valid(entry)
    assert not any(inlined.is_valid(entry) for entry in broken)


def test_a_ranking_in_another_order_is_refused() -> None:
    ranking = ENTRIES[0]["ranking"]
    with pytest.raises(PuzzleSetError, match="best first"):
        read_puzzles(_tampered({"ranking": [ranking[0], *reversed(ranking[1:])]}))


# --- the rating (proofs.puzzle_rating) ------------------------------------------------------


def test_the_horizon_is_the_first_look_ahead_where_the_answer_stands_alone() -> None:
    optimum = {"a": 3, "b": 5, "c": 9}
    ahead = {"a": [8, 4], "b": [6, 4], "c": [9, 9]}  # a is behind after 1 step, tied after 2
    assert rate(optimum, ahead, 3).horizon == 3
    ahead_clear = {"a": [8, 3], "b": [6, 4], "c": [9, 9]}
    assert rate(optimum, ahead_clear, 3).horizon == 2
    assert rate(optimum, {"a": [1, 1], "b": [6, 4], "c": [9, 9]}, 3).horizon == 1


def test_near_misses_are_the_other_moves_within_two_points() -> None:
    rating = rate({"a": 3, "b": 4, "c": 5, "d": 6}, {m: [] for m in "abcd"}, 1)
    assert (rating.gap, rating.close, rating.choices) == (1, 2, 4)
    assert rating.difficulty == 0 + 2 + 1


@pytest.mark.parametrize(
    ("difficulty", "level"),
    [
        (0, "easy"),
        (1, "easy"),
        (2, "medium"),
        (3, "medium"),
        (4, "hard"),
        (5, "hard"),
        (6, "expert"),
        (8, "expert"),
    ],
)
def test_the_levels_are_bands_of_the_difficulty(difficulty: int, level: str) -> None:
    from dekal.proofs._puzzle_rating import level_of

    assert level_of(difficulty) == level


def test_two_first_moves_reaching_the_optimum_is_no_puzzle() -> None:
    with pytest.raises(ValueError, match="no unique answer"):
        rate({"a": 3, "b": 3, "c": 7}, {m: [] for m in "abc"}, 1)


# --- the generator (proofs.puzzle_make) ------------------------------------------------------


def test_a_puzzle_cut_short_keeps_its_first_cards() -> None:
    puzzle = make_puzzle(parse_grid("1112/3131/1435/2435"), incoming=(5, 3, 3))
    assert cut(puzzle, 2).incoming == (5, 3)
    solo = make_puzzle(parse_grid("1112/3131/1435/2435"), face_down=frozenset({0, 5, 9}))
    assert (cut(solo, 1).turns, cut(solo, 1).incoming) == (1, None)


def test_analyse_refuses_a_puzzle_whose_optimum_two_first_moves_reach() -> None:
    # docs/puzzles.md: d1:B, c2:B and c2:R all reach 3 points
    puzzle = make_puzzle(
        parse_grid("1112/3131/1435/2435"), incoming=(5, 3), face_down=parse_cells("a2,c2,d1")
    )
    assert analyse(puzzle) is None


def test_generation_is_reproducible_from_its_seed() -> None:
    recipe = Recipe("test", 2, turns=2, face_down=(3, 4))
    first = [rated.as_json() for rated in generate(recipe, 5)]
    again = [rated.as_json() for rated in generate(recipe, 5)]
    assert first == again and len(first) == 2
    assert all(rated["proved_by"] == ["search", "z3"] for rated in first)


def _recipe_of(entry: dict[str, Any]) -> Recipe:
    (recipe,) = [
        recipe
        for recipe in RECIPES
        if (recipe.variant, recipe.solo, recipe.turns)
        == (entry["variant"], entry["solo"], entry["turns"])
    ]
    return recipe


def test_the_bundled_set_is_what_the_recipes_draw() -> None:
    for recipe in RECIPES:
        mine = [entry for entry in ENTRIES if _recipe_of(entry) is recipe]
        assert len(mine) == recipe.count, recipe.name
        low, high = recipe.face_down
        assert all(low <= len(entry["face_down"].split(",")) <= high for entry in mine)


# --- docs/puzzles.md, Rated puzzles: its tables say what the set holds ----------------------

DOC = (Path(__file__).resolve().parents[2] / "docs" / "puzzles.md").read_text("utf-8")
RATED_SECTION = DOC[DOC.index("## Rated puzzles") :]
KIND_ROW = re.compile(
    r"^\| (slide|eject|solo), (\d) (?:incoming cards|turns) "
    r"\| (\d+) \| (\d+)–(\d+) \| (\d+)–(\d+) \|",
    re.MULTILINE,
)
LEVEL_ROW = re.compile(r"^\| (easy|medium|hard|expert) \| [^|]+ \| (\d+) \|$", re.MULTILINE)


def test_the_docs_table_of_kinds_is_the_set() -> None:
    rows = KIND_ROW.findall(RATED_SECTION)
    assert len(rows) == len(RECIPES)
    for kind, turns, count, low, high, fewest, most in rows:
        mine = [
            entry
            for entry in ENTRIES
            if int(turns) == entry["turns"]
            and (
                entry["solo"] if kind == "solo" else entry["variant"] == kind and not entry["solo"]
            )
        ]
        assert len(mine) == int(count), kind
        down = [len(entry["face_down"].split(",")) for entry in mine]
        choices = [entry["rating"]["choices"] for entry in mine]
        assert (min(down), max(down)) == (int(low), int(high)), kind
        assert (min(choices), max(choices)) == (int(fewest), int(most)), kind


def test_the_docs_table_of_levels_is_the_set() -> None:
    counts = {level: int(count) for level, count in LEVEL_ROW.findall(RATED_SECTION)}
    assert counts == {
        level: sum(entry["rating"]["level"] == level for entry in ENTRIES) for level in LEVELS
    }


# --- properties of the rating ----------------------------------------------------------------


@st.composite
def rankings(draw: st.DrawFn) -> tuple[dict[str, int], dict[str, list[int]], int]:
    """Optima with one strict best, and look-ahead points, for 2..12 first moves."""
    turns = draw(st.integers(1, 4))
    count = draw(st.integers(2, 12))
    best = draw(st.integers(0, 60))
    others = draw(st.lists(st.integers(best + 1, 100), min_size=count - 1, max_size=count - 1))
    names = [f"m{i}" for i in range(count)]
    optimum = dict(zip(names, [best, *others], strict=True))
    looks = st.lists(st.integers(0, 150), min_size=turns - 1, max_size=turns - 1)
    ahead = {name: draw(looks) for name in names}
    return optimum, ahead, turns


@given(rankings(), st.integers(-20, 20))
def test_the_rating_depends_on_differences_only(
    ranking: tuple[dict[str, int], dict[str, list[int]], int], shift: int
) -> None:
    """Shifting every optimum, or every look-ahead at one depth, by the same points (as an
    incoming card of another value shifts every line alike) leaves the rating as it was."""
    optimum, ahead, turns = ranking
    shifted = {move: points + shift for move, points in optimum.items()}
    looked = {move: [points + shift for points in looks] for move, looks in ahead.items()}
    assert rate(shifted, looked, turns) == rate(optimum, ahead, turns)


@given(rankings())
def test_a_hopeless_extra_first_move_only_adds_a_choice(
    ranking: tuple[dict[str, int], dict[str, list[int]], int],
) -> None:
    optimum, ahead, turns = ranking
    before = rate(optimum, ahead, turns)
    worst = max(optimum.values()) + 3
    after = rate(optimum | {"hopeless": worst}, ahead | {"hopeless": [999] * (turns - 1)}, turns)
    assert after == replace(before, choices=before.choices + 1)
    assert 1 <= after.horizon <= turns and after.close < after.choices
