"""Drawing rated puzzles: seeded candidates, kept only when one first move is provably best.

A candidate is drawn from a `Recipe` (variant, steps, how many face-down cells, how many
distinct values) by a seeded `random.Random`, then `analyse` decides it:

1. `search.rank` gives every legal first move its optimum, each proved by exhaustion (a
   first move whose search ran out of time discards the candidate: a timeout is no proof);
2. the candidate is kept only if one first move's optimum is strictly fewer points than
   every other's (`gap` ≥ 1);
3. the same ranking is asked of Z3 (`z3_solve.rank`: each optimum proved by refuting a
   better one); a Z3 optimum that differs from the search's is a solver bug (`Disagreement`),
   an unproved one discards the candidate;
4. the look-ahead points (the puzzle cut to 1, 2, … steps, ranked by the search) and the
   rating (proofs.puzzle_rating).

So every kept puzzle's answer is proved twice, by two independent methods, before it is
written; tests/solver/test_puzzle_set.py proves it a third time on the reference engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from dekal.proofs import search, z3_solve
from dekal.proofs._answer import RankedMove
from dekal.proofs._puzzle_rating import LEVELS
from dekal.proofs.puzzle import Move, Puzzle, make_puzzle
from dekal.proofs.puzzle_set import Ranked, RatedPuzzle, ranking_order, rating_of

TIMEOUT = 60.0
"""Seconds each method gets to rank one candidate (small puzzles take milliseconds)."""


class Disagreement(AssertionError):
    """The search and Z3 proved different optima after the same first move: a solver bug."""


@dataclass(frozen=True)
class Recipe:
    """How to draw one kind of puzzle, and how many of it the set holds."""

    name: str
    count: int
    turns: int
    face_down: tuple[int, int]  # the least and most face-down cells
    variant: str = "slide"
    solo: bool = False
    values: tuple[int, int] = (4, 6)  # the least and most distinct values in the grid

    def draw(self, rng: random.Random) -> Puzzle:
        """One candidate: a grid over a few distinct values (so equal cards meet often, S1),
        some face-down cells, and the incoming cards drawn from the same values."""
        alphabet = rng.sample(range(1, 11), rng.randint(*self.values))
        grid = tuple(rng.choice(alphabet) for _ in range(16))
        down = frozenset(rng.sample(range(16), rng.randint(*self.face_down)))
        cards = None if self.solo else tuple(rng.choice(alphabet) for _ in range(self.turns))
        return make_puzzle(
            grid, incoming=cards, face_down=down, turns=self.turns, variant=self.variant
        )


RECIPES = (
    Recipe("slide, 2 cards", 40, turns=2, face_down=(4, 5)),
    Recipe("slide, 3 cards", 40, turns=3, face_down=(4, 6)),
    Recipe("eject, 2 cards", 20, turns=2, face_down=(3, 4), variant="eject"),
    Recipe("solo, 3 turns", 20, turns=3, face_down=(3, 5), solo=True),
)
"""The bundled set: why these kinds is said in docs/puzzles.md (Rated puzzles)."""


def cut(puzzle: Puzzle, steps: int) -> Puzzle:
    """The puzzle played for its first `steps` steps only: looking that far ahead."""
    cards = None if puzzle.incoming is None else puzzle.incoming[:steps]
    return make_puzzle(
        puzzle.grid, incoming=cards, face_down=puzzle.face_down, turns=steps, variant=puzzle.variant
    )


def _proved(ranking: list[RankedMove]) -> bool:
    return all(entry.answer.proved_optimal for entry in ranking)


def analyse(puzzle: Puzzle, number: int = 1, timeout: float = TIMEOUT) -> RatedPuzzle | None:
    """The rated puzzle, proved by the search, or None when no first move is provably the
    unique best (steps 1, 2 and 4 of the module docstring)."""
    ranked = search.rank(puzzle, timeout=timeout)
    if not _proved(ranked) or ranked[0].points == ranked[1].points:
        return None
    looks: dict[Move, list[int]] = {entry.move: [] for entry in ranked}
    for steps in range(1, puzzle.turns):
        shallow = search.rank(cut(puzzle, steps), timeout=timeout)
        if not _proved(shallow):
            return None
        for entry in shallow:
            looks[entry.move].append(entry.points)
    ranking = sorted(
        (Ranked(e.move, e.points, e.remaining, tuple(looks[e.move])) for e in ranked),
        key=ranking_order,
    )
    return RatedPuzzle(
        number=number,
        puzzle=puzzle,
        ranking=tuple(ranking),
        line=ranked[0].answer.moves,
        rating=rating_of(ranking, puzzle.turns),
        proved_by=(search.METHOD,),
    )


def confirm(rated: RatedPuzzle, timeout: float = TIMEOUT) -> RatedPuzzle | None:
    """The same puzzle with Z3's proof added (step 3), or None when Z3 ran out of time."""
    checked = z3_solve.rank(rated.puzzle, timeout=timeout)
    if not _proved(checked):
        return None
    by_search = {entry.move: (entry.points, entry.remaining) for entry in rated.ranking}
    by_z3 = {entry.move: (entry.points, entry.remaining) for entry in checked}
    if by_search != by_z3:
        raise Disagreement(f"{rated.puzzle.describe()}: search {by_search} but z3 {by_z3}")
    return replace(rated, proved_by=(*rated.proved_by, z3_solve.METHOD))


def generate(
    recipe: Recipe,
    seed: int,
    *,
    first_number: int = 1,
    patience: int = 60,
    tried: Callable[[int, int], None] = lambda drawn, kept: None,
) -> Iterator[RatedPuzzle]:
    """`recipe.count` rated puzzles drawn from `seed`, numbered from `first_number`.

    The levels are balanced: a level takes at most its share (count / levels, rounded up)
    until `patience` × count candidates have been drawn; after that any level is taken, so
    a recipe whose hardest level is rare still ends. `tried(drawn, kept)` after each draw."""
    rng = random.Random(f"dekal-puzzles-{seed}-{recipe.name}")
    share = -(-recipe.count // len(LEVELS))
    taken = dict.fromkeys(LEVELS, 0)
    seen: set[str] = set()
    drawn = kept = 0
    while kept < recipe.count:
        puzzle = recipe.draw(rng)
        drawn += 1
        if puzzle.describe() in seen:
            continue
        seen.add(puzzle.describe())
        tried(drawn, kept)
        rated = analyse(puzzle, number=first_number + kept)
        if rated is None:
            continue
        level = rated.rating.level
        if taken[level] >= share and drawn < patience * recipe.count:
            continue
        rated = confirm(rated)
        if rated is None:
            continue
        taken[level] += 1
        kept += 1
        yield rated
