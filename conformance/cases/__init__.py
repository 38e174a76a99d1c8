"""What is checked: the frozen conformance vectors and how they are made.

Reads: spec/conformance/ (the frozen suites v1, v2, v3 with their manifest, and the source
files of spec/conformance/sources/); the reference engine, through drive's adapter, to
derive what every case expects.
Hands on: cases (`_vectors.load_cases`: plain JSON objects checked against
spec/schemas/conformance-case.schema.json), what each case needs of an engine (`_needs`,
and the `--smoke` subset), and the own-deal translation of a case (`_own_deal`).

Modules: _vectors (load, hashes), _needs (needs, core cases, smoke), _own_deal, _suites/
(each suite's sources: v1, v2, v3), _source_files and _source_types (the source format),
_deals (deals written in the sources), _generate, _generate_games, _generate_units
(derivation), _recorder (a game played on the reference, recorded step by step), _probe
(the refusals a game is probed with at every step).
"""
