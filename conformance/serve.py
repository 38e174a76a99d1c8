"""A protocol-speaking engine over standard input/output (spec/protocol.md).

    python -m dekal.conformance.serve --engine ref      # the literal reference engine
    python -m dekal.conformance.serve --engine fast     # the optimized engine

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


def bundled_adapter(engine: str) -> ProtocolAdapter:
    """The protocol adapter of a bundled engine, named as `hello` reports it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        release = version("dekal")
    except PackageNotFoundError:
        release = "0"
    return ProtocolAdapter(game_api(engine), name=f"dekal-{engine}", version=release)


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
    args = parser.parse_args(argv)
    serve(bundled_adapter(args.engine), sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
