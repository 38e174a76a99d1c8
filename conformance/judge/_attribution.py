"""Which rule a divergence breaks, and which field shows it (spec/protocol.md, section 4).

A failing case or fuzz game diverges at one step: the engine's verdict, position, public
view, legal actions or result differs from the reference's. The runner and the fuzzer both
blame that divergence on one rule, read from the step's action and the field that differs,
so a failure planted in one rule is counted under that rule only (and not under every rule
the case happens to exercise).

The table, in words:

* a verdict that differs (accepted vs refused, or another rule named): the rule the
  reference names when it refuses; when it accepts, the rule that makes the action legal
  (reveal T1, take T3, push P1/P2, new_round M5); a notation refusal: B1; a refusal that
  names no rule: the rule of the request's subject (`blame_subject`); a reachable take- or
  push-phase position refused: T3 or T5, from the seats the engine reads as the taker there
  and one take earlier (`blame_refused_taker`); a finished single round refused with S2 (its
  totals are not the points): S1 or S2, from the engine's own `score` of each seat's grid
  (`_score_reading.blame_refused_totals`);
* a position changed by a refused action: B1;
* the public view alone: M3 (nobody sees a face-down card or a pick);
* a field of the position after an accepted step: the rule the reference applied to write
  it, from its own trace of the step (`blame_step`, dekal.conformance.judge._trace); without a
  trace, `_step_rule` by the field's name (the rules line: the variant it gets wrong,
  `_rules_line_rule`);
* the legal actions: the rule of the phase (reveal T1, take T3, push P1/P2);
* the result: cancelled cells S1, points or cards left S2, totals S4 (S2 in a single round,
  where they are the round's points), ranking S3 (single round) or S4 (match), but places
  numbered otherwise for the same groups of tied seats S3 in a match too (`blame_ranking`);
* a single-grid request (`score`, `pushes`, `push`): S1/S2 for a score, the push rule of the
  variant for pushes (or the rule the reference refuses with);
* perft: the first position, found by descending the divide, whose moves differ: the phase
  rule, as for legal actions.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from dekal.conformance.drive._protocol import Message, position_fields, to_act

RULE_IDS = (
    *(f"M{n}" for n in range(1, 6)),
    *(f"T{n}" for n in range(1, 6)),
    "P1",
    "P2",
    *(f"F{n}" for n in range(1, 5)),
    *(f"S{n}" for n in range(1, 5)),
    "B1",
)
"""Every rule ID of spec/rules.md, in its order."""


@dataclass(frozen=True)
class Blame:
    """A divergence attributed: the rule it breaks and the field where it shows."""

    rule: str
    field: str

    def __str__(self) -> str:
        return f"{self.rule} ({self.field})"


@dataclass(frozen=True)
class Variant:
    """The rules line of a position: `slide/lowest/single`, `eject/chosen/100`…"""

    push: str = "slide"
    first: str = "lowest"
    match: bool = False

    @property
    def push_rule(self) -> str:
        return "P2" if self.push == "eject" else "P1"

    @property
    def end_rule(self) -> str:
        return "S4" if self.match else "T5"


@functools.lru_cache(maxsize=64)  # asked of the same position at every step and probe
def variant_of(position: str) -> Variant:
    parts = position_fields(position).get("rules", "").split("/")
    if len(parts) != 3:
        return Variant()
    return Variant(parts[0], parts[1], parts[2] != "single")


def differing_fields(expected: str, actual: str) -> list[str]:
    """The names of the position fields that differ, a grid named with its seat."""
    want, got = position_fields(expected), position_fields(actual)
    names: list[str] = []
    for name, value in want.items():
        if got.get(name) == value:
            continue
        if name == "grids":
            mine, theirs = value.split("|"), got.get(name, "").split("|")
            seats = [
                seat
                for seat in range(max(len(mine), len(theirs)))
                if seat >= len(mine) or seat >= len(theirs) or mine[seat] != theirs[seat]
            ]
            names.extend(f"grid of seat {seat}" for seat in seats)
        else:
            names.append(name)
    for name in got:
        if name not in want:
            names.append(name)
    return names


def action_word(sent: str) -> str:
    """`reveal`, `take`, `push`, `new_round`, `position` (a game started from a position
    line) or `new_game` for a step's request in words."""
    word = sent.split(" ", 1)[0]
    return word if word in ("reveal", "take", "push", "new_round", "position") else "new_game"


def action_rule(sent: str, variant: Variant) -> str:
    """The rule that makes an action of this kind legal."""
    return {
        "reveal": "T1",
        "take": "T3",
        "push": variant.push_rule,
        "new_round": "M5",
        "new_game": "M3",
        "position": "M3",
    }[action_word(sent)]


def blame_verdict(sent: str, before: str, expect: Message, request: Message | None = None) -> Blame:
    """The engine accepted what the reference refused, refused what it accepted, or named
    another rule. `expect` is the reference's verdict: {"ok": True} or a typed refusal. A
    refusal that names no rule is B1's when the text does not parse (`notation`), else the
    rule of what the request is about (`blame_subject`): never a default."""
    if expect.get("ok"):
        return Blame(action_rule(sent, variant_of(before)), "verdict")
    if "rule" in expect:
        return Blame(str(expect["rule"]), "verdict")
    if expect.get("kind") == "notation":
        return Blame("B1", "verdict")
    return blame_subject(request or {"cmd": _command_of(sent), "action": sent}, before)


def blame_wrong_refusal(reply: Message, fallback: Blame) -> Blame:
    """The engine refused what the reference accepts (a valid set-up, a reachable position, a
    legal action or new round): it misapplied the rule it named, so the refusal is blamed on
    that rule; a refusal that names none is blamed as `fallback` (the request's subject)."""
    error = reply.get("error") if isinstance(reply, dict) else None
    rule = error.get("rule") if isinstance(error, dict) else None
    if isinstance(rule, str) and rule in RULE_IDS:
        return Blame(rule, "verdict (a valid request refused)")
    return fallback


def _command_of(sent: str) -> str:
    word = action_word(sent)
    return {"reveal": "action", "take": "action", "push": "action"}.get(word, word)


def blame_subject(request: Message, position: str = "") -> Blame:
    """A refusal that names no rule (`unsupported`, `bad_request`) blamed on the rule of the
    request's subject: a game's threshold S4, its player count M2, its push variant P1/P2,
    its first-player rule or seat F1/F3, its deal M3; a new round M5; a result, which exists
    once the round is scored, T5 (S4 in a match); a perft count, the rule of the phase whose
    moves it counts; a seeded deal M3 (its player count M2); a single grid's score S1, its
    pushes P1/P2; an action, the rule that makes actions of its kind legal."""
    cmd = str(request.get("cmd", ""))
    variant = variant_of(position)
    if cmd == "new_game":
        return Blame(_setup_subject(request), "verdict")
    if cmd == "new_round":
        return Blame("M5", "verdict")
    if cmd == "result":
        return Blame(variant.end_rule, "result")
    if cmd == "perft":
        return Blame(blame_legal(position).rule, "perft")
    if cmd == "deal":
        players = request.get("players")
        valid = isinstance(players, int) and not isinstance(players, bool)
        return Blame("M3" if valid else "M2", "deal")
    if cmd == "score":
        return Blame("S1", "verdict")
    if cmd in ("push", "pushes"):
        return Blame(push_rule(str(request.get("variant", ""))), "verdict")
    action = request.get("action")
    if cmd == "action" and isinstance(action, str) and action_word(action) != "new_game":
        return Blame(action_rule(action, variant), "verdict")
    return Blame("B1", "verdict")


def _setup_subject(request: Message) -> str:
    """The part of a `new_game` that a rule-less refusal is about, in the order the protocol
    checks a set-up (spec/protocol.md, new_game)."""
    if "position" in request:
        return "M3"
    rules = request.get("rules")
    if not isinstance(rules, dict):
        return "M3"
    players, threshold = rules.get("players"), rules.get("threshold")
    if not isinstance(players, int) or isinstance(players, bool):
        return "M2"
    if threshold is not None and (
        not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 1
    ):
        return "S4"
    first_player = request.get("first_player")
    if first_player is not None and (
        not isinstance(first_player, int) or isinstance(first_player, bool)
    ):
        return "F3"
    push, first = rules.get("push", "slide"), rules.get("first", "lowest")
    if push not in ("slide", "eject"):
        return "P1"
    if first not in ("lowest", "chosen"):
        return "F3"
    if threshold is not None:
        return "S4"  # a match, for an engine that plays single rounds only
    return {"eject": "P2"}.get(str(push), "F1" if first == "lowest" else "F3")


def blame_refused_step_moved(expected: str, actual: str) -> Blame:
    """A refused action changed the position (B1: a refusal leaves the state as it was)."""
    return Blame("B1", ", ".join(differing_fields(expected, actual)) or "position")


def blame_public() -> Blame:
    return Blame("M3", "public view")


def blame_legal(position: str) -> Blame:
    """The legal actions differ: the rule of the phase the position is in."""
    phase = position_fields(position).get("phase", "")
    if phase.startswith("take@"):
        return Blame("T3", "legal actions")
    if phase.startswith("push@"):
        return Blame(variant_of(position).push_rule, "legal actions")
    if phase in ("next", "over"):
        return Blame(variant_of(position).end_rule, "legal actions")
    return Blame("T1", "legal actions")


def blame_perft(position: str) -> Blame:
    """The perft count differs: perft counts the legal actions, so the rule of the phase."""
    return Blame(blame_legal(position).rule, "perft")


RESULT_PARTS = ("cancelled", "points", "remaining", "totals", "ranking")
"""The parts of a result in the order one causes the next: cancelled cells (S1) decide points
and cards left (S2), which add up to totals (S4) and decide the ranking (S3, S4)."""


def blame_result(part: str, position: str, seat: int | None = None) -> Blame:
    """`part` is one of RESULT_PARTS; `seat` names the seat in the field of a seat's score.

    Totals are S4 in a match; in a single round they are the round's points (S2)."""
    variant = variant_of(position)
    rule = {
        "cancelled": "S1",
        "points": "S2",
        "remaining": "S2",
        "totals": "S4" if variant.match else "S2",
        "ranking": "S4" if variant.match else "S3",
    }[part]
    label = {"cancelled": "cancelled cells", "remaining": "cards left"}.get(part, part)
    return Blame(rule, label if seat is None else f"{label} of seat {seat}")


def blame_ranking(wanted: object, actual: object, position: str) -> Blame:
    """The ranking differs (`wanted`, `actual`: [place, seat] pairs, best first).

    The keys decide who shares a place with whom and who comes first: S3 in a single round
    (points, then cards left), S4 in a match (totals alone). How shared places are numbered
    (as in sport: 1, 1, 3) and how tied seats are listed (by ascending seat) is S3's in a
    match too, where S4 shares places "as in S3". So a ranking that groups and orders the
    seats as the reference does, with other place numbers or tied seats listed otherwise,
    is blamed on S3, never on the totals that only decide the groups (issue 27)."""
    groups = _ranking_groups(wanted)
    if groups is not None and groups == _ranking_groups(actual):
        return Blame("S3", "ranking (places shared as in sport)")
    return blame_result("ranking", position)


def _ranking_groups(ranking: object) -> list[frozenset[object]] | None:
    """The seats sharing each place, best place first; None for a ranking that does not
    read as [place, seat] pairs."""
    if not isinstance(ranking, list):
        return None
    pairs = [tuple(entry) for entry in ranking if isinstance(entry, list) and len(entry) == 2]
    if len(pairs) != len(ranking):
        return None
    groups: list[frozenset[object]] = []
    for index, (place, seat) in enumerate(pairs):
        if index and place == pairs[index - 1][0]:
            groups[-1] = groups[-1] | {seat}
        else:
            groups.append(frozenset({seat}))
    return groups


def push_rule(variant: str) -> str:
    """P2 for the eject variant, P1 for slide."""
    return "P2" if variant == "eject" else "P1"


def blame_grid_request(variant: str, field: str, expect: Message | None = None) -> Blame:
    """A single-grid push request (`pushes`, `push`) that differs in `field` (verdict, grid,
    legal pushes): a refusal the reference gives names its own rule (M1, T4…), a notation
    refusal is B1, everything else (a missing variant: bad_request) is the push rule of the
    variant."""
    refused = expect is not None and not expect.get("ok")
    if refused and expect is not None and ("rule" in expect or expect.get("kind") == "notation"):
        return Blame(str(expect.get("rule", "B1")), field)
    return Blame(push_rule(variant), field)


def blame_perft_moves(position: str) -> Blame:
    """perft found other moves than the reference in `position`: the phase rule, as for
    differing legal actions (perft's moves are the legal actions, joint reveals joined)."""
    return Blame(blame_legal(position).rule, "perft moves")


def blame_position(sent: str, expected: str, actual: str) -> Blame:
    """The position after an accepted step differs: blame the first differing field, read
    in the order in which a step changes things (the rule of an earlier field explains the
    later ones: a wrong start seat also moves the phase)."""
    fields = differing_fields(expected, actual)
    if not fields:
        return Blame(action_rule(sent, variant_of(expected)), "position")
    field = sorted(fields, key=_field_order)[0]
    if field == "rules":
        return Blame(_rules_line_rule(expected, actual), field)
    return Blame(_step_rule(action_word(sent), field, expected), field)


def _rules_line_rule(expected: str, actual: str) -> str:
    """The rules line (`slide/lowest/single`) names the variants: a wrong push variant is
    P1/P2's, a wrong first-player rule F1/F3's, a wrong threshold S4's; anything else
    (a line that does not read) is the set-up's, M3."""
    want, got = variant_of(expected), variant_of(actual)
    want_line = position_fields(expected).get("rules", "")
    got_line = position_fields(actual).get("rules", "")
    if len(got_line.split("/")) != 3:
        return "M3"
    if want.push != got.push:
        return want.push_rule
    if want.first != got.first:
        return "F3" if want.first == "chosen" else "F1"
    if want_line.split("/")[2] != got_line.split("/")[2]:
        return "S4"
    return "M3"


_ORDER = ("rules", "round.turn", "removed", "start", "grids", "picks", "centre", "pile", "phase")


def _field_order(name: str) -> int:
    base = "grids" if name.startswith("grid of seat") else name
    return _ORDER.index(base) if base in _ORDER else len(_ORDER)


def _step_rule(word: str, field: str, expected: str) -> str:
    """The rule of `field` after an accepted step of kind `word` (reveal, take, push…)."""
    variant = variant_of(expected)
    base = "grids" if field.startswith("grid of seat") else field
    if base == "totals":
        return "S4" if variant.match else "S2"
    if word == "new_round":
        return "F4" if base == "start" else "M5"
    if base == "start":
        if variant.first == "chosen":
            return "F3"
        return "F2" if position_fields(expected).get("removed", "-") != "-" else "F1"
    if base == "removed" or (base == "pile" and word != "new_game"):
        return "F2"  # only a tie-break draw takes cards from the pile during a round
    if word == "new_game":
        return "M3"
    if word == "position":
        return _loaded_position_rule(base, expected, variant)
    if base == "round.turn":
        return "T5"  # the turn counter moves when the token passes
    if word == "reveal":
        return _after_reveal_rule(base, expected)
    if word == "take":
        return "T4" if base == "phase" else "T3"
    # a push: the grid is P1/P2; what follows it is the next taker (T3) or the turn's end (T5)
    if base == "phase":
        return _after_push_rule(expected, variant)
    return variant.push_rule


def blame_refused_position(position: str) -> Blame:
    """An engine refuses a reachable position line (feature `position`): it disagrees with
    the rule that decides who acts there, the field a position states and an engine derives
    (the token from the start seat and the turn, T5; the reveal, T1; the round's end)."""
    return Blame(_loaded_position_rule("phase", position, variant_of(position)), "verdict")


def _loaded_position_rule(base: str, expected: str, variant: Variant) -> str:
    """A game started from a position line shows it back otherwise: the field names the rule
    the engine reads wrongly (the seat to act follows the token, T5; the picks are T1's; the
    centre T3's; the grids, M3's notation of face-down cards)."""
    if base == "phase":
        phase = position_fields(expected).get("phase", "")
        if phase in ("next", "over"):
            return variant.end_rule
        if "@" not in phase:
            return "T1"
        # the token holder acts first (T5 moves the token); a later taker is T3's order on
        # turn 1, where the token has not moved, and past it most likely follows a token
        # moved otherwise (T5): which of the two the engine got wrong, a refusal cannot say
        turn = position_fields(expected).get("round.turn", "").partition(".")[2]
        if to_act(expected) == token_of(expected) or turn != "1":
            return "T5"
        return "T3"
    return {"picks": "T1", "centre": "T3"}.get(base, "M3")


def _after_reveal_rule(base: str, expected: str) -> str:
    """After a reveal: the picks, the holes and the centre are T1's; the seat that takes
    first is the token holder, which moves left each turn (T5) from the start seat (T3 on
    turn 1, whose start seat is judged by F1–F3 above)."""
    fields = position_fields(expected)
    if base == "phase" and fields.get("phase", "").startswith("take@"):
        turn = fields.get("round.turn", "1.1").partition(".")[2]
        return "T3" if turn == "1" else "T5"
    return "T1"


def _after_push_rule(expected: str, variant: Variant) -> str:
    """After a push, the phase says who takes next (T3, from the token clockwise), or that
    the turn ended (T5: the token passes left), or that the round was scored (T5/S4)."""
    phase = position_fields(expected).get("phase", "")
    if phase in ("next", "over"):
        return variant.end_rule
    if phase == "reveal":
        return "T5"
    return "T3"


def blame_step(before: str, sent: str, expected: str, actual: str, deal: Any = None) -> Blame:
    """The position after an accepted step differs: blame the rule the reference applied to
    produce the first differing field, read from its own trace of the step
    (dekal.conformance.judge._trace), in the order it applied them.

    An engine that went on by itself (it played the last take, revealed the last face-down
    cards) broke the rule of the first action it played unasked (T3, T1). A field the
    reference did not touch at this step, changed by the engine, comes first: it is blamed on
    the rule that governs changes to it (`_untouched_rule`). Without a trace (the step cannot
    be replayed from `before`, or the reference does not reach `expected`) the field's name
    decides (`blame_position`)."""
    from dekal.conformance.judge._trace import forced_action, trace_step

    fields = differing_fields(expected, actual)
    if not fields or not before:
        return blame_position(sent, expected, actual)
    field_order = sorted(fields, key=_field_order)
    if field_order[0] == "rules":
        return Blame(_rules_line_rule(expected, actual), "rules")
    forced = forced_action(expected, actual)
    if forced is not None:
        rule = action_rule(forced, variant_of(expected))
        return Blame(rule, f"{field_order[0]}, a {action_word(forced)} played unasked")
    decided = _decided_rule(before, sent, expected, actual)
    if decided is not None:
        return decided
    trace = trace_step(before, sent, deal)
    if trace is None or trace.after != expected:
        return blame_position(sent, expected, actual)
    # a field the reference left alone comes first: the engine did something more (a first
    # player found again on a later turn moves the start, and with it who takes first)
    untouched = [name for name in field_order if trace.rule_of(name) is None]
    field = untouched[0] if untouched else min(field_order, key=trace.order_of)
    traced = trace.rule_of(field)
    if traced is None:
        return Blame(_untouched_rule(field, before, sent, expected, actual), field)
    if traced == "F2" and _start_of(actual) not in trace.tied:
        traced = "F1"  # the first player is not one of the seats tied for the lowest card
    return Blame(traced, field)


def _faces_alone_differ(expected: str, actual: str) -> bool:
    """The grids hold the same values in the same cells, and every cell that differs is a
    face-down card turned up (T4: the cards a push moves keep their face). A push along the
    wrong cells that happens to leave equal values in place turns faces both ways, or down."""
    face_up = str.maketrans("abcdefghij", "123456789T")
    if len(expected) != len(actual) or expected == actual:
        return False
    return all(
        want == got or (want.islower() and want.translate(face_up) == got)
        for want, got in zip(expected, actual, strict=True)
    )


def _decided_rule(before: str, sent: str, expected: str, actual: str) -> Blame | None:
    """The rule that decides what differs, where the fields that follow from it would point
    elsewhere (issue 27): a round that ends one turn early or late is T5's (after 16 turns
    the round is scored; the totals only follow); a push that leaves every value where it
    should be but turns a face is T4's, not the push rule's (the cards it moves keep their
    face); with the start seat right, a first taker other than the token holder is T3's
    ("from the token holder, clockwise"), the token holder of a token passed the other way
    T5's, and on turn 1 of a later round the seat of the lowest card taking first F4's (F1-F2
    are not applied again)."""
    want, got = position_fields(expected), position_fields(actual)
    word = action_word(sent)
    scored_want = want.get("phase") in ("next", "over")
    scored_got = got.get("phase") in ("next", "over")
    if word == "push" and scored_want != scored_got:
        return Blame("T5", "phase (the end of the round)")
    if word == "push" and _faces_alone_differ(want.get("grids", ""), got.get("grids", "")):
        return Blame("T4", "grids (the faces of the cards a push moves: they keep theirs)")
    phase_want, phase_got = want.get("phase", ""), got.get("phase", "")
    if not (word == "reveal" and phase_want.startswith("take@") and phase_got.startswith("take@")):
        return None
    if phase_want == phase_got or want.get("start") != got.get("start"):
        return None
    taker = to_act(actual)
    round_number, _, turn = want.get("round.turn", "").partition(".")
    later_round = turn == "1" and round_number != "1"
    if later_round and taker is not None and taker == _lowest_seat(before, expected):
        return Blame("F4", "phase (the first taker of a later round)")
    start, players = _start_of(expected), want.get("grids", "").count("|") + 1
    if start is not None and turn.isdigit() and taker == (start - int(turn) + 1) % players:
        return Blame("T5", "phase (the token passed the other way)")
    return Blame("T3", "phase (the first taker)")


def _lowest_seat(before: str, expected: str) -> int | None:
    """The seat that revealed the single lowest card in the reveal that led from `before` to
    `expected` (None on a tie, or when the positions do not tell)."""
    try:
        grids_before = position_fields(before)["grids"].split("|")
        grids_after = position_fields(expected)["grids"].split("|")
    except KeyError:
        return None
    revealed: list[int] = []
    for mine, theirs in zip(grids_before, grids_after, strict=False):
        cells = [a for a, b in zip(mine, theirs, strict=False) if a != b and b == "."]
        if len(cells) != 1 or cells[0] not in "abcdefghij":
            return None
        revealed.append("abcdefghij".index(cells[0]) + 1)
    if not revealed or revealed.count(min(revealed)) != 1:
        return None
    return revealed.index(min(revealed))


def token_of(position: str) -> int | None:
    """T5: the seat holding the token, (start + turn − 1) mod n."""
    fields, start = position_fields(position), _start_of(position)
    turn = fields.get("round.turn", "").partition(".")[2]
    players = fields.get("grids", "").count("|") + 1
    if start is None or not turn.isdigit():
        return None
    return (start + int(turn) - 1) % players


def _start_of(position: str) -> int | None:
    start = position_fields(position).get("start", "")
    return int(start) if start.isdigit() and len(start) <= 2 else None


def _untouched_rule(field: str, before: str, sent: str, expected: str, actual: str) -> str:
    """The engine changed a field the reference left as it was at this step: the rule that
    governs changes to that field. Picks and holes come from reveals (T1); the centre shrinks
    by takes (T3) and fills by reveals (T1); the first player is found on turn 1 of round 1
    only (else T2: a low card later gives nothing), the turn moves by T5, totals by scoring."""
    variant = variant_of(expected)
    base = "grids" if field.startswith("grid of seat") else field
    first_turn = position_fields(before).get("round.turn") == "1.1"
    if base in ("picks", "grids"):
        return "T1"
    if base == "centre":
        want, got = (
            position_fields(expected).get("centre", "-"),
            position_fields(actual).get("centre", "-"),
        )
        return "T3" if len(got.strip("-")) < len(want.strip("-")) else "T1"
    fields = position_fields(expected)
    if base == "start" and fields.get("phase") in ("next", "over"):
        # the start moves only when a new round is dealt (F4), never at scoring
        return "F4" if variant.match else ("F3" if variant.first == "chosen" else "F1")
    round_number, _, turn = fields.get("round.turn", "").partition(".")
    if base in ("start", "removed", "pile") and turn == "1" and round_number != "1":
        return "F4"  # turn 1 of a later round: F1-F2 are not applied again
    if base in ("start", "removed", "pile"):
        return _step_rule(action_word(sent), base, expected) if first_turn else "T2"
    if base == "round.turn":
        return "T5"
    if base == "totals":
        return "S4" if variant.match else "S2"
    return action_rule(sent, variant)
