"""Answers hello, then reads every request and never answers one."""

from fakelib import serve

serve(lambda request: None)
