"""The conformance suite: judge any Dékal implementation, in any language, rule by rule.

* `protocol`: the engine protocol of spec/protocol.md (constants, the public view).
* `adapter`: speaks the protocol in-process on top of a Python game API (dekal_ref or
  dekal.engines); `serve` runs it over standard input/output.
* `client`: drives an engine, in-process or as a subprocess with time limits and restarts.
* `vectors`: loads the frozen cases of spec/conformance/v1 from the installed package.
* `generate` and `sources`: derive those cases from readable sources with the reference.
* `runner` and `report`: run cases and report rule by rule; `fuzz`: random lock-step games.
"""

from __future__ import annotations

PROTOCOL_VERSION = 1
SUITE_VERSION = "v1"
