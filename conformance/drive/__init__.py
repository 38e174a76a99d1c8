"""Talking to an engine (spec/protocol.md): reads nothing of the rules.

Reads: an engine command line, a Python module (`--python`), or a bundled engine's name.
Hands on: an `Engine` (`_engine_link`) that sends one request and returns one reply within a
deadline (anything else is an EngineError: the judge marks the case errored and restarts the
engine), and is always stopped with every process it started; and the protocol's shapes
(`_protocol`: Message, the public view).

Modules: _protocol (constants, the public view), _adapter (the protocol on top of a Python
game API), _reachable (which loaded positions a game can reach), _serve (the bundled engines
over a pair of streams), _engine_link (the request/reply contract every driver keeps),
_subprocess_engine, _inprocess_engine, _direct_engine (the three drivers: a command line, a
Python factory, our own engines in the caller's thread), _process_group (a child's whole
process tree), _call_watchdog (a deadline in the caller's own thread).
"""
