"""A protocol-speaking engine over standard input/output (spec/protocol.md).

    python -m dekal.conformance.serve --engine ref      # the literal reference engine
    python -m dekal.conformance.serve --engine fast     # the optimized engine
    python -m dekal.conformance.serve --engine ref --own-deal --seed 7
                        # an engine that deals for itself (hello "deals": "own"): given
                        # "deal": null it deals from its own SplitMix64 generator seeded 7

It reads one JSON request per line and writes one JSON reply per line, so the conformance
runner's subprocess path is exercised end to end with engines we trust.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from dekal.conformance.adapter import ProtocolAdapter
from dekal.conformance.protocol import refusal


def game_api(engine: str) -> Any:
    """The game API of a bundled engine: `ref` (dekal_ref) or `fast` (dekal.engines)."""
    if engine == "ref":
        import dekal_ref

        return dekal_ref
    from dekal.engines import get_engine

    return get_engine(engine)


def bundled_adapter(engine: str, own_deal: bool = False, seed: int = 0) -> ProtocolAdapter:
    """The protocol adapter of a bundled engine, named as `hello` reports it; with
    `own_deal`, one that deals for itself from `seed` (spec/protocol.md, own-deal mode)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        release = version("dekal")
    except PackageNotFoundError:
        release = "0"
    deals = "own" if own_deal else "given"
    return ProtocolAdapter(
        game_api(engine), name=f"dekal-{engine}", version=release, deals=deals, seed=seed
    )


def serve(adapter: ProtocolAdapter, source: TextIO, sink: TextIO) -> None:
    """Answer requests until `quit` or the end of input."""
    for line in source:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            request = None
            reply: dict[str, Any] = {
                "id": None,
                "ok": False,
                "error": refusal("bad_request", f"not JSON: {error}"),
            }
        if isinstance(request, dict):
            reply = adapter.handle(request)
        elif request is not None:
            reply = {"id": None, "ok": False, "error": refusal("bad_request", "not an object")}
        sink.write(json.dumps(reply, separators=(",", ":"), ensure_ascii=False) + "\n")
        sink.flush()
        if isinstance(request, dict) and request.get("cmd") == "quit":
            return


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--engine", choices=("ref", "fast"), default="ref")
    parser.add_argument(
        "--own-deal", action="store_true", help='deal for itself when sent "deal": null'
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="the seed of its own deals (with --own-deal)"
    )
    args = parser.parse_args(argv)
    if not 0 <= args.seed < 2**64:
        parser.error("--seed must be a whole number from 0 to 2^64 - 1")
    serve(bundled_adapter(args.engine, args.own_deal, args.seed), sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
