"""Which situations of the map (spec/situations.json, dekal.conformance.cases._situation_map)
a suite reaches, read off the reference while it runs.

A *situation* is one step of a case as the reference plays it: the rule it applied and the
value of each of that rule's dimensions (the player count, the turn, where the hole is, how a
first-player tie runs, the shape of a ranking, the shape of a group a grid cancels, the side
and line of a push…). `traced_situations(cases)` runs the cases on
the reference (behind the protocol adapter, called directly, as the refusal sites' run does)
and reads every situation off the states before and after each request: the reference's own
trace of the run. The single-grid requests (`score`, `push`) are read too, on the grid's own
dimensions (dekal.conformance.judge._grid_geometry); `pushes` answers no push, so it adds none.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from dekal.conformance.cases._situation_map import Values, situation_map
from dekal.conformance.judge._grid_geometry import cancellations, points_left, push_geometry
from dekal.conformance.judge._refusal_sites import DirectReference
from dekal_ref.push import line_cells, push_chain
from dekal_ref.ranking import places, round_scores
from dekal_ref.state import GameState, Phase


# -- reading situations off the reference while a suite runs ----------------------------------
def _seat_place(seat: int, players: int) -> str:
    return "first" if seat == 0 else "last" if seat == players - 1 else "middle"


def _phase(state: GameState) -> str:
    return "next" if state.phase is Phase.NEXT_ROUND else state.phase.value


def _turn(state: GameState) -> str:
    return "1" if state.turn == 1 else "16" if state.turn == 16 else "middle"


def _round(state: GameState) -> str:
    return str(state.round) if state.round <= 2 else "3+"


def ranking_shape(keys: Sequence[tuple[int, ...]]) -> str:
    """The shape of a ranking (S3/S4): the largest group of seats sharing a place (the best
    placed of equal groups), its place, and whether a seat is ranked below it."""
    shared = places(list(keys))
    groups = sorted({p: shared.count(p) for p in shared}.items(), key=lambda g: (-g[1], g[0]))
    place, size = groups[0]
    if size == 1:
        return "distinct"
    followed = "followed" if any(p > place for p in shared) else "last"
    where = "1st" if place == 1 else "below 1st"
    return f"{'2' if size == 2 else '3+'} share {where}, {followed}"


def first_player_draws(values: list[int], pile: tuple[int, ...]) -> tuple[int, int, str]:
    """F1-F2 replayed on the revealed values: (seats tied, draws made, how the pile did)."""
    low = min(values)
    tied = [s for s, v in enumerate(values) if v == low]
    size, draws, rest = len(tied), 0, list(pile)
    while len(tied) > 1:
        if len(rest) < len(tied):
            return size, draws, "out at first draw" if draws == 0 else "out at a re-draw"
        drawn = {seat: rest.pop(0) for seat in tied}
        least = min(drawn.values())
        tied = [seat for seat in tied if drawn[seat] == least]
        draws += 1
    return size, draws, "lasts"


class SituationTracer(DirectReference):
    """The reference behind the protocol adapter, reading the situation of every request it
    answers into `situations` (a set of (rule, values))."""

    label = "dekal-ref (situations)"

    def __init__(self, deals: str = "given") -> None:
        import dekal_ref
        from dekal.conformance.drive._adapter import ProtocolAdapter

        self.adapter = ProtocolAdapter(dekal_ref, deals=deals)
        self.info: dict[str, Any] = self.adapter.handle({"id": 0, "cmd": "hello", "protocol": 1})
        self.next_id = 0
        self.deals = deals
        self.situations: set[tuple[str, Values]] = getattr(self, "situations", set())
        self.entry = "dealt"
        self.dealt = "given"

    def restart(self) -> None:
        self.__init__(self.deals)  # type: ignore[misc]

    def note(self, rule: str, **values: str) -> None:
        context = {"entry": self.entry, "deal": self.dealt}
        dims = situation_map().rules[rule]
        found = {**context, **values}
        self.situations.add((rule, tuple(sorted((d, found[d]) for d in dims if d in found))))

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        before = self.adapter.state
        reply = super().request(message, timeout)
        after = self.adapter.state
        self.read(message, reply, before, after)
        return reply

    def read(self, message: dict[str, Any], reply: dict[str, Any], before: Any, after: Any) -> None:
        cmd, ok = message.get("cmd"), bool(reply.get("ok"))
        if cmd == "deal" and ok:
            asked = int(message["round"])
            bucket = {1: "1", 2: "2", 1000: "1000"}.get(asked, "3-10" if asked <= 10 else "11-999")
            self.note("deal", seats=str(message["players"]), **{"deal round": bucket})
        elif cmd == "new_game":
            self.read_new_game(message, reply, after)
        elif cmd in ("score", "push") and ok:
            self.read_single_grid(message)
        elif cmd == "perft" and ok and isinstance(before, GameState):
            depth = int(message["depth"])
            self.note(
                "perft",
                phase=before.phase.value if before.phase.value in PHASES else "next",
                depth=str(depth) if depth < 3 else "3+",
                length="single" if before.rules.threshold is None else "match",
                seats=str(before.players),
            )
        elif cmd == "new_round" and isinstance(before, GameState) and not ok:
            rule = reply.get("error", {}).get("rule")
            if rule in ("M1", "M3"):
                self.read_deal_verdict("new_round", before.players, rule)
        elif cmd == "new_round" and ok and isinstance(before, GameState):
            self.read_deal_verdict("new_round", before.players, None)
            previous = self.entry
            self.entry = "played into"
            self.dealt = "own" if message.get("deal") is None else "given"
            self.read_new_round(before, after, previous)
        elif cmd == "action" and ok and isinstance(before, GameState):
            self.read_action(before, after, str(message.get("action", "")))
        elif cmd == "action" and isinstance(before, GameState):
            self.read_refusal(message, reply, before)

    def read_single_grid(self, message: dict[str, Any]) -> None:
        """The single-grid commands (protocol.md): `score` is S1 and S2 on its grid, `push`
        P1 or P2 on its grid, side and line; they name no game, so only the grid's own
        dimensions are read."""
        from dekal_ref.notation import parse_grid, parse_push

        grid = parse_grid(str(message["grid"]))
        if message["cmd"] == "score":
            self.note_scored_grid(grid, {})
            return
        variant = str(message["variant"]).lower()
        values = push_geometry(grid, parse_push(str(message["push"])), variant)
        self.note("P2" if variant == "eject" else "P1", hole=_hole_place(grid.index(0)), **values)

    def note_scored_grid(self, grid: Sequence[int], context: dict[str, str]) -> None:
        """S1 once for each group the grid cancels (or once, none), S2 once."""
        for values in cancellations(grid):
            self.note("S1", **context, **values)
        self.note("S2", **context, **points_left(grid))

    def read_refusal(
        self, message: dict[str, Any], reply: dict[str, Any], before: GameState
    ) -> None:
        """A refused action (B1: it changes nothing), under the rule it breaks when that is
        M4 (a seat the game does not have) too."""
        rule = reply.get("error", {}).get("rule")
        verb = str(message.get("action", "")).partition(" ")[0]
        if rule is None or verb not in ("reveal", "take", "push"):
            return
        values = {"phase": _phase(before), "verb": verb, "seats": str(before.players)}
        self.note("B1", **values)
        if rule == "M4":
            self.note("M4", **values)

    def read_deal_verdict(self, via: str, players: int, rule: str | None) -> None:
        """A deal accepted or refused (M1: the 100 cards, M3: 16 face-down cards a seat)."""
        if not 2 <= players <= 6:
            return
        for checked in ("M1", "M3"):
            verdict = "refused" if rule == checked else "accepted"
            if rule in (None, checked):
                self.note(checked, seats=str(players), via=via, verdict=verdict)

    def read_new_game(self, message: dict[str, Any], reply: dict[str, Any], after: Any) -> None:
        ok = bool(reply.get("ok"))
        refusal = reply.get("error", {}).get("rule")
        if "position" not in message:
            rules = message.get("rules")
            players = rules.get("players") if isinstance(rules, dict) else None
            if isinstance(players, int) and not isinstance(players, bool):
                self.read_deal_verdict("new_game", players, None if ok else refusal)
            if ok:
                self.entry = "dealt"
                self.dealt = "own" if message.get("deal") is None else "given"
            return
        from dekal_ref.position import parse_position

        try:
            state = parse_position(str(message["position"]))
        except Exception:  # a line that does not read: notation, no situation of the map
            return
        threshold = state.rules.threshold
        if threshold is None:
            totals = "single"
        else:
            totals = "at" if max(state.totals) == threshold else "below"
            if max(state.totals) > threshold:
                totals = "above"
        removed = "none"
        if state.removed:
            removed = "turn 1" if state.turn == 1 else "after turn 1"
        if totals != "above":
            self.note(
                "position",
                phase=state.phase.value,
                seats=str(state.players),
                removed=removed,
                totals=totals,
                verdict="accepted" if ok else "refused",
            )
        if ok or refusal in ("M1", "M3"):
            self.read_deal_verdict("position", state.players, None if ok else refusal)
        if ok:
            self.entry, self.dealt = "loaded", "given"

    def read_new_round(self, before: GameState, after: GameState, previous: str) -> None:
        seats = str(before.players)
        self.note(
            "F4",
            seats=seats,
            start=_seat_place(int(before.start or 0), before.players),
            round=_round(before),
            entry=previous,
            first=before.rules.first,
        )
        self.note("M5", seats=seats, round=_round(before), entry=previous, push=before.rules.push)

    def read_action(self, before: GameState, after: GameState, action: str) -> None:
        seats, players = str(before.players), before.players
        common = {"seats": seats, "turn": _turn(before), "round": _round(before)}
        if before.phase is Phase.REVEAL:
            picked = sum(p is not None for p in before.picks)
            pick = (
                "last" if after.phase is not Phase.REVEAL else "first" if picked == 0 else "middle"
            )
            self.note("T1", pick=pick, **common)
            if after.phase is not Phase.REVEAL:
                self.read_turn_start(before, after)
        elif before.phase is Phase.TAKE:
            taken = before.taken
            taker = "first" if taken == 0 else "last" if taken == players - 1 else "middle"
            self.note("T3", taker=taker, **common)
            self.note("T4", taker=taker, **common)
        elif before.phase is Phase.PUSH:
            seat = before.to_act
            assert seat is not None
            grid = before.grids[seat]
            hole = grid.index(None)
            where = _hole_place(hole)
            from dekal_ref.notation import parse_push

            move = parse_push(action.split(" ")[-1])
            geometry = push_geometry(grid, move, before.rules.push)
            if geometry.get("line", "hole's") != "hole's":
                far = grid[line_cells(move.side, int(move.line or 0))[-1]]
                geometry["ejected"] = "face down" if far and far.face_down else "face up"
            elif before.rules.push == "eject":
                geometry["ejected"] = "no card"
            chain = push_chain(hole, move, before.rules.push)
            faces = {card.face_down for cell in chain[:-1] if (card := grid[cell]) is not None}
            moved = "both" if len(faces) == 2 else "face down" if True in faces else "face up"
            taker = _seat_place(before.taken - 1, players)
            self.note("T4", taker=taker, moved=moved, **common)
            ends = "nothing"
            if after.phase is Phase.REVEAL:
                ends = "turn"
            elif after.phase in (Phase.NEXT_ROUND, Phase.OVER):
                ends = "round"
            rule = "P2" if before.rules.push == "eject" else "P1"
            self.note(rule, hole=where, ends=ends, seats=seats, turn=_turn(before), **geometry)
            if ends != "nothing":
                length = "single" if before.rules.threshold is None else "match"
                token = _seat_place(int(before.token or 0), players)
                self.note("T5", token=token, length=length, **common)
            if ends == "round":
                self.read_scoring(before, after)

    def read_turn_start(self, before: GameState, after: GameState) -> None:
        """The last reveal of a turn: on turn 1 the first player (F1-F3) and who takes first
        (T2: on a later round the token holder, whatever the cards)."""
        if before.turn != 1:
            return
        values = [before.values(s)[cell] for s, cell in enumerate(_picks(before, after))]
        size, draws, pile = first_player_draws(values, before.pile)
        seats, players = str(before.players), before.players
        tie = "none" if size == 1 else "all" if size == players else "2" if size == 2 else "3+"
        token = after.token
        low = min(values)
        lowest = "tied" if size > 1 else "token" if values[token or 0] == low else "another seat"
        self.note("T2", seats=seats, round=_round(before), first=before.rules.first, lowest=lowest)
        if before.start is not None:
            if before.round == 1 and before.rules.first == "chosen":
                self.note(
                    "F3",
                    seats=seats,
                    start=_seat_place(before.start, players),
                    push=before.rules.push,
                )
            return
        if size == 1:
            self.note(
                "F1",
                seats=seats,
                push=before.rules.push,
                start=_seat_place(int(after.start or 0), players),
            )
        else:
            self.note(
                "F2", seats=seats, tie=tie, draws=str(draws) if draws < 3 else "3+", pile=pile
            )

    def read_scoring(self, before: GameState, after: GameState) -> None:
        scores = round_scores(after)
        seats = str(after.players)
        match = after.rules.threshold is not None
        context = {
            "seats": seats,
            "push": after.rules.push,
            "length": "match" if match else "single",
            "round": _round(after),
        }
        for seat in range(after.players):
            self.note_scored_grid(after.values(seat), context)
        round_keys: list[tuple[int, ...]] = [(s.points, s.remaining) for s in scores]
        if not match:
            points = [s.points for s in scores]
            cards = any(
                points[a] == points[b] and scores[a].remaining != scores[b].remaining
                for a, b in itertools.combinations(range(after.players), 2)
            )
            self.note(
                "S3", seats=seats, ranking=ranking_shape(round_keys), cards="yes" if cards else "no"
            )
            return
        threshold = after.rules.threshold
        assert threshold is not None
        high = max(after.totals)
        relation = "below" if high < threshold else "at" if high == threshold else "above"
        totals: list[tuple[int, ...]] = [(t,) for t in after.totals]
        differs = places(round_keys) != places(totals)
        self.note(
            "S4",
            seats=seats,
            ranking=ranking_shape(totals),
            threshold=relation,
            round=_round(after),
            differs="yes" if differs else "no",
        )


PHASES = ("reveal", "take", "push", "next", "over")


def _hole_place(hole: int) -> str:
    row, column = divmod(hole, 4)
    return ("inner", "edge", "corner")[(row in (0, 3)) + (column in (0, 3))]


def _picks(before: GameState, after: GameState) -> list[int]:
    """Every seat's pick of the turn just revealed: the picks made before, and the last one,
    found as the cell that became a hole."""
    picks = []
    for seat, pick in enumerate(before.picks):
        if pick is None:
            pick = next(
                cell
                for cell, card in enumerate(after.grids[seat])
                if card is None and before.grids[seat][cell] is not None
            )
        picks.append(pick)
    return picks


def traced_situations(cases: list[dict[str, Any]], deals: str = "given") -> set[tuple[str, Values]]:
    """The situations a run of `cases` on the reference reaches (`deals`: the reference
    dealing for itself, as an own-deal engine is run)."""
    from dekal.conformance.judge._runner import run_suite

    tracer = SituationTracer(deals)
    run = run_suite(tracer, cases)
    failed = [o.id for o in run.outcomes if o.status not in ("pass", "skip")]
    if failed:
        raise AssertionError(f"the reference does not pass its own suite: {failed[:5]}")
    return tracer.situations
