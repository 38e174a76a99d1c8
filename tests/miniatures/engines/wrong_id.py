"""Answers hello, then replies with an id it was not sent."""

import json

from fakelib import serve

serve(lambda request: json.dumps({"id": request["id"] + 1000, "ok": True}))
