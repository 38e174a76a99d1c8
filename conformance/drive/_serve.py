"""A protocol-speaking engine over a pair of streams (spec/protocol.md): the loop behind
`python -m dekal.conformance.serve`.

It reads one JSON request per line and writes one JSON reply per line, so the conformance
runner's subprocess path is exercised end to end with engines we trust.

Whatever it is sent, it answers every line with exactly one well-formed JSON reply: a line
that is not a JSON object (not JSON, `null`, a list, over-long, not UTF-8, nested deeper
than dekal_ref.json_reading allows, holding NaN) is refused with `bad_request` and `id`
null, since no id can be read from it; a request whose `cmd` or `id` is not what the
protocol says is refused by the adapter. A reader that closes its end stops it quietly
with status 0.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Iterator
from typing import Any, TextIO

from dekal._streams import encodes
from dekal.conformance.drive._adapter import ProtocolAdapter, request_id
from dekal.conformance.drive._protocol import Message, refusal
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import json_line, read_json
from dekal_ref.reading import describe_json


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


MAX_LINE_CHARS = 1024 * 1024
"""The longest request line read (1 MiB; the longest request, a new_game, is under 1 KiB).
A longer line is answered with one bad_request, its rest read and dropped."""


def request_lines(source: TextIO, limit: int = MAX_LINE_CHARS) -> Iterator[str | None]:
    """Each line of `source`, or None for a line longer than `limit` (read in pieces of at
    most `limit` characters, so that memory stays bounded whatever the line's length)."""
    while line := source.readline(limit + 1):
        if len(line) <= limit or line.endswith("\n"):
            yield line
            continue
        while (rest := source.readline(limit)) and not rest.endswith("\n"):
            pass  # the rest of an over-long line: dropped
        yield None


def refused(message: str) -> Message:
    """The reply to a line that is not a readable request: `bad_request`, and `id` null
    because no id can be read from it (spec/protocol.md, "Replies that refuse")."""
    return {"id": None, "ok": False, "error": refusal("bad_request", message)}


def reply_to(adapter: ProtocolAdapter, line: str | None) -> tuple[Message, bool]:
    """The one reply to one input line, and whether it was an accepted `quit`; never an
    exception."""
    if line is None:
        return refused(f"a request line is at most {MAX_LINE_CHARS} characters"), False
    if not line.isascii() and not _is_utf8(line):
        return refused("the line is not UTF-8 text"), False
    try:
        request = read_json(line, "request", max_chars=MAX_LINE_CHARS + 1)
    except NotationError as error:
        return refused(error.message), False
    if not isinstance(request, dict):
        return refused(f"a request is a JSON object, not {describe_json(request)}"), False
    try:
        reply = adapter.handle(request)
    except Exception as error:  # a bug in the engine: say so, log it, keep serving
        traceback.print_exc(file=sys.stderr)
        reply = refused(f"the engine failed on this request ({type(error).__name__})")
        reply["id"] = request_id(request)
    return reply, reply.get("ok") is True and request.get("cmd") == "quit"


def _is_utf8(line: str) -> bool:
    """False if the line holds undecodable bytes (read with errors="surrogateescape")."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def reply_line(reply: Message) -> str:
    """The reply as one line of JSON. Text the request smuggled in as a lone surrogate
    (`"\\ud800"` is valid JSON) cannot be written as UTF-8, and an ASCII locale cannot
    write any non-ASCII text as it is (dekal._streams): then every non-ASCII character is
    escaped instead."""
    text = json_line(reply)
    if not text.isascii() and not (_is_utf8(text) and encodes(text)):
        text = json.dumps(reply, separators=(",", ":"))
    return text + "\n"


def serve(adapter: ProtocolAdapter, source: TextIO, sink: TextIO) -> None:
    """Answer requests until `quit`, the end of input, or a reader that went away.

    Every input line gets exactly one reply, except lines of only white space, which are not
    requests (spec/protocol.md: no blank lines) and get none."""
    for line in request_lines(source):
        if line is not None and not line.strip():
            continue
        reply, quit = reply_to(adapter, line)
        try:
            sink.write(reply_line(reply))
            sink.flush()
        except BrokenPipeError:
            return  # nobody reads the replies any more: nothing left to do
        if quit:
            return
