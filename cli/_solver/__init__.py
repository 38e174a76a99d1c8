"""The solver's commands (internal; the commands are the surface), one module per idea:

- `solve`: `dekal solve`, its options and its output; `solve_run` runs a method under the
  deadline and stops the same way whichever method was running; `solve_unknown` is
  `--unknown` (spec/solo-unknown.md);
- `puzzle`: `dekal puzzle`, the rated puzzles; `puzzle_unknown` its guarantee puzzles;
- `prove`: `dekal prove`, the proof obligations.

Nothing is imported here: each command's module is imported when the command is used.
"""
