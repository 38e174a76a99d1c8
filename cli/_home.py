"""A home folder that is missing or unusable makes nothing above it (issue 29).

`HOME=/nonexistent dekal simulate --plot run.svg` must not create /nonexistent/.config:
the libraries a command loads keep their caches under $HOME (matplotlib makes its folder
with every missing parent, and as root it succeeds anywhere). `guard_home`, called first
thing by the `dekal` command, points them at a private temporary folder, removed at exit,
when $HOME is not an existing folder this user may write in. Dékal's own cache (the fuzz
example database) is then not kept at all: dekal.conformance.fuzz._shrink.default_database_path.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

CACHES = ("MPLCONFIGDIR",)
"""The variables that move a library's folder out of $HOME (only where it is not set)."""


def usable_home() -> bool:
    """Is $HOME an existing folder this user may make files in?"""
    home = os.environ.get("HOME") or ""
    return os.path.isabs(home) and os.path.isdir(home) and os.access(home, os.W_OK | os.X_OK)


def guard_home() -> None:
    """Where $HOME is unusable, give the libraries' caches a private temporary folder."""
    if usable_home() or all(variable in os.environ for variable in CACHES):
        return
    try:
        private = tempfile.mkdtemp(prefix="dekal-home-")
    except OSError:
        return  # no temporary folder either: the libraries fall back on their own
    atexit.register(shutil.rmtree, private, True)
    for variable in CACHES:
        os.environ.setdefault(variable, private)
