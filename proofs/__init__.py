"""Z3 puzzle queries and proof obligations (installed as `dekal.proofs`; docs/puzzles.md).

Puzzles: `puzzle` (the model, validation), `_moves` (step shapes read off dekal_ref),
`_replay` (the reference-engine gate every witness passes), `_answer`, `_encoding` (the k-step
Z3 formula), `z3_solve` and `search` (+ `_leaves`, `_beam`, `_bounds`, `_symmetry`) (the two
independent methods), `portfolio` (both at once, the first proof wins: the default).
Obligations: the wing `_obligations/` (`obligation`, the framework and its mutants;
`spec_side`, the spec cell by cell; `score`, `push`, `symmetry`, `bounds`, `reach`, `unknown`;
`catalogue`, all of them in `dekal prove`'s order). The `--unknown` solver: the wing
`_unknown/`.

Public: the modules in `__all__`; every module or wing with a leading `_` is internal.
"""

__all__ = [
    "limits",
    "portfolio",
    "puzzle",
    "puzzle_set",
    "search",
    "z3_solve",
]
