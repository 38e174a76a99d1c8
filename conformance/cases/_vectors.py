"""The frozen conformance cases, read from the installed package `dekal.spec`.

Every suite version stays loadable: `load_cases()` reads the newest (SUITE_VERSION),
`load_cases("v1")` the first one, frozen as it was published.

The vectors ship inside the wheel (spec/ is installed as `dekal.spec`), so the suite runs
from anywhere with importlib.resources, not from a checkout. The manifest's hashes are
checked on load: an edited or truncated vector file is reported, never run.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterator
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from dekal_ref.errors import NotationError
from dekal_ref.json_reading import read_json

Case = dict[str, Any]

MAX_CASE_FILE_CHARS = 64 * 1024 * 1024
"""The longest case file read (64 MiB; the whole v1 suite is about 2 MiB)."""

SUITE_VERSION = "v4"
SUITE_VERSIONS = ("v1", "v2", "v3", "v4")
"""Every suite that can be loaded, oldest first; SUITE_VERSION is the newest."""


class SuiteError(Exception):
    """The installed vectors do not match their manifest."""


def suite_directory(version: str = SUITE_VERSION) -> Traversable:
    return resources.files("dekal.spec").joinpath("conformance", version)


def schema(name: str = "conformance-case") -> Any:
    return json.loads(
        resources.files("dekal.spec").joinpath("schemas", f"{name}.schema.json").read_text("utf-8")
    )


def manifest(version: str = SUITE_VERSION) -> Any:
    return json.loads(suite_directory(version).joinpath("manifest.json").read_text("utf-8"))


def load_cases(version: str = SUITE_VERSION) -> list[Case]:
    """Every case of the suite, file by file in manifest order, hashes checked."""
    directory = suite_directory(version)
    cases: list[Case] = []
    for name, entry in manifest(version)["files"].items():
        data = directory.joinpath(name).read_bytes()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise SuiteError(f"{name} does not match the manifest's hash: the suite was altered")
        try:
            cases.extend(_file_cases(name, data))
        except (UnicodeDecodeError, NotationError) as error:
            raise SuiteError(f"{name} cannot be read: {error}") from None
    return cases


@functools.lru_cache(maxsize=16)
def _file_cases(name: str, data: bytes) -> tuple[Case, ...]:
    """The cases of one case file, parsed once per process for the same bytes (whose hash
    load_cases checks on every call): an in-process caller running the suite again (a test,
    a notebook) does not parse 4,000 lines again. The cases are shared: read, never changed."""
    return tuple(case for _, case in case_lines(data.decode("utf-8"), name))


def case_lines(text: str, name: str) -> Iterator[tuple[int, Any]]:
    """The JSON value of each non-blank line of a case file, with its line number.

    Each line is read by dekal_ref.json_reading (bounded depth and size, no NaN); a line that
    cannot be read is a NotationError naming `name:line`. The schema is checked elsewhere."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, read_json(line, f"{name}:{number}")


def matches(case: Case, tokens: list[str]) -> bool:
    """--filter: a case matches a token that is its ID, an ID prefix, one of its rule IDs,
    or its kind (score, pushes, push, setup, game, perft, deal)."""
    return any(
        token == case["id"]
        or case["id"].startswith(token)
        or token in case["rules"]
        or token == case["kind"]
        for token in tokens
    )
