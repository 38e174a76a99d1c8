"""Obligations: the arithmetic of the unknown-card search's pruning rules (spec/solo-unknown.md,
U8). The rules' effect on whole searches is pinned to the brute force by tests
(tests/solver/unknown/test_unknown_search.py, test_unknown_kernel.py); what Z3 proves here is the
integer steps those tests could miss at the edges: E2's ceiling and E4's stand-in bounds.

E2: a reveal whose sum so far is t < b (the ceiling) and a value v of count n ≥ 1: the
kernel (`proofs._unknown.kernel.expected`) searches v's pushes below
need = (b − t + n − 1) // n. Sound: a push at or above need takes the sum to b whatever the
values left bring (each term ≥ 0), so the reveal cannot lower the minimum; tight: a push
below need keeps t + n·x below b, so it is never cut while it could matter.

E4: for one value of a reveal with two `?` left, each push i's mean m_i has a bound
f_i ≤ m_i (`proofs._unknown.two.two_expected`); a push whose bound reaches
min(smallest, e) is not scored and its bound stands in. Sound: the result r is ≤ min m_i
(a bound from below, what a fail-soft search may return at or above its ceiling), and
exact (r = min m_i) whenever min m_i < e, the only case where the sum stays below its
ceiling.

E5: a reveal whose sum so far is t, with bounds r ≤ the true terms of the values left
(`singles_floor`, the cards nothing can cancel) and t + r < b: v's pushes are searched below
need = (b − t − r + n − 1) // n. Sound: a push at or above need takes t + n·x + the terms left
to b; tight: a push below it keeps t + n·x + r below b. A value's least m is raised to its
bound f (≤ m) when below it: still ≤ m, and = m when the least was exact.

G4: a guarantee min over reveals, max over values, min over pushes of the children's
guarantees, each child of value v at least f_v (its cards nothing can cancel, the same for
every reveal and push), is at least max_v f_v: the bound the kernel returns in its place.
"""

from __future__ import annotations

from typing import Any

import z3  # type: ignore[import-untyped]

from dekal.proofs._obligations.obligation import Kernels, Obligation, refute

LARGEST = 1 << 58
"""The kernel's FAR: every scaled value and ceiling lies below it (`_unknown.search.fits`)."""
MOST_COPIES = 100
"""A count n is at most the deck's 100 cards."""


def _ceiling(k: Kernels, timeout: float) -> tuple[bool, str, str]:
    del k  # the kernel's formula is restated here (numba code cannot take Z3 terms)
    t, b, n, x, rest = z3.Ints("t b n x rest")
    need = (b - t + n - 1) / n  # Z3's integer division floors for a positive divisor
    ranges = [
        t >= 0,
        t < b,
        b <= LARGEST,
        n >= 1,
        n <= MOST_COPIES,
        x >= 0,
        x <= LARGEST,
        rest >= 0,
    ]
    sound = z3.Implies(x >= need, t + n * x + rest >= b)
    tight = z3.Implies(x < need, t + n * x < b)

    def explain(found: Any) -> str:
        values = {str(v): found.eval(v, model_completion=True) for v in (t, b, n, x, rest)}
        return ", ".join(f"{name} = {value}" for name, value in values.items())

    proved, counterexample = refute(z3.And(sound, tight), explain, timeout=timeout, assuming=ranges)
    return proved, counterexample, "need = ⌈(b − t)/n⌉ for 0 ≤ t < b < 2^58, 1 ≤ n ≤ 100"


STAND_IN_PUSHES = 16
"""The most pushes a hole allows (P2: 16 for an inner hole)."""


def _stand_in(k: Kernels, timeout: float) -> tuple[bool, str, str]:
    del k  # the kernel's loop is restated here, unrolled over every push
    means = z3.IntVector("m", STAND_IN_PUSHES)
    floors = z3.IntVector("f", STAND_IN_PUSHES)
    enough, far = z3.Ints("e far")
    ranges = [far == LARGEST, enough >= 1, enough <= LARGEST]
    for mean, floor in zip(means, floors, strict=True):
        ranges += [mean >= 0, mean < LARGEST, floor <= mean]
    smallest: Any = far
    for mean, floor in zip(means, floors, strict=True):
        skipped = floor >= z3.If(smallest < enough, smallest, enough)
        smallest = z3.If(
            skipped,
            z3.If(floor < smallest, floor, smallest),
            z3.If(mean < smallest, mean, smallest),
        )
    least: Any = means[0]
    for mean in means[1:]:
        least = z3.If(mean < least, mean, least)
    claim = z3.And(smallest <= least, z3.Implies(least < enough, smallest == least))

    def explain(found: Any) -> str:
        pairs = [f"({found.eval(f)}, {found.eval(m)})" for f, m in zip(floors, means, strict=True)]
        return f"e = {found.eval(enough)}; (bound, mean) per push: " + " ".join(pairs)

    proved, counterexample = refute(claim, explain, timeout=timeout, assuming=ranges)
    return proved, counterexample, f"{STAND_IN_PUSHES} pushes, bounds ≤ means < 2^58"


def _floors(k: Kernels, timeout: float) -> tuple[bool, str, str]:
    del k  # the kernel's formulas are restated here (`proofs._unknown.kernel.expected`)
    t, b, n, x, r, rest, f, m, least = z3.Ints("t b n x r rest f m least")
    need = (b - t - r + n - 1) / n  # Z3's integer division floors for a positive divisor
    ranges = [
        t >= 0,
        r >= 0,
        rest >= r,  # the terms left are at least their bounds
        t + r < b,  # else the reveal stopped before v
        b <= LARGEST,
        n >= 1,
        n <= MOST_COPIES,
        x >= 0,
        x <= LARGEST,
        f >= 0,
        f <= m,  # the bound is at most the value's true least
        least <= m,  # a fail-soft least is at most the true one
        m <= LARGEST,
    ]
    sound = z3.Implies(x >= need, t + n * x + rest >= b)
    tight = z3.Implies(x < need, t + n * x + r < b)
    raised = z3.If(least < f, f, least)
    kept = z3.And(raised <= m, z3.Implies(least == m, raised == m))

    def explain(found: Any) -> str:
        names = (t, b, n, x, r, rest, f, m, least)
        return ", ".join(f"{v} = {found.eval(v, model_completion=True)}" for v in names)

    claim = z3.And(sound, tight, kept)
    proved, counterexample = refute(claim, explain, timeout=timeout, assuming=ranges)
    return proved, counterexample, "need = ⌈(b − t − r)/n⌉ for t + r < b < 2^58, 1 ≤ n ≤ 100"


G4_REVEALS, G4_VALUES, G4_PUSHES = 3, 10, 16
"""The obligation's step (any number of reveals behaves alike: one min over them)."""


def _worst_floor(k: Kernels, timeout: float) -> tuple[bool, str, str]:
    del k  # U5's recursion restated here, unrolled over reveals, values and pushes
    floors = z3.IntVector("f", G4_VALUES)
    children = [
        [z3.IntVector(f"g_{c}_{v}", G4_PUSHES) for v in range(G4_VALUES)] for c in range(G4_REVEALS)
    ]
    ranges = []
    for reveal in children:
        for value, pushes in zip(reveal, floors, strict=True):
            ranges += [child >= pushes for child in value]
    reveals = []
    for reveal in children:
        worst: Any = None
        for value in reveal:
            least: Any = value[0]
            for child in value[1:]:
                least = z3.If(child < least, child, least)
            worst = least if worst is None else z3.If(least > worst, least, worst)
        reveals.append(worst)
    guarantee: Any = reveals[0]
    for worst in reveals[1:]:
        guarantee = z3.If(worst < guarantee, worst, guarantee)
    bound: Any = floors[0]
    for floor in floors[1:]:
        bound = z3.If(floor > bound, floor, bound)

    def explain(found: Any) -> str:
        return "floors: " + " ".join(str(found.eval(f)) for f in floors)

    claim = guarantee >= bound
    proved, counterexample = refute(claim, explain, timeout=timeout, assuming=ranges)
    shape = f"{G4_REVEALS} reveals × {G4_VALUES} values × {G4_PUSHES} pushes"
    return proved, counterexample, shape + ", every child ≥ its value's bound"


GROUP_LAYOUTS = 16
"""Layouts in the grouped scan's obligation (any number behaves alike: one min each)."""


def _threshold(k: Kernels, timeout: float) -> tuple[bool, str, str]:
    del k  # the driver's rule is restated here (`_unknown.perfect_compiled.compiled_optima`)
    points = z3.IntVector("p", GROUP_LAYOUTS)
    bounds = z3.IntVector("b", GROUP_LAYOUTS)
    threshold, far = z3.Ints("T far")
    ranges = [far == LARGEST, threshold >= 1, threshold < LARGEST]
    for point, bound in zip(points, bounds, strict=True):
        ranges += [point >= 0, point < LARGEST, bound <= point]
    kept: Any = far  # the least over the layouts whose bound is below the threshold
    least: Any = far
    for point, bound in zip(points, bounds, strict=True):
        kept = z3.If(z3.And(bound < threshold, point < kept), point, kept)
        least = z3.If(point < least, point, least)
    claim = z3.Implies(kept < threshold, kept == least)

    def explain(found: Any) -> str:
        pairs = [f"({found.eval(b)}, {found.eval(p)})" for b, p in zip(bounds, points, strict=True)]
        return f"T = {found.eval(threshold)}; (bound, points) per layout: " + " ".join(pairs)

    proved, counterexample = refute(claim, explain, timeout=timeout, assuming=ranges)
    return proved, counterexample, f"{GROUP_LAYOUTS} layouts, bounds ≤ points < 2^58"


OBLIGATIONS = (
    Obligation(
        "unknown.e2-ceiling",
        "U8/E2: a push at or above (b − t + n − 1) // n takes the reveal's sum to the ceiling "
        "b, and one below it keeps the sum below b",
        _ceiling,
    ),
    Obligation(
        "unknown.e4-stand-in",
        "U8/E4: a push whose bound reaches min(least so far, the cap) stands in by its bound: "
        "the value's least is bounded from below, and exact whenever it is below the cap",
        _stand_in,
    ),
    Obligation(
        "unknown.e5-floors",
        "U8/E5: with bounds r on the terms left, a push at or above (b − t − r + n − 1) // n "
        "takes the reveal's sum to the ceiling b, one below keeps t + n·x + r below b, and a "
        "least raised to its bound stays a bound (exact when it was)",
        _floors,
    ),
    Obligation(
        "unknown.g4-floor",
        "U8/G4: when every child of a value v is at least v's bound, the guarantee (min over "
        "reveals, max over values, min over pushes) is at least the largest bound",
        _worst_floor,
    ),
    Obligation(
        "unknown.u9-threshold",
        "U9: a deal's least over the layouts bounded below a threshold, when below it, is its "
        "least over every layout (each bound ≤ its layout's points)",
        _threshold,
    ),
)
