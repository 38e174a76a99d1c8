"""`python -m dekal.conformance.serve`: a bundled engine speaking the protocol on stdin/stdout.

    python -m dekal.conformance.serve --engine ref      # the literal reference engine
    python -m dekal.conformance.serve --engine fast     # the optimized engine
    python -m dekal.conformance.serve --engine ref --own-deal --seed 7
                        # an engine that deals for itself (hello "deals": "own"): given
                        # "deal": null it deals from its own SplitMix64 generator seeded 7

It reads one JSON request per line and writes one JSON reply per line (spec/protocol.md),
so the conformance runner's subprocess path is exercised end to end with engines we trust;
the loop and its refusals are dekal.conformance.drive._serve's.
"""

from __future__ import annotations

import argparse
import errno
import io
import sys

from dekal._streams import StreamLost, say
from dekal._streams import install as install_streams
from dekal.conformance.drive._serve import bundled_adapter, serve
from dekal_ref.errors import NotationError
from dekal_ref.reading import SEED_MAX, read_number

__all__ = ["main"]


def seed_number(text: str) -> int:
    """--seed: ASCII digits only (int() would also read '２' or '١٢'), 0 ≤ seed < 2^64."""
    try:
        return read_number(text, "--seed", most=SEED_MAX)
    except NotationError as error:
        raise argparse.ArgumentTypeError(error.message) from None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--engine", choices=("ref", "fast"), default="ref")
    parser.add_argument(
        "--own-deal", action="store_true", help='deal for itself when sent "deal": null'
    )
    parser.add_argument(
        "--seed", type=seed_number, default=0, help="the seed of its own deals (with --own-deal)"
    )
    args = parser.parse_args(argv)
    if not 0 <= args.seed < 2**64:
        parser.error("--seed must be a whole number from 0 to 2^64 - 1")
    if isinstance(sys.stdin, io.TextIOWrapper):  # undecodable bytes: a refusal, not a crash
        # the protocol is UTF-8 whatever the locale (LC_ALL=C would read ASCII)
        sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape")
    install_streams()  # dekal._streams: closed, full or gone streams end it in one line
    try:
        serve(bundled_adapter(args.engine, args.own_deal, args.seed), sys.stdin, sys.stdout)
        sys.stdout.flush()
    except StreamLost as lost:
        # A reader that went away (or was never there, or an input that is closed) ends
        # the service: status 0. A reader that cannot take the replies (a full disk) is an
        # error of the service: one line, status 1.
        if lost.errno not in (errno.EPIPE, errno.EBADF):
            say(f"error: {lost.message}")
            raise SystemExit(1) from None


if __name__ == "__main__":
    main()
