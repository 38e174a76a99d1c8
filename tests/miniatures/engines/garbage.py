"""Answers hello, then prints text that is not JSON."""

from fakelib import serve

serve(lambda request: "this is not JSON {")
