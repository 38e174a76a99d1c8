"""Headless Chromium for the tests of the HTML report: the DOM a real browser builds.

Debian's `chromium` is needed: without it a browser test skips on a workstation and fails in
CI (CI sets $CI and installs it: see .ci/run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

BROWSER_SECONDS = 120


def chromium() -> str:
    """The Chromium binary; without it the browser test skips, except in CI where it fails."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (CI must install it: see .ci/run)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return found


def dump_dom(page: Path, folder: Path) -> str:
    """The DOM headless Chromium builds from `page`, within BROWSER_SECONDS, process reaped."""
    command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
               f"--user-data-dir={folder / 'profile'}", "--dump-dom", page.as_uri()]  # fmt: skip
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True
    ) as browser:
        try:
            out, _ = browser.communicate(timeout=BROWSER_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(browser.pid, 9)  # the browser's helpers too: its own process group
            browser.communicate()
            pytest.fail(f"chromium did not dump the page within {BROWSER_SECONDS} s")
    return out.decode("utf-8")
