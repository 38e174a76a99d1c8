"""Blame: is a fault planted in one rule blamed on that rule only? (issue 18, part 2)

Every single-rule fault of the test suite is judged by the whole conformance suite: the
misreadings of tests/miniatures/misreadings.py and misreadings_issue18.py (each served as its own
engine process, so that the judge in this process, whose reference plays alongside, is not misread
too) and the broken engines of tests/conformance/judge/test_conformance_blame.py and of issue 27,
tests/miniatures/planted_issue27.py (situations) and planted_geometry27.py (the grid's geometry),
judged in-process: they wrap the reference without touching it. For each fault: the rules its
failures are blamed on; the figure is the share of caught faults whose failures are all blamed
on the rule they break.

    python bench/blame.py                      # every fault (the suite 86 times: most of an hour)
    python bench/blame.py tie token            # only the faults whose name holds a word
    python bench/blame.py --json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1] / "tests"


def serve_misreading(name: str) -> None:
    """The reference with one misreading planted, speaking the protocol on stdin/stdout."""
    import pytest

    sys.path.insert(0, str(TESTS))
    from miniatures import misreadings_issue18  # noqa: F401  (registers issue 18's misreadings)
    from miniatures.misreadings import MISREADINGS

    from dekal.conformance.serve import main

    (misread,) = [m for m in MISREADINGS if f"{m.rule}-{m.name}" == name]
    misread.plant(pytest.MonkeyPatch())
    main(["--engine", "ref"])


def blamed(run: Any) -> Counter[str]:
    return Counter(
        outcome.blame.rule if outcome.blame else "none"
        for outcome in run.outcomes
        if outcome.status in ("fail", "error")
    )


def faults(words: list[str], seconds: float) -> list[tuple[str, str, Any]]:
    """(name, rule, engine maker) of every fault whose name holds one of `words`."""
    sys.path.insert(0, str(TESTS))
    sys.path.insert(0, str(TESTS / "conformance" / "judge"))  # the house moved the tests there
    import test_conformance_blame
    from miniatures import misreadings_issue18  # noqa: F401  (registers issue 18's misreadings)
    from miniatures.misreadings import MISREADINGS
    from miniatures.planted_geometry27 import FAULTS as GEOMETRY_FAULTS
    from miniatures.planted_issue27 import FAULTS as SITUATION_FAULTS

    from dekal.conformance.drive._direct_engine import DirectEngine
    from dekal.conformance.drive._subprocess_engine import SubprocessEngine

    found: list[tuple[str, str, Any]] = []
    for misread in MISREADINGS:
        name = f"{misread.rule}-{misread.name}"
        command = f"{sys.executable} {Path(__file__).resolve()} --serve {name}"
        found.append((name, misread.rule, lambda c=command: SubprocessEngine(c, timeout=seconds)))
    planted = {**test_conformance_blame.FAULTS, **SITUATION_FAULTS, **GEOMETRY_FAULTS}  # issue 27's
    for title, (factory, rule) in planted.items():
        found.append(
            (f"{rule}-{title}", rule, lambda f=factory, t=title: DirectEngine(f, t, seconds))
        )
    return [f for f in found if not words or any(w in f[0] for w in words)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("words", nargs="*", help="only the faults whose name holds one")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        help="seconds per case (a loaded machine "
        "turns short limits into errors blamed on the request in flight)",
    )
    parser.add_argument("--serve", metavar="MISREADING", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_misreading(args.serve)
        return
    from dekal.conformance.cases._vectors import load_cases
    from dekal.conformance.judge._runner import run_suite

    cases = load_cases()
    rows = []
    for name, rule, make in faults(args.words, args.timeout):
        engine = make()
        try:
            counts = blamed(run_suite(engine, cases, timeout=args.timeout))
        finally:
            engine.close()
        rows.append({"fault": name, "rule": rule, "blamed": dict(counts.most_common())})
        if not args.json:
            verdict = "only" if set(counts) == {rule} else ("missed" if not counts else "ALSO")
            print(f"{verdict:>6}  {name}: {dict(counts.most_common())}", flush=True)
    caught = [row for row in rows if row["blamed"]]
    right = [row for row in caught if set(row["blamed"]) == {row["rule"]}]
    summary = {"faults": len(rows), "caught": len(caught), "blamed_only_on_their_rule": len(right)}
    if args.json:
        print(json.dumps({**summary, "rows": rows}, indent=1))
    else:
        print(f"{len(right)} of {len(caught)} caught faults ({len(rows)} planted) are blamed "
              "only on the rule they break")  # fmt: skip


if __name__ == "__main__":
    main()
