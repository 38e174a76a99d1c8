"""Random and steered games, played in lock-step against the reference.

Reads: an Engine (drive/), the judge's comparison and blame (judge/), the recorder (cases/).
Hands on: a FuzzReport: every deviation found, shrunk to a short game, saved as a case that
`dekal conformance run --cases` replays.

Modules: _fuzz (the loop), _games (choices, set-ups, steering), _lockstep (one game on both
engines), _shrink (Hypothesis shrinks a deviating game), _records (a game as a record or a
case), _campaign (many workers, the same report).
"""
