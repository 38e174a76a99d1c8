"""Hypothesis profiles shared by every test module.

* default / dev: quick, for a developer's edit-test loop.
* ci: loaded by Hypothesis itself when CI=true (derandomized, no database, print_blob).
* deep: `pytest --hypothesis-profile=deep` for a nightly or local soak (far more examples).
"""

from __future__ import annotations

import os

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
