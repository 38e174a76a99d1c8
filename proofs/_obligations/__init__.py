"""Proof obligations (internal; `dekal prove` is the surface): each a claim over all inputs,
discharged by Z3 as `check(Not(claim)) == unsat`, and each shown able to fail by a mutant.

- `obligation`: the framework (Obligation, Verdict, refute, mutants);
- `spec_side`: the spec's definitions cell by cell over symbolic values, what the kernels are
  proved against;
- `score`, `push`, `symmetry`, `bounds`, `reach`: the optimized engine's and the puzzle
  solver's claims (S1–S2, P1–P2, T4, M1);
- `unknown`: the arithmetic of the `--unknown` search's pruning rules (spec/solo-unknown.md);
- `catalogue`: every obligation, in the order `dekal prove` runs them.
"""
