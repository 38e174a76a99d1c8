"""Z3 puzzle queries and proof obligations (installed as `dekal.proofs`; docs/puzzles.md).

Puzzles: `puzzle` (the model, validation), `moves` (step shapes read off dekal_ref),
`replay` (the reference-engine gate every witness passes), `answer`, `encoding` (the k-step
Z3 formula), `z3_solve` and `search` (+ `leaves`, `beam`, `bounds`, `symmetry`) (the two
independent methods), `portfolio` (both at once, the first proof wins: the default).
Obligations: `obligation` (framework, mutants), `spec_side` (the spec cell by cell),
`ob_score`, `ob_push`, `ob_symmetry`, `ob_bounds`, `ob_reach`, and `catalogue` (all of them).
"""
