"""Answers hello with a name that holds a lone surrogate and terminal sequences, then
refuses every case with an error whose kind and message hold them too (a retitled window,
a cleared screen, a right-to-left override)."""

import json
import sys

import fakelib
from fakelib import serve

UNSAFE = "\ud800\x1b]0;pwned\x07\x1b[2J\u202e\x9b31m"

fakelib.HELLO = {**fakelib.HELLO, "name": "fake" + UNSAFE}


def refuse(request: dict[str, object]) -> str:
    error = {"kind": "bad_request" + UNSAFE, "message": "no" + UNSAFE, "rule": "S1" + UNSAFE}
    return json.dumps({"id": request["id"], "ok": False, "error": error})


sys.stderr.write("starting" + UNSAFE.replace("\ud800", "") + "\n")
serve(refuse)
