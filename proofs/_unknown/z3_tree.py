"""`guaranteed` (spec/solo-unknown.md, U5) by Z3: the second, independent method, a strategy
tree as variables, raced against the exhaustive search (`proofs._unknown.race`).

The tree holds every state a line of play can reach from the start (a grid word and its
face-down mask; the unseen cards follow from the grid, U3). For a state with `?` cells the
strategy has an integer variable `reveal` (which `?` cell, by index) and, for each value
that can come, an integer variable `push` (which legal push, by index into
`dekal.tables.LEGAL`): U4's strategy, one choice per thing the player sees. A Boolean `ok`
per state says "the strategy keeps every final score from here ≤ B":

    ok(s) ∧ reveal(s) = c  →  for every unseen value v:  OR over pushes p
                                  (push(s, v) = p  ∧  ok(the state after c, v, p))
    ok(final grid)  =  points ≤ B,        ok(start)

Z3 does the minimising and maximising; nothing here compares two scores. The lowest B is
searched from above: each model is a strategy, whose guarantee is read off by walking it
(`_strategy_guarantee`, a certificate independent of Z3); the next check asks for one below
it, until Z3 answers unsat: that is the proof that no strategy guarantees less.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import z3  # type: ignore[import-untyped]

from dekal import bits, tables
from dekal.proofs._unknown.position import VALUES, UnknownPosition
from dekal.proofs._unknown.search import FirstStep, OutOfTime
from dekal.proofs.limits import Deadline, z3_check

METHOD = "z3"
State = tuple[int, int]
"""(grid word with 0 in the face-down cells, face-down mask)."""


@dataclass(frozen=True)
class Z3Guarantee:
    """The lowest guarantee, proved by unsat one below it, and the first step of the
    strategy Z3 found (its `after`: that strategy's guarantee after the push, U5)."""

    guaranteed: int
    first: FirstStep
    checks: int
    states: int


class _Tree:
    """Every reachable state, its unseen counts, and the Z3 variables of the strategy."""

    def __init__(self, position: UnknownPosition, deadline: Deadline) -> None:
        self.legal = tables.LEGAL[position.variant]
        self.start: State = (bits.pack(position.grid), position.face_down_mask)
        self.start_counts = position.unseen
        self.start_faces = _faces(self.start[0])
        self.bound = z3.Int("B")
        self.ok: dict[State, Any] = {}
        self.reveal: dict[State, Any] = {}
        self.push: dict[tuple[State, int], Any] = {}
        self.rules: list[Any] = []
        self.deadline = deadline
        self._build()

    def counts(self, grid: int) -> list[int]:
        """The unseen cards of a state: the start's less the face-up cards it gained (U3)."""
        faces = _faces(grid)
        return [self.start_counts[v - 1] - faces[v - 1] + self.start_faces[v - 1] for v in VALUES]

    def children(self, state: State, cell: int, value: int) -> list[State]:
        grid, down = state
        return [
            (bits.push_grid(grid, step, value), bits.push_face_down(down, step))
            for _, step in self.legal[cell]
        ]

    def _build(self) -> None:
        level = [self.start]
        seen = {self.start}
        while level:
            if self.deadline.expired():
                raise OutOfTime
            deeper: list[State] = []
            for state in level:
                for child in self._encode(state):
                    if child[1] and child not in seen:
                        seen.add(child)
                        deeper.append(child)
            level = deeper
        self.rules.append(self.ok_of(self.start))

    def ok_of(self, state: State) -> Any:
        grid, down = state
        if down == 0:
            return int(bits.score_points(grid)) <= self.bound
        if state not in self.ok:
            name = f"{grid:x}_{down:x}"
            self.ok[state] = z3.Bool(f"ok_{name}")
            self.reveal[state] = z3.Int(f"reveal_{name}")
        return self.ok[state]

    def _encode(self, state: State) -> list[State]:
        """The rules of one state; its children with `?` cells left."""
        grid, down = state
        ok, reveal = self.ok_of(state), self.reveal[state]
        cells = _cells(down)
        self.rules.append(z3.Implies(ok, z3.And(reveal >= 0, reveal < len(cells))))
        counts = self.counts(grid)
        out: list[State] = []
        for index, cell in enumerate(cells):
            per_value = []
            for value in VALUES:
                if counts[value - 1] == 0:
                    continue
                push = self.push.setdefault(
                    (state, value), z3.Int(f"push_{grid:x}_{down:x}_{value}")
                )
                children = self.children(state, cell, value)
                out += children
                per_value.append(
                    z3.Or(
                        [z3.And(push == p, self.ok_of(child)) for p, child in enumerate(children)]
                    )
                )
            self.rules.append(z3.Implies(z3.And(ok, reveal == index), z3.And(per_value)))
        return out


def _faces(grid: int) -> list[int]:
    values = [(grid >> (4 * cell)) & 0xF for cell in range(16)]
    return [values.count(v) for v in VALUES]


def _cells(down: int) -> list[int]:
    return [cell for cell in range(16) if (down >> cell) & 1]


def _strategy_guarantee(tree: _Tree, model: Any, state: State, memo: dict[State, int]) -> int:
    """The worst final points of the model's strategy from `state`: every value that can
    come, the model's reveal and push, down to the final grids (U5 with the choices fixed)."""
    grid, down = state
    if down == 0:
        return int(bits.score_points(grid))
    if state in memo:
        return memo[state]
    cell, counts = _cells(down)[_chosen(model, tree.reveal[state])], tree.counts(grid)
    worst = -1
    for value in VALUES:
        if counts[value - 1] == 0:
            continue
        child = tree.children(state, cell, value)[_chosen(model, tree.push[(state, value)])]
        worst = max(worst, _strategy_guarantee(tree, model, child, memo))
    memo[state] = worst
    return worst


def _chosen(model: Any, variable: Any) -> int:
    return int(model.eval(variable, model_completion=True).as_long())


def guaranteed(position: UnknownPosition, *, deadline: Deadline | None = None) -> Z3Guarantee:
    """U5's value, proved by Z3 (OutOfTime if the deadline passes first, or Z3 answers
    unknown)."""
    deadline = deadline or Deadline(3600.0)
    tree = _Tree(position, deadline)
    solver = z3.Solver()
    solver.add(*tree.rules)
    best: tuple[int, Any] | None = None
    checks = 0
    while True:
        checks += 1
        below = [] if best is None else [tree.bound < best[0]]
        verdict = z3_check(solver, *below, deadline=deadline)
        if verdict == z3.unsat:
            break
        if verdict != z3.sat:
            raise OutOfTime
        model = solver.model()
        found = _strategy_guarantee(tree, model, tree.start, {})
        if best is not None and found >= best[0]:
            raise AssertionError(f"z3's strategy guarantees {found}, asked below {best[0]}")
        best = (found, model)
    if best is None:
        raise AssertionError("no strategy at all: the start's rules are unsatisfiable")
    value, model = best
    return Z3Guarantee(
        guaranteed=value,
        first=_first(tree, model),
        checks=checks,
        states=len(tree.ok),
    )


def _first(tree: _Tree, model: Any) -> FirstStep:
    """The first step of the model's strategy (U7's table; `after`: its guarantee there)."""
    grid, down = tree.start
    cell = _cells(down)[_chosen(model, tree.reveal[tree.start])]
    counts = tree.counts(grid)
    table = []
    memo: dict[State, int] = {}
    for value in VALUES:
        if counts[value - 1] == 0:
            continue
        index = _chosen(model, tree.push[(tree.start, value)])
        child = tree.children(tree.start, cell, value)[index]
        after = _strategy_guarantee(tree, model, child, memo)
        table.append((value, tree.legal[cell][index][0], Fraction(after)))
    return FirstStep(reveal=cell, push_by_value=tuple(table))
