"""Random games played on an engine and on the reference in lock-step (`dekal conformance fuzz`).

Each game is seeded: its player count, variants and deals, and every action, come from one
random.Random(seed). Most actions are legal (chosen among the reference's legal actions);
some are deliberately wrong (a random verb, seat, cell, value or push) so that refusals and
their rule IDs are compared too. After every step both engines are asked for the position
and the legal actions; at every scored round, for the result.

Random play alone rarely reaches some rule situations, so a share of the games is steered
into them, still from the same seed: under the lowest-card rule, turn 1's reveals are chosen
so that seats tie for the lowest card (F1–F2), sometimes on a deal built so that the set-aside
draws tie again or the pile runs short; in a match, the threshold is sometimes set to a total
the players really reach, found by playing the game on the reference first (S4: ≥, not >).
Ordinary random games remain the majority.

On the first divergence the game is shrunk: refused actions that did not matter are dropped,
then shorter random games with fewer players are searched for a divergence that comes
sooner. The shortest one found is printed as a game record and can be saved as a ready
conformance case.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import dekal_ref
from dekal.conformance.adapter import ProtocolAdapter
from dekal.conformance.client import Engine, EngineError
from dekal.conformance.generate import record_case
from dekal.conformance.protocol import Message, position_fields
from dekal.conformance.runner import describe_reply, same_refusal
from dekal_ref.deal import seeded_deal
from dekal_ref.notation import CELL_NAMES, format_grid, value_symbol

WRONG_ACTION_RATE = 0.12
MAX_STEPS = 2000
TIE_RATE = 0.5  # lowest-card games whose turn-1 reveals are steered into a tie (F1–F2)
EXACT_THRESHOLD_RATE = 0.8  # matches whose threshold is a total really reached (S4)
NO_THRESHOLD = 10**9  # a match threshold nobody reaches, while looking for a real total


@dataclass
class FuzzDivergence:
    """The first step where the engine and the reference disagree."""

    step: int  # 0: new_game; k: the k-th item
    sent: str
    what: str
    expected: str = ""
    actual: str = ""
    kind: str = "text"  # "position" when expected/actual are positions


@dataclass
class FuzzGame:
    """A game as played: its set-up and the items sent (actions or new deals)."""

    seed: int
    setup: Message
    items: list[Message] = field(default_factory=list)
    divergence: FuzzDivergence | None = None

    @property
    def players(self) -> int:
        return int(self.setup["rules"]["players"])


def _deal(seed: int, players: int) -> Message:
    deal = seeded_deal(seed, players)
    return {
        "grids": [format_grid(grid) for grid in deal.grids],
        "pile": "".join(value_symbol(v) for v in deal.pile) or "-",
    }


def random_setup(rng: random.Random, info: Message, players: int | None = None) -> Message:
    """Players, variants and threshold among what the engine claims, and a seeded deal."""
    return steered_setup(rng, info, players)[0]


@dataclass(frozen=True)
class Steering:
    """How a game is pushed into a rare situation (none by default).

    reveals: turn 1 of round 1, the reveal each seat makes (F1–F2 ties), in seat order.
    exact_round: the threshold becomes the highest total after this round (S4), once the game
    has been played on the reference alone to find it.
    """

    reveals: tuple[str, ...] = ()
    exact_round: int | None = None


def steered_setup(
    rng: random.Random, info: Message, players: int | None = None
) -> tuple[Message, Steering]:
    """A random set-up as random_setup, and now and then a steering (see the module doc)."""
    claimed = [p for p in info.get("players", []) if isinstance(p, int) and 2 <= p <= 6] or [2]
    count = players if players is not None else rng.choice(claimed)
    variants = info.get("variants", {})
    push = rng.choice(variants.get("push") or ["slide"])
    first = rng.choice(variants.get("first") or ["lowest"])
    threshold = None
    exact_round = None
    if "match" in info.get("features", []) and rng.random() < 0.25:
        threshold = rng.choice((40, 60, 100, 150))
        if rng.random() < EXACT_THRESHOLD_RATE:
            exact_round = rng.choice((1, 1, 2, 3))
    deal = _deal(rng.getrandbits(32), count)
    reveals: tuple[str, ...] = ()
    if first == "lowest" and rng.random() < TIE_RATE:
        deal, reveals = tied_deal(rng, count)
    setup = {
        "rules": {"players": count, "push": push, "first": first, "threshold": threshold},
        "deal": deal,
        "first_player": rng.randrange(count) if first == "chosen" else None,
    }
    return setup, Steering(reveals, exact_round)


def tied_deal(rng: random.Random, players: int) -> tuple[Message, tuple[str, ...]]:
    """A legal deal (the 100 cards, rearranged) and turn-1 reveals where two or more seats tie
    for the lowest card (F2). Four kinds: each seat simply reveals its lowest card (a seeded
    deal; a tie or not); an explicit tie with a shuffled pile (one draw decides); a tie whose
    first draws tie again (a re-draw); a 6-player deal whose 4-card pile runs short (ruling)."""
    deal = seeded_deal(rng.getrandbits(32), players)
    cards = [v for grid in deal.grids for v in grid] + list(deal.pile)
    kind = rng.choice(("lowest", "draw", "redraw", "short"))
    if kind == "lowest":
        cells = [grid.index(min(grid)) for grid in deal.grids]
        return _deal_message(cards, players), _reveals(cells)
    tied = sorted(rng.sample(range(players), rng.randint(2, players)))
    low = rng.choice((1, 1, 2, 3, 5))
    cells = [rng.randrange(16) for _ in range(players)]
    kept: set[int] = set()
    for seat in range(players):
        wanted = low if seat in tied else rng.randint(low + 1, 10)
        _place(cards, seat * 16 + cells[seat], wanted, kept)
    pile_start = 16 * players
    draw = rng.choice([v for v in range(1, 11) if v != low])
    if kind == "short" and players == 6:
        ties_again = len(cards) - pile_start  # the whole 4-card pile: ties until it runs out
    elif kind in ("redraw", "short"):
        ties_again = len(tied)  # the first draws tie; the next ones decide
    else:
        ties_again = 0
    for index in range(pile_start, min(pile_start + ties_again, len(cards))):
        _place(cards, index, draw, kept)
    return _deal_message(cards, players), _reveals(cells)


def _place(cards: list[int], index: int, value: int, kept: set[int]) -> None:
    """Swap a card of `value` into cards[index] (the 100 cards stay the 100 cards), taking it
    from a place not already arranged; keep `index` arranged."""
    if cards[index] != value:
        source = next(
            (i for i, v in enumerate(cards) if v == value and i not in kept and i != index), None
        )
        if source is None:
            return  # every copy is already placed: leave this one as dealt
        cards[index], cards[source] = cards[source], cards[index]
    kept.add(index)


def _deal_message(cards: list[int], players: int) -> Message:
    grids = [tuple(cards[16 * seat : 16 * seat + 16]) for seat in range(players)]
    pile = cards[16 * players :]
    return {
        "grids": [format_grid(grid) for grid in grids],
        "pile": "".join(value_symbol(v) for v in pile) or "-",
    }


def _reveals(cells: list[int]) -> tuple[str, ...]:
    return tuple(f"reveal {seat} {CELL_NAMES[cell]}" for seat, cell in enumerate(cells))


def wrong_action(rng: random.Random, players: int) -> str:
    """An action that is often illegal: any verb, any seat (one past the last too), any cell,
    value or push; now and then one that does not even parse."""
    verb = rng.choice(("reveal", "take", "push"))
    seat = rng.randrange(players + 1)
    if rng.random() < 0.05:
        return rng.choice(("reveal 0 e9", "take 0 0", "push 0 X", "jump 0 a1", "reveal x a1"))
    if verb == "reveal":
        argument = rng.choice(CELL_NAMES)
    elif verb == "take":
        argument = rng.choice("123456789T")
    else:
        argument = rng.choice("LRTB") + rng.choice(("", "1", "2", "3", "4"))
    return f"{verb} {seat} {argument}"


class LockStep:
    """The engine under test and a fresh reference, driven with the same requests."""

    def __init__(self, engine: Engine, timeout: float) -> None:
        self.engine = engine
        self.timeout = timeout
        self.reference = ProtocolAdapter(dekal_ref)
        self.steps = 0

    def ref(self, cmd: str, **fields: Any) -> Message:
        return self.reference.handle({"id": 0, "cmd": cmd, **fields})

    def eng(self, cmd: str, **fields: Any) -> Message:
        return self.engine.request({"cmd": cmd, **fields}, self.timeout)

    def send(self, step: int, item: Message) -> FuzzDivergence | None:
        """Send one item to both; compare the replies, positions, legal actions, results.
        An engine that crashes, hangs or answers garbage diverges too (and is restarted)."""
        self.steps += 1
        try:
            return self._send(step, item)
        except EngineError as error:
            self.engine.restart()
            sent = item.get("action", "new_round" if "new_round" in item else "new_game")
            return FuzzDivergence(step, sent, f"the engine failed: {error}")

    def _send(self, step: int, item: Message) -> FuzzDivergence | None:
        if "action" in item:
            sent = item["action"]
            before = position_fields(self.ref("position")["position"])["phase"]
            expected, actual = self.ref("action", action=sent), self.eng("action", action=sent)
        elif "new_round" in item:
            sent, before = "new_round", "next"
            expected = self.ref("new_round", deal=item["new_round"])
            actual = self.eng("new_round", deal=item["new_round"])
        else:
            sent, before = "new_game", ""
            expected, actual = (
                self.ref("new_game", **item["new_game"]),
                self.eng("new_game", **item["new_game"]),
            )
        wanted = {"ok": True} if expected["ok"] else _typed(expected)
        if not same_refusal(wanted, actual):
            return FuzzDivergence(
                step,
                sent,
                f"the reference {describe_reply(expected)}, the engine {describe_reply(actual)}",
            )
        if not expected["ok"] and sent == "new_game":
            return None
        return self.compare_state(step, sent, before)

    def compare_state(self, step: int, sent: str, before: str) -> FuzzDivergence | None:
        want = str(self.ref("position")["position"])
        got = self.eng("position")
        if got.get("position") != want:
            return FuzzDivergence(
                step, sent, "the position differs", want, str(got.get("position")), "position"
            )
        legal_want = sorted(str(a) for a in self.ref("legal")["actions"])
        legal_got = self.eng("legal").get("actions")
        if not isinstance(legal_got, list) or sorted(map(str, legal_got)) != legal_want:
            return FuzzDivergence(
                step,
                sent,
                "the legal actions differ",
                " ".join(legal_want),
                " ".join(map(str, legal_got or [])),
            )
        phase = position_fields(want)["phase"]
        if phase in ("next", "over") and before not in ("next", "over"):
            result_want = {
                k: v for k, v in self.ref("result").items() if k in ("scores", "totals", "ranking")
            }
            reply = self.eng("result")
            result_got = {k: reply.get(k) for k in ("scores", "totals", "ranking")}
            if _normal(result_got) != _normal(result_want):
                return FuzzDivergence(
                    step,
                    sent,
                    "the result differs (scores, totals or ranking)",
                    json.dumps(result_want),
                    json.dumps(result_got),
                )
        return None


def _typed(reply: Message) -> Message:
    error = reply["error"]
    return (
        {"ok": False, "rule": error["rule"]}
        if error["kind"] == "illegal"
        else {"ok": False, "kind": error["kind"]}
    )


def _normal(result: Message) -> Message:
    scores = result.get("scores")
    if isinstance(scores, list):
        scores = [
            {**s, "cancelled": sorted(s.get("cancelled") or [])} if isinstance(s, dict) else s
            for s in scores
        ]
    return {**result, "scores": scores}


def play_random(
    lock: LockStep, seed: int, info: Message, players: int | None = None, max_steps: int = MAX_STEPS
) -> FuzzGame:
    """Play one seeded random game in lock-step; stop at the first divergence."""
    rng = random.Random(seed)
    setup, steering = steered_setup(rng, info, players)
    if steering.exact_round is not None:
        threshold = _reached_total(seed, setup, steering, rng.getstate(), max_steps)
        if threshold is not None:
            setup = {**setup, "rules": {**setup["rules"], "threshold": threshold}}
    game = FuzzGame(seed, setup)

    def send(item: Message) -> FuzzDivergence | None:
        game.items.append(item)
        return lock.send(len(game.items), item)

    divergence = lock.send(0, {"new_game": game.setup})
    if divergence is None:
        divergence = _play(lock.ref, send, rng, game, steering, max_steps)
    game.divergence = divergence
    return game


def _play(
    ref: Callable[..., Message],
    send: Callable[[Message], FuzzDivergence | None],
    rng: random.Random,
    game: FuzzGame,
    steering: Steering,
    max_steps: int,
) -> FuzzDivergence | None:
    """The random moves of a game after its set-up, as the reference sees them: mostly legal
    ones, some wrong ones, a new seeded deal between match rounds; the steered turn-1 reveals
    first when there are some. Stops at the end, a divergence, or max_steps items."""
    rounds = 1
    planned = list(steering.reveals)
    while len(game.items) < max_steps:
        legal = [str(a) for a in ref("legal")["actions"]]
        phase = position_fields(ref("position")["position"])["phase"]
        if phase == "over":
            return None
        planned = [reveal for reveal in planned if reveal in legal] if phase == "reveal" else []
        if phase == "next":
            item: Message = {"new_round": _deal(game.seed * 1000 + rounds, game.players)}
            rounds += 1
        elif rng.random() < WRONG_ACTION_RATE or not legal:
            item = {"action": wrong_action(rng, game.players)}
        elif planned:
            item = {"action": planned.pop(0)}
        else:
            item = {"action": rng.choice(legal)}
        divergence = send(item)
        if divergence is not None:
            return divergence
    return None


def _reached_total(
    seed: int, setup: Message, steering: Steering, rng_state: Any, max_steps: int
) -> int | None:
    """S4 steering: play the game on the reference alone, as it will be played (the same moves
    from the same random state), in a match nobody wins; the highest total after round
    `steering.exact_round`. With that threshold the match ends exactly there (≥, not >)."""
    reference = ProtocolAdapter(dekal_ref)

    def ref(cmd: str, **fields: Any) -> Message:
        return reference.handle({"id": 0, "cmd": cmd, **fields})

    rules = {**setup["rules"], "threshold": NO_THRESHOLD}
    if not ref("new_game", **{**setup, "rules": rules})["ok"]:
        return None
    game = FuzzGame(seed, setup)
    totals: list[int] = []

    def send(item: Message) -> FuzzDivergence | None:
        game.items.append(item)
        if "action" in item:
            ref("action", action=item["action"])
        else:
            ref("new_round", deal=item["new_round"])
        if position_fields(ref("position")["position"])["phase"] == "next":
            totals.append(max(ref("result")["totals"]))
            if len(totals) == steering.exact_round:
                return FuzzDivergence(0, "", "found")  # stop here
        return None

    rng = random.Random()
    rng.setstate(rng_state)
    _play(ref, send, rng, game, steering, max_steps)
    if len(totals) < (steering.exact_round or 0) or totals[-1] < 1:
        return None
    return totals[-1]


def replay(lock: LockStep, setup: Message, items: list[Message]) -> FuzzDivergence | None:
    """Play a fixed game in lock-step; the first divergence, or None."""
    divergence = lock.send(0, {"new_game": setup})
    for number, item in enumerate(items, start=1):
        if divergence is not None:
            return divergence
        divergence = lock.send(number, item)
    return divergence


def _refused_by_reference(setup: Message, items: list[Message]) -> list[bool]:
    reference = ProtocolAdapter(dekal_ref)
    reference.handle({"id": 0, "cmd": "new_game", **setup})
    flags = []
    for item in items:
        if "action" in item:
            reply = reference.handle({"id": 0, "cmd": "action", "action": item["action"]})
        else:
            reply = reference.handle({"id": 0, "cmd": "new_round", "deal": item["new_round"]})
        flags.append(not reply["ok"])
    return flags


def shrink(
    lock: LockStep,
    game: FuzzGame,
    info: Message,
    budget: int = 150,
    advance: Callable[[], None] | None = None,
) -> FuzzGame:
    """A shorter game that still diverges: (1) cut after the divergence, (2) drop refused
    actions before it, (3) search seeded random games with as few players as possible whose
    divergence comes as soon or sooner, (4) drop refused actions from the winner too."""
    assert game.divergence is not None
    best = _without_refusals(lock, _cut(game))
    for attempt in range(budget):
        if advance is not None:
            advance()
        players = 2 + attempt % max(1, best.players - 1)
        seed = game.seed * 7919 + attempt + 1
        candidate = play_random(lock, seed, info, players, max_steps=len(best.items))
        if candidate.divergence is not None and _smaller(_cut(candidate), best):
            best = _cut(candidate)
    return _without_refusals(lock, best)


def _cut(game: FuzzGame) -> FuzzGame:
    """The game up to and including its diverging step."""
    assert game.divergence is not None
    return FuzzGame(game.seed, game.setup, game.items[: game.divergence.step], game.divergence)


def _without_refusals(lock: LockStep, game: FuzzGame) -> FuzzGame:
    """Drop the actions the reference refused before the last step, if it still diverges."""
    refused = _refused_by_reference(game.setup, game.items)
    kept = [
        item for item, bad in zip(game.items[:-1], refused[:-1], strict=True) if not bad
    ] + game.items[-1:]
    if len(kept) == len(game.items):
        return game
    found = replay(lock, game.setup, kept)
    if found is None or found.step == 0:
        return game
    return FuzzGame(game.seed, game.setup, kept[: found.step], found)


def _smaller(a: FuzzGame, b: FuzzGame) -> bool:
    return (len(a.items), a.players) < (len(b.items), b.players)


def game_record(game: FuzzGame) -> str:
    """The shrunk game as a game record (dekal_ref.record) of the moves the reference
    accepted, then the step where the engine diverged."""
    from dekal_ref.actions import NewRound, parse_action
    from dekal_ref.record import format_record, record_from_game

    setup = game.setup
    rules = dekal_ref.Rules(**setup["rules"])
    deal = _deal_object(setup["deal"])
    refused = _refused_by_reference(setup, game.items)
    actions: list[Any] = []
    skipped: list[str] = []
    for item, bad in zip(game.items[:-1], refused[:-1], strict=True):
        if bad:
            skipped.append(item.get("action", "new_round"))
        elif "action" in item:
            actions.append(parse_action(item["action"]))
        else:
            actions.append(NewRound(_deal_object(item["new_round"])))
    try:
        text = format_record(record_from_game(rules, [deal], setup["first_player"], actions))
    except dekal_ref.DekalError as error:
        text = f"(no record: {error})\n"
    divergence = game.divergence
    if skipped:
        text += (
            f"\n# refused by both before the divergence (left out above): {'; '.join(skipped)}\n"
        )
    if divergence is not None:
        text += f"\n# then step {divergence.step}: {divergence.sent}\n# {divergence.what}\n"
        if divergence.expected or divergence.actual:
            text += f"# reference: {divergence.expected}\n# engine:    {divergence.actual}\n"
    return text


def _deal_object(deal: Message) -> Any:
    from dekal_ref.notation import parse_grid, parse_value

    pile = "" if deal["pile"] == "-" else deal["pile"]
    return dekal_ref.Deal(
        tuple(parse_grid(g) for g in deal["grids"]), tuple(parse_value(s) for s in pile)
    )


def rules_of(game: FuzzGame) -> list[str]:
    """The rule IDs a saved case tests, from the step that diverged."""
    divergence = game.divergence
    item = game.items[-1] if game.items else {}
    reference = _refused_by_reference(game.setup, game.items)
    if divergence is None:
        return ["B1"]
    if "result" in divergence.what:
        return ["S1", "S2", "S3", "S4"] if game.setup["rules"]["threshold"] else ["S1", "S2", "S3"]
    if game.items and reference[-1]:
        replayed = ProtocolAdapter(dekal_ref)
        replayed.handle({"id": 0, "cmd": "new_game", **game.setup})
        for earlier in game.items[:-1]:
            cmd = "action" if "action" in earlier else "new_round"
            replayed.handle(
                {
                    "id": 0,
                    "cmd": cmd,
                    **(
                        {"action": earlier["action"]}
                        if "action" in earlier
                        else {"deal": earlier["new_round"]}
                    ),
                }
            )
        last = (
            replayed.handle({"id": 0, "cmd": "action", "action": item["action"]})
            if "action" in item
            else {}
        )
        rule = last.get("error", {}).get("rule")
        return [rule, "B1"] if rule else ["B1"]
    verb = item.get("action", "new_round").split()[0]
    push_rule = "P1" if game.setup["rules"]["push"] == "slide" else "P2"
    return {"reveal": ["T1", "F1", "F2"], "take": ["T3"], "push": ["T4", push_rule, "T5"]}.get(
        verb, ["M5", "F4"]
    )


def saved_case(game: FuzzGame) -> Message:
    """The shrunk game as a ready conformance case (its ID from a hash of the game)."""
    digest = hashlib.sha256(
        json.dumps([game.setup, game.items], sort_keys=True).encode()
    ).hexdigest()[:8]
    title = f"fuzz: {game.divergence.what if game.divergence else 'a random game'}"
    return record_case(f"fuzz-{digest}", title, rules_of(game), game.setup, game.items)


@dataclass
class FuzzReport:
    games: int = 0
    steps: int = 0
    divergent: FuzzGame | None = None
    shrunk: FuzzGame | None = None
    error: str = ""

    def as_json(self) -> Message:
        shrunk = self.shrunk
        return {
            "games": self.games,
            "steps": self.steps,
            "divergences": 0 if self.divergent is None else 1,
            "error": self.error or None,
            "divergence": None
            if shrunk is None or shrunk.divergence is None
            else {
                "seed": self.divergent.seed if self.divergent else None,
                "steps": len(shrunk.items),
                "players": shrunk.players,
                "at": shrunk.divergence.sent,
                "what": shrunk.divergence.what,
                "expected": shrunk.divergence.expected,
                "actual": shrunk.divergence.actual,
                "record": game_record(shrunk),
            },
        }


def fuzz(
    engine: Engine,
    games: int,
    seed: int,
    timeout: float = 10.0,
    advance: Callable[[], None] | None = None,
) -> FuzzReport:
    """Play `games` seeded random games in lock-step; shrink the first divergence."""
    lock = LockStep(engine, timeout)
    report = FuzzReport()
    for number in range(games):
        game_seed = seed * 1_000_003 + number
        game = play_random(lock, game_seed, engine.info)
        report.games += 1
        report.steps = lock.steps
        if advance is not None:
            advance()
        if game.divergence is not None:
            report.divergent = game
            report.shrunk = shrink(lock, game, engine.info)
            report.steps = lock.steps
            return report
    return report
