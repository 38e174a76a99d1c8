"""`dekal solve --unknown` (spec/solo-unknown.md): the solo game for the rest of the round when
the face-down cards are unknown, answered exactly (internal; the command is the surface).

Data flows one way through the wing:
- `position`: the grid with `?` cells and the unseen multiset (U1–U3);
- `search` (Python) and `kernel`, `two`, `tables` (numba): guaranteed and expected (U5–U8);
- `z3_tree` and `race`: Z3's strategy tree for the guarantee, raced against the search;
- `deals`, `perfect`, `perfect_compiled`, `perfect_kernel`: perfect information (U9);
- `greedy`: the greedy choice the headline figures measure against the optimum;
- `answer`: the three answers, the first step and the bounds under a deadline;
- `puzzle`: guarantee puzzles for `dekal puzzle`.
"""
