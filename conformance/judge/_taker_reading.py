"""Which seat an engine reads as the taker, found by loading positions next to the one it
refused: the take phase just before a push (`before_the_take`), the same turn one take
earlier (`one_take_earlier`), and the rule its readings point to (`blame_refused_taker`:
the token holder, T5, or the order of the seats still to take, T3).
"""

from __future__ import annotations

from dekal.conformance.drive._protocol import position_fields, to_act
from dekal.conformance.judge._attribution import Blame, blame_refused_position, token_of

_FACE_UP = "123456789T"


def blame_refused_taker(position: str, read_as: int | None, read_before: int | None) -> Blame:
    """A reachable take-phase position the engine refuses, with the seat it reads as the
    taker (`read_as`: the seat of the one `take@S` it loads instead) and the seat it reads
    one take earlier in the same turn (`read_before`, in `one_take_earlier`); None where it
    loads none.

    The seat to take is decided by two rules: the token holder (T5: it passes left each turn
    from the start seat) and the order from it (T3: clockwise, each seat once). Going back
    one take, an engine that reads the order right moves its taker back one seat, whatever
    it thinks of the token (T5's misreading); one that moves it forward or not at all reads
    the order otherwise (T3's). With one reading only, or none, the refusal is blamed as
    `blame_refused_position` says (a refusal of the token holder's take is T5's)."""
    fields = position_fields(position)
    players = fields.get("grids", "").count("|") + 1
    token, taker = token_of(position), to_act(position)
    if read_as is None or read_before is None or token is None or taker is None or players < 3:
        return blame_refused_position(position)
    step = (read_as - read_before) % players
    if step == 1:
        return Blame("T5", "verdict (the token holder)")
    if step in (0, players - 1):
        return Blame("T3", "verdict (the seats still to take)")
    return blame_refused_position(position)


def one_take_earlier(position: str) -> str | None:
    """A take-phase `position` with one take fewer made this turn: the last seat that took
    gets a hole where its first face-up card was, and that card goes back to the centre;
    None at the token holder's take (no take made yet) or where no such card is. The seat
    to take is then the one before (a position the reference must still accept)."""
    fields = position.split(" ")
    token, taker = token_of(position), to_act(position)
    if len(fields) != 10 or token is None or taker is None or taker == token:
        return None
    grids = fields[4].split("|")
    last = (taker - 1) % len(grids)
    cells = grids[last]
    face_up = next((i for i, symbol in enumerate(cells) if symbol in _FACE_UP), None)
    if face_up is None:
        return None
    card = cells[face_up]
    grids[last] = cells[:face_up] + "." + cells[face_up + 1 :]
    centre = "" if fields[6] == "-" else fields[6]
    fields[4] = "|".join(grids)
    fields[6] = "".join(sorted(centre + card, key=_FACE_UP.index))
    fields[2] = f"take@{last}"
    return " ".join(fields)


def before_the_take(position: str) -> str:
    """A push-phase position (`push@S:V`) as the take phase just before seat S took its V:
    the V back in the centre, phase `take@S`; any other position as it is."""
    fields = position.split(" ")
    if len(fields) != 10 or not fields[2].startswith("push@"):
        return position
    seat, _, card = fields[2].removeprefix("push@").partition(":")
    centre = "" if fields[6] == "-" else fields[6]
    fields[6] = "".join(sorted(centre + card, key=_FACE_UP.index))
    fields[2] = f"take@{seat}"
    return " ".join(fields)
