"""Many games at once: seeded chunks of games, on one core or a Dask cluster, and their
statistics (installed as `dekal.simulation`)."""
