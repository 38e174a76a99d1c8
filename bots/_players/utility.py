"""What a search bot wants from a played-out round: one number in [0, 1] per seat (S3, S4).

* `win`: the seat's share of the victory: 1 for a sole winner, 1/k for each of k tied
  winners, 0 otherwise. In a single round the ranking is S3's (lowest points, then fewest
  cards left); in a match it is the totals (S4), whether or not this round ends the match.
* `margin`: how far the seat's points (a match: its total) lie below the other seats'
  mean, mapped onto [0, 1]: 0.5 is level, each point better adds 1/200. It rewards a
  lower score even where it does not change who wins, which a win rate alone cannot see.
* `blend`: the mean of the two: the win when it is decided, the margin to break ties.
"""

from __future__ import annotations

from collections.abc import Callable

from dekal.bots._players.rollout import Outcome
from dekal_ref.state import Rules

Utility = Callable[[Outcome, Rules], list[float]]


def _keys(outcome: Outcome, rules: Rules) -> list[tuple[int, ...]]:
    if rules.threshold is None:
        return list(zip(outcome.points, outcome.remaining, strict=True))
    return [(total,) for total in outcome.totals]


def win_share(outcome: Outcome, rules: Rules) -> list[float]:
    keys = _keys(outcome, rules)
    best = min(keys)
    share = 1 / keys.count(best)
    return [share if key == best else 0.0 for key in keys]


def margin(outcome: Outcome, rules: Rules) -> list[float]:
    own = outcome.points if rules.threshold is None else outcome.totals
    n = len(own)
    total = sum(own)
    return [min(1.0, max(0.0, 0.5 + ((total - mine) / (n - 1) - mine) / 200)) for mine in own]


def blend(outcome: Outcome, rules: Rules) -> list[float]:
    return [
        (w + m) / 2 for w, m in zip(win_share(outcome, rules), margin(outcome, rules), strict=True)
    ]


UTILITIES: dict[str, Utility] = {"win": win_share, "margin": margin, "blend": blend}
