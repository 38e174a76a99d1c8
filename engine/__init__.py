"""Dékal Lab's optimized engine and public API (docs/engine.md).

* dekal.fast: the game API (same names, signatures, errors and notation as dekal_ref), on
  packed states: each grid one 64-bit word, face-down cards a 16-bit mask.
* dekal.engines.get_engine("fast" | "ref"): either engine behind one protocol.
* dekal.bits (kernels, also run by z3 in proofs/), dekal.tables (push tables), dekal.batch
  (NumPy path), dekal.symmetry (the square's 8 symmetries), dekal.simulate (random games).

Nothing is imported here, so that `dekal.cli`, `dekal.proofs` and `dekal.spec` stay light.

Public: the modules in `__all__` (each holds its own `__all__` or documents its names);
a module with a leading `_` (`_game`, `_grid`, `_arguments`, the kernel's `_play`...) is
internal.
"""

__all__ = [
    "actions",
    "batch",
    "bits",
    "draws",
    "engines",
    "extras",
    "fast",
    "kernel",
    "openspiel",
    "position",
    "ranking",
    "simulate",
    "state",
    "symmetry",
    "tables",
]
