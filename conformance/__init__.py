"""The conformance suite: judge any Dékal implementation, in any language, rule by rule.

* `protocol`: the engine protocol of spec/protocol.md (constants, the public view).
* `adapter`: speaks the protocol in-process on top of a Python game API (dekal_ref or
  dekal.engines); `serve` runs it over standard input/output.
* `client`: drives an engine, in-process or as a subprocess with time limits and restarts.
* `vectors`: loads the frozen cases of spec/conformance/VERSION (v4 by default, v1 to v3
  still loadable) from the installed package.
* `generate`: derives those cases with the reference from their sources, the data files of
  spec/conformance/sources/ (read by `source_files` for `sources`, `sources_v2` and
  `sources_v3`); `probe`: the refusals a game is probed with at every step;
  `refusal_sites`: which refusal branches of the reference a suite reaches.
* `runner` and `report`: run cases and report rule by rule; `fuzz`: random lock-step games.
"""

from __future__ import annotations

PROTOCOL_VERSION = 1
SUITE_VERSION = "v4"
SUITE_VERSIONS = ("v1", "v2", "v3", "v4")
"""Every suite that can be loaded, oldest first; SUITE_VERSION is the newest."""
