"""A proof obligation: a claim over all inputs, discharged by Z3 as `check(Not(claim)) == unsat`.

Each obligation returns a `Verdict`: proved (Z3 said unsat), or not, with a counterexample
read off the model that refutes the claim ("unknown" is never a proof: it is reported as a
failure with Z3's reason). Every check carries a timeout.

The optimized code under proof is passed in as `Kernels` (the `dekal.bits` module and the
`dekal.tables.LEGAL` push table by default), so a test can hand in a deliberately broken
kernel or constant (`mutant`) and watch the obligation fail with a counterexample, without
ever editing the real module.
"""

from __future__ import annotations

import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]

from dekal import bits, tables
from dekal.proofs._encoding import BoolExpr
from dekal.proofs.limits import Deadline, z3_check
from dekal_ref.notation import format_grid

DEFAULT_TIMEOUT = 60.0  # seconds per Z3 check; unknown after that is a failure


@dataclass(frozen=True)
class Kernels:
    """The optimized engine's code under proof: its bit kernels and its push table."""

    bits: Any = bits
    legal: Any = field(default_factory=lambda: tables.LEGAL)


def mutant(module: types.ModuleType, **replaced: Any) -> types.ModuleType:
    """A copy of `module` whose functions see some names replaced (constants or kernels).

    Every function defined in `module` is re-bound to the copy's namespace, so a replaced
    constant or helper is what the copy's kernels use; the real module is untouched.
    """
    namespace = dict(module.__dict__)
    for name in replaced:
        if name not in namespace:
            raise KeyError(f"{module.__name__} has no {name}")
    namespace.update(replaced)
    for name, value in list(namespace.items()):
        if (
            isinstance(value, types.FunctionType)
            and value.__module__ == module.__name__
            and name not in replaced
        ):
            copy = types.FunctionType(
                value.__code__, namespace, value.__name__, value.__defaults__, value.__closure__
            )
            copy.__kwdefaults__ = value.__kwdefaults__
            namespace[name] = copy
    copy_module = types.ModuleType(f"{module.__name__}_mutant")
    copy_module.__dict__.update(namespace)
    copy_module.__dict__["__name__"] = copy_module.__name__
    return copy_module


@dataclass(frozen=True)
class Verdict:
    """The result of one obligation."""

    name: str
    statement: str
    proved: bool
    seconds: float
    counterexample: str = ""
    detail: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "statement": self.statement,
            "proved": self.proved,
            "seconds": round(self.seconds, 3),
            "counterexample": self.counterexample or None,
            "detail": self.detail or None,
        }


@dataclass(frozen=True)
class Obligation:
    """A named claim and the function that discharges it for given kernels."""

    name: str
    statement: str
    run: Callable[[Kernels, float], tuple[bool, str, str]]
    """(kernels, timeout) -> (proved, counterexample, detail)."""

    def check(self, kernels: Kernels | None = None, timeout: float = DEFAULT_TIMEOUT) -> Verdict:
        started = time.perf_counter()
        proved, counterexample, detail = self.run(kernels or Kernels(), timeout)
        return Verdict(
            name=self.name,
            statement=self.statement,
            proved=proved,
            seconds=time.perf_counter() - started,
            counterexample=counterexample,
            detail=detail,
        )


def refute(
    claim: BoolExpr,
    explain: Callable[[Any], str],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    assuming: Sequence[BoolExpr] = (),
) -> tuple[bool, str]:
    """(True, "") when Z3 proves `claim` under `assuming`; else (False, counterexample)."""
    solver = z3.Solver()
    solver.add(*assuming)
    solver.add(z3.Not(claim))
    verdict = z3_check(solver, deadline=Deadline(timeout))
    if verdict == z3.unsat:
        return True, ""
    if verdict == z3.sat:
        return False, explain(solver.model())
    return False, f"z3 answered unknown ({solver.reason_unknown()}): not a proof"


# -- grids as 64-bit words ---------------------------------------------------------------


def nibble(word: BoolExpr, cell: int) -> BoolExpr:
    """The 4-bit value of `cell` in a symbolic grid word."""
    return z3.Extract(4 * cell + 3, 4 * cell, word)


def nibbles(word: BoolExpr) -> list[BoolExpr]:
    return [nibble(word, cell) for cell in range(16)]


def from_nibbles(values: Sequence[BoolExpr]) -> BoolExpr:
    """Sixteen 4-bit values in reading order -> a 64-bit grid word."""
    return z3.Concat(*reversed(list(values)))


def cards_only(word: BoolExpr, *, hole: int | None = None) -> BoolExpr:
    """Every nibble is a card 1..10 (except `hole`, which is 0)."""
    parts = []
    for cell, value in enumerate(nibbles(word)):
        if cell == hole:
            parts.append(value == 0)
        else:
            parts.append(z3.And(z3.UGE(value, 1), z3.ULE(value, 10)))
    return z3.And(parts)


def grid_of(model: Any, word: BoolExpr) -> str:
    """A model's value of a symbolic grid word, in grid notation (cells 11–15 shown as hex)."""
    number = model.eval(word, model_completion=True).as_long()
    values = [(number >> (4 * cell)) & 0xF for cell in range(16)]
    if all(v <= 10 for v in values):
        return format_grid(tuple(values))
    return "/".join("".join(format(values[4 * r + c], "X") for c in range(4)) for r in range(4))


def cell_set(number: int, nibble_form: bool = True) -> str:
    """A set of cells (nibble form bit 4i, or compact bit i) as cell names."""
    from dekal_ref.notation import cell_name

    step = 4 if nibble_form else 1
    names = [cell_name(c) for c in range(16) if (number >> (step * c)) & 1]
    return "{" + " ".join(names) + "}"
