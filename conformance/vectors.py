"""The frozen conformance cases, read from the installed package `dekal.spec`.

Every suite version stays loadable: `load_cases()` reads the newest (SUITE_VERSION, v2),
`load_cases("v1")` the first one, frozen as it was published.

The vectors ship inside the wheel (spec/ is installed as `dekal.spec`), so the suite runs
from anywhere with importlib.resources, not from a checkout. The manifest's hashes are
checked on load: an edited or truncated vector file is reported, never run.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from dekal.conformance import SUITE_VERSION

Case = dict[str, Any]


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
        cases.extend(json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip())
    return cases


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
