"""Hypothesis profiles shared by every test module.

* default / dev: quick, for a developer's edit-test loop.
* ci: loaded by Hypothesis itself when CI=true (derandomized, no database, print_blob).
* deep: `pytest --hypothesis-profile=deep` for a nightly or local soak (far more examples).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile(
    "deep",
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
if not os.environ.get("CI"):
    settings.load_profile("dev")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `deep` (too slow for the default run) run only under the deep profile."""
    if config.getoption("hypothesis_profile", None) == "deep":
        return
    skip = pytest.mark.skip(reason="deep profile only: pytest --hypothesis-profile=deep")
    for item in items:
        if "deep" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The tests never write to the user's own cache: `dekal conformance fuzz` keeps its
    example database under $XDG_CACHE_HOME, which points into pytest's temporary tree here
    (and into the children the tests start, which inherit the environment)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield
