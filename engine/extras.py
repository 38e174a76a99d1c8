"""The optional libraries of `dekal`, which extra brings each, and the one way to import them.

`pip install dekal` (the core) runs the conformance suite, score, push, show, replay, solve,
puzzle, prove, advise and play; the rest comes as extras (pyproject.toml, README "Install"):

    fast       numpy, numba      the compiled game kernel and the NumPy batch paths
    sim        fast + distributed, matplotlib    Dask clusters and plots
    openspiel  open-spiel        Dékal as an OpenSpiel game (dekal.openspiel)
    all        every extra

Every import of an optional library is written inside `needed`:

    with needed("the compiled game kernel"):
        from numba import njit

so that a missing one is a `MissingExtra` naming the extra to install (the `dekal` command
prints it as one line, exit 2; dekal.cli._common), never a bare ModuleNotFoundError. Where a
Python path gives the same answers (the solver's search, the bots' rollouts, simulate's
games), the caller asks `available` first and takes that path instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

EXTRAS: dict[str, tuple[str, ...]] = {
    "fast": ("numpy", "numba"),
    "sim": ("numpy", "numba", "distributed", "matplotlib"),
    "openspiel": ("open-spiel",),
}
"""Each extra and the distributions it brings (pyproject.toml's optional-dependencies say
the same: tests/engine/test_extras.py checks it). `all` is every one of them."""

EXTRA_OF_MODULE: dict[str, str] = {
    "numpy": "fast",
    "numba": "fast",
    "llvmlite": "fast",
    "distributed": "sim",
    "dask": "sim",
    "matplotlib": "sim",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
}
"""The smallest extra that brings each optional top-level module."""


class MissingExtra(ImportError):
    """An optional library is not installed: `what` needs `module`, which `extra` brings."""

    def __init__(self, module: str, extra: str, what: str) -> None:
        self.module, self.extra, self.what = module, extra, what
        super().__init__(
            f'{what} needs {module}, which is not installed: pip install "dekal[{extra}]"',
            name=module,
        )


@contextmanager
def needed(what: str, extra: str | None = None) -> Iterator[None]:
    """Imports inside this block that fail for want of an optional library raise a
    MissingExtra naming its extra (`what`: the feature that needs it, in a few words;
    `extra`: the one to name whichever library is missing, when the feature has its own,
    else the smallest that brings the library). Any other ImportError (a module of dekal
    itself, a broken install) passes unchanged."""
    try:
        yield
    except ModuleNotFoundError as error:
        top = (error.name or "").split(".")[0]
        if top not in EXTRA_OF_MODULE:
            raise
        raise MissingExtra(top, extra or EXTRA_OF_MODULE[top], what) from None


@cache
def available(module: str) -> bool:
    """Whether an optional library can be imported (it is imported to find out: a library
    that is present but broken counts as absent, so the Python path is taken)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True
