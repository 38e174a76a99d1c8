"""`python -m dekal.conformance.serve` under hostile input (issue 9; spec/protocol.md).

Whatever line it reads, the bundled engine answers it with exactly one well-formed JSON reply
(a refusal typed `bad_request`, `notation`, `illegal` or `unsupported` where due), echoes the
request's integer id or null when no id can be read, leaves its game unchanged after a
refusal (B1), reads lines in bounded pieces, and ends quietly with status 0 when its reader
goes away.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tracemalloc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dekal.conformance.drive._adapter import MAX_PERFT_DEPTH
from dekal.conformance.drive._protocol import ERROR_KINDS
from dekal.conformance.drive._serve import MAX_LINE_CHARS, bundled_adapter, serve
from dekal_ref import Rules, format_position, new_game, seeded_deal
from dekal_ref.json_reading import MAX_JSON_DEPTH
from dekal_ref.notation import format_grid
from dekal_ref.record.model import format_cards

DEAL = seeded_deal(42, 2)
NEW_GAME = {
    "id": 1,
    "cmd": "new_game",
    "rules": {"players": 2, "push": "slide", "first": "lowest", "threshold": None},
    "deal": {"grids": [format_grid(g) for g in DEAL.grids], "pile": format_cards(DEAL.pile)},
    "first_player": None,
}
START = format_position(new_game(Rules(players=2), DEAL))
HOSTILE = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def strict_json(line: str) -> Any:
    """JSON as the spec means it: NaN and Infinity are not JSON."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(line, parse_constant=refuse)


def replies_to(lines: list[str]) -> list[dict[str, Any]]:
    """Serve `lines` on a fresh reference engine; the replies, each checked well formed."""
    sink = io.StringIO()
    serve(bundled_adapter("ref"), io.StringIO("".join(line + "\n" for line in lines)), sink)
    replies = [strict_json(line) for line in sink.getvalue().split("\n")[:-1]]
    for reply in replies:
        assert isinstance(reply, dict) and isinstance(reply["ok"], bool)
        assert reply["id"] is None or type(reply["id"]) is int
        if not reply["ok"]:
            assert reply["error"]["kind"] in ERROR_KINDS and isinstance(
                reply["error"]["message"], str
            )
            assert reply["error"]["kind"] != "illegal" or "rule" in reply["error"]
    return replies


def request(cmd: str, number: int = 7, **fields: Any) -> str:
    return json.dumps({"id": number, "cmd": cmd, **fields})


# --- lines of every shape -----------------------------------------------------------------

json_leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
json_shapes = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)
COMMANDS = ["hello", "new_game", "action", "position", "legal", "result", "new_round", "score"]
COMMANDS += ["pushes", "push", "quit", "", "HELLO", "perft "]  # perft itself: see below
requests = st.fixed_dictionaries(
    {"id": json_shapes, "cmd": st.sampled_from(COMMANDS) | json_shapes},
    optional={
        "action": st.text(max_size=12) | json_shapes,
        "grid": st.text(max_size=20) | json_shapes,
        "deal": json_shapes,
        "rules": json_shapes,
        "variant": st.sampled_from(["slide", "eject"]) | json_shapes,
        "push": st.text(max_size=3) | json_shapes,
        "card": st.text(max_size=2) | json_shapes,
    },
)
lines = st.one_of(
    st.text(alphabet=st.characters(exclude_characters="\n\r"), max_size=40),
    json_shapes.map(json.dumps),  # NaN and Infinity included: Python writes them bare
    requests.map(json.dumps),
    st.integers(MAX_JSON_DEPTH, 5000).map(lambda depth: "[" * depth + "]" * depth),
)


@HOSTILE
@given(st.lists(lines, max_size=8))
def test_every_line_gets_exactly_one_well_formed_reply(hostile: list[str]) -> None:
    sent = [request("hello", 1), json.dumps(NEW_GAME), *hostile, request("quit", 99)]
    replies = replies_to(sent)
    answered = [line for line in sent if line.strip()]
    quits = [
        number
        for number, (line, reply) in enumerate(zip(answered, replies, strict=False))
        if reply["ok"] and '"quit"' in line
    ]
    assert len(replies) == (quits[0] + 1 if quits else len(answered))


@HOSTILE
@given(lines)
def test_a_refused_line_leaves_the_game_as_it_was(line: str) -> None:
    replies = replies_to(
        [json.dumps(NEW_GAME), request("position", 2), line, request("position", 3)]
    )
    if not replies[2]["ok"] and len(replies) == 4:
        assert replies[1]["position"] == replies[3]["position"] == START


@HOSTILE
@given(json_shapes)
def test_the_id_is_echoed_when_it_is_an_integer_and_null_otherwise(identifier: Any) -> None:
    (reply,) = replies_to([json.dumps({"id": identifier, "cmd": "hello"})])
    readable = type(identifier) is int and abs(identifier) < 2**63
    assert reply["id"] == (identifier if readable else None)
    assert reply["ok"] is readable


# --- the reported crashes, one by one -----------------------------------------------------


def test_a_list_as_cmd_is_a_bad_request() -> None:
    (reply,) = replies_to(['{"id": 5, "cmd": []}'])
    assert (reply["id"], reply["ok"], reply["error"]["kind"]) == (5, False, "bad_request")


def test_a_bare_null_line_is_refused_and_the_next_line_gets_its_own_reply() -> None:
    refused, hello = replies_to(["null", request("hello", 8)])
    assert (refused["id"], refused["error"]["kind"]) == (None, "bad_request")
    assert (hello["id"], hello["ok"]) == (8, True)


@pytest.mark.parametrize("identifier", ["NaN", "Infinity", "-Infinity"])
def test_a_nan_id_is_refused_with_a_null_id_in_strict_json(identifier: str) -> None:
    (reply,) = replies_to([f'{{"id": {identifier}, "cmd": "hello"}}'])
    assert (reply["id"], reply["error"]["kind"]) == (None, "bad_request")


@pytest.mark.parametrize("digit", ["²", "١", "９"])
def test_an_action_with_a_foreign_digit_seat_is_a_notation_refusal(digit: str) -> None:
    replies = replies_to([json.dumps(NEW_GAME), request("action", action=f"reveal {digit} b2")])
    assert (replies[1]["ok"], replies[1]["error"]["kind"]) == (False, "notation")


def test_a_perft_deeper_than_the_bound_is_refused_before_it_starts() -> None:
    replies = replies_to([json.dumps(NEW_GAME), request("perft", depth=MAX_PERFT_DEPTH + 1)])
    assert replies[1]["error"]["kind"] == "bad_request"


def test_a_line_longer_than_the_limit_is_one_refusal_read_in_bounded_memory() -> None:
    source = io.StringIO("x" * (8 * MAX_LINE_CHARS) + "\n" + request("hello", 4) + "\n")
    sink = io.StringIO()
    tracemalloc.start()
    serve(bundled_adapter("ref"), source, sink)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    refused, hello = (strict_json(line) for line in sink.getvalue().splitlines())
    assert (refused["id"], refused["error"]["kind"], hello["id"]) == (None, "bad_request", 4)
    assert peak < 4 * 4 * MAX_LINE_CHARS  # a piece of the line at a time, never all 8 MiB


def test_text_smuggled_in_as_a_lone_surrogate_is_written_as_valid_utf8() -> None:
    sink = io.StringIO()
    serve(bundled_adapter("ref"), io.StringIO('{"id": 1, "cmd": "\\ud800"}\n'), sink)
    sink.getvalue().encode("utf-8")  # would raise on a raw lone surrogate
    assert strict_json(sink.getvalue())["error"]["kind"] == "bad_request"


class ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError


def test_a_reader_that_went_away_ends_serving_without_an_exception() -> None:
    serve(bundled_adapter("ref"), io.StringIO(request("hello") + "\n"), ClosedPipe())


# --- the real process: bytes, and a closed pipe -------------------------------------------

SERVE = [sys.executable, "-m", "dekal.conformance.serve", "--engine", "ref"]


def test_bytes_that_are_not_utf8_are_refused_and_serving_goes_on() -> None:
    done = subprocess.run(
        SERVE,
        input=b'\xff\xfe{"id": 1}\n{"id": 2, "cmd": "quit"}\n',
        capture_output=True,
        timeout=60,
    )
    refused, quit_reply = (strict_json(line) for line in done.stdout.decode("utf-8").splitlines())
    assert (refused["id"], refused["error"]["kind"], quit_reply["id"]) == (None, "bad_request", 2)
    assert done.returncode == 0 and b"Traceback" not in done.stderr


def test_a_closed_stdout_ends_serve_quietly_with_status_0() -> None:
    engine = subprocess.Popen(
        SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert engine.stdin is not None and engine.stdout is not None and engine.stderr is not None
    engine.stdout.close()  # the reader goes away before the first reply
    try:
        engine.stdin.write((request("hello") + "\n").encode() * 2000)
        engine.stdin.close()
    except BrokenPipeError:
        pass  # it may already have ended
    try:
        status = engine.wait(timeout=60)
        errors = engine.stderr.read()
    finally:
        engine.kill()
        engine.wait()
        engine.stderr.close()
    assert status == 0 and b"Traceback" not in errors and b"BrokenPipe" not in errors


NEW_GAME_FIELDS = [
    ("rules", "players"),
    ("rules", "push"),
    ("rules", "first"),
    ("rules", "threshold"),
    ("first_player",),
    ("deal", "grids"),
    ("deal", "pile"),
    ("deal",),
    ("rules",),
]


@HOSTILE
@given(path=st.sampled_from(NEW_GAME_FIELDS), value=json_shapes | st.integers())
def test_a_new_game_with_any_field_of_any_shape_is_played_or_refused(
    path: tuple[str, ...], value: Any
) -> None:
    message = json.loads(json.dumps(NEW_GAME))
    node = message
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    replies = replies_to([json.dumps(message), request("position", 2)])
    assert len(replies) == 2
    if not replies[0]["ok"]:  # no game was started: the next game command says so
        assert replies[1]["error"]["kind"] == "bad_request"
