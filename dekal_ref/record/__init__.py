"""Game records: a whole game or match written down, PGN-like, with a JSON twin (spec/notation.md).

A record holds what happened and nothing that can be derived, except the result, which is
written down so that a reader sees it and a replay can check it: the tags (seats, variants
P1/P2, F1–F4, S4, the seed M3), each round's deal (M3, M5) and actions (T1–T4), each round's
result (S2, S4) and the final places (S3, S4).

Data flows one way, one module per idea:

* model      — GameRecord, RoundRecord, SeatScore, turn_groups: what a record holds;
* text       — format_record / parse_record: the text (.dkr) form;
* json_twin  — record_to_json / record_from_json: the JSON twin;
* playback   — iter_replay, replay, check_result, result_of, ReplayError: playing a record on
  an engine (B1) and checking its written result;
* from_game  — record_from_game: writing a game down as it is played.

Parsing checks only the notation; `replay` plays the record on the reference engine and
refuses an illegal action (B1) or a written result that the replay contradicts, with a
ReplayError naming the round, the turn, the action and the rule.
"""

from dekal_ref.record.from_game import record_from_game
from dekal_ref.record.json_twin import record_from_json, record_to_json
from dekal_ref.record.model import (
    FORMAT,
    GameRecord,
    Move,
    RoundRecord,
    SeatScore,
    turn_groups,
)
from dekal_ref.record.playback import (
    Engine,
    PlayedResult,
    ReplayError,
    Step,
    check_result,
    iter_replay,
    replay,
    result_of,
)
from dekal_ref.record.text import TAG_ORDER, format_record, parse_record

__all__ = [
    "FORMAT",
    "TAG_ORDER",
    "Engine",
    "GameRecord",
    "Move",
    "PlayedResult",
    "ReplayError",
    "RoundRecord",
    "SeatScore",
    "Step",
    "check_result",
    "format_record",
    "iter_replay",
    "parse_record",
    "record_from_game",
    "record_from_json",
    "record_to_json",
    "replay",
    "result_of",
    "turn_groups",
]
