"""What the fake engines share: a hello reply and a loop that answers one line per request.

The fake engines are hostile on purpose (tests/hostile/test_hostile_engines.py drives them). Every
argument they are given is ignored, so a test can pass a unique marker and find any process
an engine left behind by scanning the process table for it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

HELLO = {
    "name": "fake",
    "version": "0",
    "protocol": 1,
    "players": [2],
    "variants": {"push": ["slide"], "first": ["lowest"]},
    "features": [],
}


def hello(request: dict[str, Any]) -> str:
    return json.dumps({"id": request["id"], "ok": True, **HELLO})


def serve(answer: Callable[[dict[str, Any]], str | None]) -> None:
    """Answer hello properly, every other request with `answer` (None: say nothing)."""
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("cmd") == "quit":
            return
        reply = hello(request) if request.get("cmd") == "hello" else answer(request)
        if reply is not None:
            sys.stdout.write(reply + "\n")
            sys.stdout.flush()
