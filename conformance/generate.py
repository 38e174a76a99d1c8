"""`python -m dekal.conformance.generate`: derive the frozen conformance vectors from their
sources (spec/conformance/sources/; the derivation is dekal.conformance.cases._generate's).

    python -m dekal.conformance.generate               # rewrite spec/conformance/v4/ (newest)
    python -m dekal.conformance.generate --suite v1    # rewrite the frozen v1 (never needed)
    python -m dekal.conformance.generate --check       # exit 1 if any suite's files differ
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dekal.conformance.cases._generate import all_cases, default_directory, render, stale_files
from dekal.conformance.cases._vectors import SUITE_VERSION, SUITE_VERSIONS

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Derive the conformance vectors from their source."
    )
    parser.add_argument(
        "--suite",
        choices=SUITE_VERSIONS,
        default=None,
        help=f"the suite to derive (default: write {SUITE_VERSION}, check every suite)",
    )
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--check", action="store_true", help="compare with the frozen files, write nothing"
    )
    args = parser.parse_args(argv)
    if args.check:
        versions = [args.suite] if args.suite else list(SUITE_VERSIONS)
        stale = [
            path
            for version in versions
            for path in stale_files(version, args.out or default_directory(version))
        ]
        for path in stale:
            print(f"stale: {path}", file=sys.stderr)
        return 1 if stale else 0
    version = args.suite or SUITE_VERSION
    out = args.out or default_directory(version)
    files = render(all_cases(version), version)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text)
    counts = ", ".join(
        f"{name} {len(text.splitlines())}"
        for name, text in files.items()
        if name.endswith(".jsonl")
    )
    print(f"wrote {out}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
