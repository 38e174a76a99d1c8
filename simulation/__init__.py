"""Many games at once: seeded chunks of games, on one core or a Dask cluster, and their
statistics (installed as `dekal.simulation`).

Public: the modules in `__all__`; every module with a leading `_` is internal.
"""

__all__ = [
    "games",
    "plots",
    "runner",
    "stats",
]
