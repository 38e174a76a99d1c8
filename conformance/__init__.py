"""The conformance suite: judge any Dékal implementation, in any language, rule by rule.

The room is built in wings, in the order its data flows; no wing imports one after it:

    drive/   talking to an engine: the protocol, the bundled engines' adapter and server,
             subprocess, in-process and direct drivers, process groups, deadlines
    cases/   what is checked: the frozen vectors and their sources, the generator, probes,
             recorded games, needs and --smoke, own-deal translation
    judge/   playing a case against a driven engine, comparing, blaming a rule, coverage,
             expected failures
    fuzz/    random and steered lock-step games, shrinking, campaigns on many workers
    report/  text, JSON, JUnit, HTML, badge and the pictures of a divergence

Public: the names below, `python -m dekal.conformance.serve` (a bundled engine over
stdin/stdout) and `python -m dekal.conformance.generate` (re-derive the vectors). Every
module inside a wing is internal (a leading `_`): import from here.

    >>> from dekal.conformance import bundled_engine, load_cases, run_suite
    >>> with bundled_engine("ref") as engine:
    ...     run = run_suite(engine, load_cases()[:3], timeout=5.0)
    >>> [outcome.status for outcome in run.outcomes]
    ['pass', 'pass', 'pass']
"""

from __future__ import annotations

from typing import Any

from dekal.conformance.cases._vectors import SUITE_VERSION, SUITE_VERSIONS
from dekal.conformance.drive._protocol import PROTOCOL_VERSION

__all__ = [
    "PROTOCOL_VERSION",
    "SUITE_VERSION",
    "SUITE_VERSIONS",
    "DirectEngine",
    "Run",
    "SubprocessEngine",
    "bundled_engine",
    "load_cases",
    "report_json",
    "run_suite",
]

_LAZY = {
    "DirectEngine": "dekal.conformance.drive._direct_engine",
    "bundled_engine": "dekal.conformance.drive._direct_engine",
    "SubprocessEngine": "dekal.conformance.drive._subprocess_engine",
    "load_cases": "dekal.conformance.cases._vectors",
    "Run": "dekal.conformance.judge._runner",
    "run_suite": "dekal.conformance.judge._runner",
    "report_json": "dekal.conformance.report._formats",
}


def __getattr__(name: str) -> Any:
    """The driving and judging names, imported when first asked for: `import
    dekal.conformance` (as every wing's module does) stays as light as its constants."""
    if name not in _LAZY:
        raise AttributeError(f"module 'dekal.conformance' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(_LAZY[name]), name)
