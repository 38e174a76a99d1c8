"""The conformance suite: judge any Dékal implementation, in any language, rule by rule.

* `protocol`: the engine protocol of spec/protocol.md (constants, the public view).
* `adapter`: speaks the protocol in-process on top of a Python game API (dekal_ref or
  dekal.engines); `serve` runs it over standard input/output.
* `client`: drives an engine, in-process or as a subprocess with time limits and restarts.
* `vectors`: loads the frozen cases of spec/conformance/VERSION (v2 by default, v1 still
  loadable) from the installed package.
* `generate`, `sources` (v1) and `sources_v2`: derive those cases from readable sources with
  the reference.
* `runner` and `report`: run cases and report rule by rule; `fuzz`: random lock-step games.
"""

from __future__ import annotations

PROTOCOL_VERSION = 1
SUITE_VERSION = "v2"
SUITE_VERSIONS = ("v1", "v2")
"""Every suite that can be loaded, oldest first; SUITE_VERSION is the newest."""
