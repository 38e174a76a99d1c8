"""The k-step puzzle as a Z3 formula (rules T1, T4, P1–P2, S1–S2).

How the encoding is built, and why (each choice was measured, see docs/puzzles.md):

* A step chooses a reveal cell and a push, one Bool each, exactly one of each true
  (`PbEq`); the pairs the rules forbid (the card would drop straight into the hole) are one
  binary clause each. Factoring the step (16 + 4 or 16 + 16 Bools) rather than one Bool per
  legal pair (48 or 240) lets the solver learn about a reveal or a push on its own.
* A cell holds one Bool per *value that occurs in the puzzle* (one-hot), not an integer: with
  five distinct values a cell is five Bools, cancellation is "some value is on both sides of an
  edge", and the score is a pseudo-Boolean sum, so the whole formula stays propositional.
* The value of a cell after a step is a short disjunction grouped by where its card comes
  from (the incoming card, one of the few cells that can feed it, or itself when no chain
  touches it), over fresh variables for every step, so no term ever grows with k.
* The face of every card travels with it (one Bool per cell per step): a reveal is allowed
  only on a face-down card (T1); the inserted card is face up.
* Implied facts are stated too, because they prune: every cell holds exactly one value after
  every step, and the final count of each value is the start count, minus the revealed
  cards of that value, plus the incoming ones (solo: unchanged).
* Steps whose chains are disjoint and whose cards are equal commute: only the order with the
  smaller shape first is kept (a symmetry that never changes the reachable final grids).

Every name built here is a plain Python object or a z3 expression; nothing is solved here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import z3  # type: ignore[import-untyped]

from dekal.proofs._moves import ENTERS, Shape, shape_index, shapes
from dekal.proofs.puzzle import KEY_CARDS, Move, Puzzle
from dekal_ref.notation import CELLS, Grid, Push
from dekal_ref.scoring import neighbours

BoolExpr: TypeAlias = Any
"""A z3 Boolean expression (z3 ships no type information)."""
Lit: TypeAlias = BoolExpr | bool
"""A literal: a z3 Bool, or a Python bool when the value is known while encoding."""


def disj(items: Iterable[Lit]) -> Lit:
    """Or, folding the constants away."""
    parts: list[BoolExpr] = []
    for item in items:
        if item is True:
            return True
        if item is not False:
            parts.append(item)
    if not parts:
        return False
    return parts[0] if len(parts) == 1 else z3.Or(parts)


def conj(a: Lit, b: Lit) -> Lit:
    """And of two literals, folding the constants away."""
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    return z3.And(a, b)


def neg(a: Lit) -> Lit:
    if isinstance(a, bool):
        return not a
    return z3.Not(a)


@dataclass
class Unrolling:
    """The formula of one puzzle unrolled over its `turns` steps.

    `reveal[t][c]` / `push[t][p]` are the two factors of step t, and `choice[t][j]` is true
    when step t uses shape j of `shapes`; `cells[t][c][i]` is true when cell c holds
    `values[i]` after t steps; `down[t][c]` when that card is face down. `first` fixes the
    first step (the "best next move" query).
    """

    puzzle: Puzzle
    first: Move | None = None
    symmetry: bool = True
    values: tuple[int, ...] = ()
    shapes: tuple[Shape, ...] = ()
    constraints: list[BoolExpr] = field(default_factory=list)
    choice: list[list[Lit]] = field(default_factory=list)
    cells: list[list[list[Lit]]] = field(default_factory=list)
    down: list[list[Lit]] = field(default_factory=list)
    left: list[Lit] = field(default_factory=list)
    reveal: list[dict[int, Lit]] = field(default_factory=list)
    push: list[dict[Push, Lit]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.values = self.puzzle.values()
        self.shapes = shapes(self.puzzle.variant)
        grid = self.puzzle.grid
        self.cells = [[[grid[c] == v for v in self.values] for c in CELLS]]
        self.down = [[c in self.puzzle.face_down for c in CELLS]]
        for step in range(self.puzzle.turns):
            self._step(step)
        self._invariants()
        if self.symmetry:
            self._break_commuting_steps()
        self._score()

    # -- building blocks -------------------------------------------------------------------

    def _fresh(self, name: str, expr: Lit) -> Lit:
        """A new variable defined as `expr` (constants stay constants)."""
        if isinstance(expr, bool):
            return expr
        var = z3.Bool(name)
        self.constraints.append(var == expr)
        return var

    def _incoming(self, step: int, reveals: dict[int, Lit]) -> list[Lit]:
        """One-hot value of the card inserted at `step` (solo: the card just revealed)."""
        if self.puzzle.incoming is not None:
            card = self.puzzle.incoming[step]
            return [card == v for v in self.values]
        now = self.cells[step]
        return [
            self._fresh(f"x{step}_{i}", disj(conj(r, now[cell][i]) for cell, r in reveals.items()))
            for i in range(len(self.values))
        ]

    def _factors(self, step: int) -> tuple[dict[int, Lit], dict[Push, Lit]]:
        """One Bool per reveal cell and one per push, each exactly one true (T1, P1/P2).

        A step is the pair; pairs the rules forbid (a push that would drop the card straight
        into that hole) are excluded by a binary clause each.
        """
        down = self.down[step]
        reveals: dict[int, Lit] = {}
        pushes: dict[Push, Lit] = {}
        for shape in self.shapes:
            if shape.reveal not in reveals:
                allowed = down[shape.reveal]
                if allowed is False:
                    reveals[shape.reveal] = False
                elif step == 0 and self.first is not None:
                    reveals[shape.reveal] = shape.reveal == self.first.reveal
                else:
                    var = z3.Bool(f"r{step}_{shape.reveal}")
                    if allowed is not True:
                        self.constraints.append(z3.Implies(var, allowed))
                    reveals[shape.reveal] = var
            if shape.push not in pushes:
                if step == 0 and self.first is not None:
                    pushes[shape.push] = shape.push == self.first.push
                else:
                    pushes[shape.push] = z3.Bool(f"p{step}_{shape.push}")
        self._exactly_one(list(reveals.values()))
        self._exactly_one(list(pushes.values()))
        legal = {(s.reveal, s.push) for s in self.shapes}
        for cell, r in reveals.items():
            for push, p in pushes.items():
                if (cell, push) not in legal and r is not False and p is not False:
                    self.constraints.append(z3.Not(z3.And(as_expr(r), as_expr(p))))
        return reveals, pushes

    def _exactly_one(self, literals: list[Lit]) -> None:
        live = [c for c in literals if not isinstance(c, bool)]
        forced = sum(1 for c in literals if c is True)
        if forced > 1 or (forced == 0 and not live):
            self.constraints.append(z3.BoolVal(False))
        elif forced == 1:
            self.constraints.extend(z3.Not(c) for c in live)
        elif len(live) == 1:
            self.constraints.append(live[0])
        else:
            self.constraints.append(z3.PbEq([(c, 1) for c in live], 1))

    def _step(self, step: int) -> None:
        reveals, pushes = self._factors(step)
        chosen: list[Lit] = [conj(reveals[s.reveal], pushes[s.push]) for s in self.shapes]
        self.reveal.append(reveals)
        self.push.append(pushes)
        self.choice.append(chosen)
        card = self._incoming(step, reveals)
        now, faces = self.cells[step], self.down[step]
        after: list[list[Lit]] = []
        after_down: list[Lit] = []
        for cell in CELLS:
            # source -> push -> the reveal literals under which `cell` takes its card from it
            by_source: dict[int, dict[Push, list[Lit]]] = defaultdict(lambda: defaultdict(list))
            for shape, c in zip(self.shapes, chosen, strict=True):
                source = shape.source_of(cell)
                if source is not None and c is not False:
                    by_source[source][shape.push].append(reveals[shape.reveal])
            group: dict[int, Lit] = {}
            for source, per_push in by_source.items():
                condition = disj(conj(pushes[p], disj(rs)) for p, rs in per_push.items())
                group[source] = self._fresh(f"g{step}_{cell}_{source}", condition)
            stay = neg(disj(group.values()))
            values: list[Lit] = []
            for i in range(len(self.values)):
                terms = [conj(stay, now[cell][i])]
                for source, g in group.items():
                    terms.append(conj(g, card[i] if source == ENTERS else now[source][i]))
                values.append(self._fresh(f"v{step + 1}_{cell}_{i}", disj(terms)))
            after.append(values)
            face = [conj(stay, faces[cell])]
            face.extend(conj(g, faces[source]) for source, g in group.items() if source != ENTERS)
            after_down.append(self._fresh(f"d{step + 1}_{cell}", disj(face)))
        self.cells.append(after)
        self.down.append(after_down)

    def _invariants(self) -> None:
        """Implied facts, stated because they prune: one value per cell, and card counts."""
        for cells in self.cells[1:]:
            for held in cells:
                self._exactly_one(held)
        incoming = self.puzzle.incoming or ()
        for i, value in enumerate(self.values):
            final = [self.cells[-1][cell][i] for cell in CELLS]
            revealed: list[Lit] = []
            if self.puzzle.incoming is not None:  # solo: the revealed card comes back
                for step, reveals in enumerate(self.reveal):
                    now = self.cells[step]
                    revealed.append(disj(conj(r, now[c][i]) for c, r in reveals.items()))
            total = self.puzzle.grid.count(value) + incoming.count(value)
            terms = [lit for lit in final + revealed if lit is not False]
            fixed = sum(1 for lit in terms if lit is True)
            live = [lit for lit in terms if lit is not True]
            if live:
                self.constraints.append(z3.PbEq([(lit, 1) for lit in live], total - fixed))

    def _break_commuting_steps(self) -> None:
        """Forbid shape b right after shape a > b when their chains are disjoint and the two
        cards are equal: swapping such neighbours gives the same grid, faces and legality."""
        incoming = self.puzzle.incoming
        start = 1 if self.first is not None else 0
        chains = [frozenset(s.chain) for s in self.shapes]
        for step in range(start, self.puzzle.turns - 1):
            if incoming is not None and incoming[step] != incoming[step + 1]:
                continue
            now, then = self.choice[step], self.choice[step + 1]
            for b, later in enumerate(then):
                if later is False:
                    continue
                earlier = [
                    now[a]
                    for a in range(b + 1, len(self.shapes))
                    if now[a] is not False and not (chains[a] & chains[b])
                ]
                banned = disj(earlier)
                if banned is not False:
                    self.constraints.append(z3.Not(z3.And(as_expr(later), as_expr(banned))))

    def canonical(self, moves: Sequence[Move]) -> list[Move]:
        """The same play in the order `_break_commuting_steps` keeps (same final grid).

        Swaps neighbouring steps the symmetry forbids until none is left; each swap makes the
        sequence of shape indices lexicographically smaller, so this ends.
        """
        order = list(moves)
        index = shape_index(self.puzzle.variant)
        chains = [frozenset(s.chain) for s in self.shapes]
        incoming = self.puzzle.incoming
        start = 1 if self.first is not None else 0
        swapped = self.symmetry
        while swapped:
            swapped = False
            for step in range(start, len(order) - 1):
                if incoming is not None and incoming[step] != incoming[step + 1]:
                    continue
                a, b = index[order[step]], index[order[step + 1]]
                if a > b and not (chains[a] & chains[b]):
                    order[step], order[step + 1] = order[step + 1], order[step]
                    swapped = True
        return order

    def _indices(self) -> range:
        return range(len(self.values))

    def _score(self) -> None:
        """S1 on the final grid: a cell is left when no neighbour holds the same value."""
        final = self.cells[-1]
        same: dict[tuple[int, int], Lit] = {}
        for cell in CELLS:
            for other in neighbours(cell):
                if other > cell:
                    same[cell, other] = self._fresh(
                        f"e{cell}_{other}",
                        disj(conj(final[cell][i], final[other][i]) for i in self._indices()),
                    )
        for cell in CELLS:
            edges = [same[min(cell, o), max(cell, o)] for o in neighbours(cell)]
            self.left.append(self._fresh(f"left{cell}", neg(disj(edges))))

    # -- queries' constraints ----------------------------------------------------------------

    def score_at_most(self, bound: int) -> BoolExpr:
        """S2: the sum of the values left is at most `bound`."""
        terms = [
            (conj(self.cells[-1][cell][i], self.left[cell]), value)
            for cell in CELLS
            for i, value in enumerate(self.values)
        ]
        return _pb_at_most(terms, bound)

    def key_at_most(self, bound: int) -> BoolExpr:
        """S3's order in one sum: points·KEY_CARDS + cards left is at most `bound`.

        A card of value v that is left weighs KEY_CARDS·v + 1; cards left never reach
        KEY_CARDS, so comparing keys compares (points, cards left) lexicographically.
        """
        terms = [
            (conj(self.cells[-1][cell][i], self.left[cell]), KEY_CARDS * value + 1)
            for cell in CELLS
            for i, value in enumerate(self.values)
        ]
        return _pb_at_most(terms, bound)

    def remaining_at_most(self, bound: int) -> BoolExpr:
        """S2: at most `bound` cards are left."""
        return _pb_at_most([(lit, 1) for lit in self.left], bound)

    def final_is(self, grid: Grid) -> BoolExpr:
        """The final grid is exactly `grid` (unsatisfiable if it holds an absent value)."""
        parts: list[Lit] = []
        for cell in CELLS:
            if grid[cell] not in self.values:
                return z3.BoolVal(False)
            parts.append(self.cells[-1][cell][self.values.index(grid[cell])])
        return _all(parts)

    def moves(self, model: z3.ModelRef) -> list[Move]:
        """The witness: the shape chosen at every step of a model."""
        found: list[Move] = []
        for chosen in self.choice:
            picks = [
                shape.move
                for shape, c in zip(self.shapes, chosen, strict=True)
                if c is True or (not isinstance(c, bool) and z3.is_true(model.eval(c, True)))
            ]
            if len(picks) != 1:
                raise AssertionError(f"a model chose {len(picks)} shapes in one step")
            found.append(picks[0])
        return found


def as_expr(lit: Lit) -> BoolExpr:
    return z3.BoolVal(lit) if isinstance(lit, bool) else lit


def _all(parts: Sequence[Lit]) -> BoolExpr:
    if any(p is False for p in parts):
        return z3.BoolVal(False)
    live = [p for p in parts if not isinstance(p, bool)]
    return z3.And(live) if live else z3.BoolVal(True)


def _pb_at_most(terms: Sequence[tuple[Lit, int]], bound: int) -> BoolExpr:
    fixed = sum(weight for lit, weight in terms if lit is True)
    live = [(lit, weight) for lit, weight in terms if not isinstance(lit, bool)]
    if bound - fixed < 0:
        return z3.BoolVal(False)
    if not live:
        return z3.BoolVal(True)
    budget = bound - fixed
    # Implied, and what makes a small bound fast: a term heavier than the whole budget is
    # false on its own. Asked for a key of 0 (every card cancelled), the sum becomes one unit
    # clause per cell, which Z3 propagates at once; through the sum alone it learnt them one
    # conflict at a time (1234/5678/9T12/3456 with T,9,7,5,3,1: see bench/solver.py --hard).
    heavy = [z3.Not(lit) for lit, weight in live if weight > budget]
    light = [(lit, weight) for lit, weight in live if weight <= budget]
    if not light:
        return z3.And(heavy) if heavy else z3.BoolVal(True)
    return z3.And(*heavy, z3.PbLe(light, budget)) if heavy else z3.PbLe(light, budget)
