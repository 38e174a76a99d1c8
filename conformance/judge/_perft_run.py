"""Perft cases: a script replayed against the reference engine played alongside (a frozen
perft case keeps only its last position), then the node count and its divide compared; a
count that differs is followed down the divide to the first position whose moves differ, and
blamed on that position's phase rule.
"""

from __future__ import annotations

from dataclasses import replace

from dekal.conformance.drive._protocol import Message
from dekal.conformance.judge._attribution import (
    Blame,
    action_rule,
    blame_legal,
    blame_perft_moves,
    blame_verdict,
    variant_of,
)
from dekal.conformance.judge._case_run import CaseRun
from dekal.conformance.judge._compare import Diverged, describe_reply, diverge, perft_lines


class PerftRun(CaseRun):
    """A perft case against one engine (CaseRun's deadline, set-up and position checks)."""

    def run(self) -> None:
        self.run_perft()

    def run_perft(self) -> None:
        """Replay the script (each position checked against the reference's), then compare
        the perft count; a count that differs is followed down the divide to the first
        position whose moves differ, and blamed on that position's phase rule."""
        reference = ReferenceGame(self.case["setup"])
        self.new_game()
        position = reference.position()
        self.check_position(0, "new_game", position)
        self.play(reference, self.case["script"], first_step=1)
        steps = len(self.case["script"])
        last = self.case["script"][-1] if steps else "new_game"
        self.check_position(steps, last, self.case["position"])
        depth = self.case["depth"]
        sent = f"perft {depth}"
        self.blame_now = Blame(blame_legal(self.case["position"]).rule, "perft")
        nodes, divide = self.perft(depth, steps, sent)
        expect = self.case["expect"]
        if nodes == expect["nodes"] and divide == expect["divide"]:
            return
        lines = perft_lines(expect, nodes, divide)
        try:
            path, found, blame = self.descend(reference, depth, expect["divide"], divide)
        except Diverged as diverged:  # a position on the way down already differs
            first = diverged.divergence
            what = f"the perft count differs; following it down: {first.what}"
            raise Diverged(replace(first, what=what)) from None
        where = f"after {', '.join(path)}" if path else "at the root"
        lines.append(f"first position whose moves differ, {where}: {found}")
        raise diverge(steps, sent, "the perft count differs", blame, actual="\n".join(lines))

    # -- perft helpers --------------------------------------------------------------------
    def play(self, reference: ReferenceGame, actions: list[str], first_step: int) -> None:
        """Send `actions`, each to be accepted, each position equal to the reference's."""
        for number, action in enumerate(actions, start=first_step):
            before = reference.position()
            self.blame_now = Blame(action_rule(action, variant_of(before)), "action")
            reply = self.ask("action", action=action)
            if not reply.get("ok"):
                what = f"expected accepted, the engine {describe_reply(reply)}"
                raise diverge(number, action, what, blame_verdict(action, before, {"ok": True}))
            reference.act(action)
            after = reference.position()
            self.check_position(number, action, after, reference.result(), before=before)

    def perft(self, depth: int, step: int, sent: str) -> tuple[object, dict[str, object]]:
        reply = self.ask("perft", depth=depth)
        assert self.blame_now is not None
        nodes = self.must_succeed(reply, step, sent, "nodes", self.blame_now)
        raw = reply.get("divide")
        return nodes, raw if isinstance(raw, dict) else {}

    def descend(
        self,
        reference: ReferenceGame,
        depth: int,
        wanted: dict[str, object],
        divide: dict[str, object],
    ) -> tuple[list[str], str, Blame]:
        """Follow the first differing divide entry down to the position whose moves differ:
        (the path of nodes, what differs there, the blame). Positions on the way are checked
        too: a position that differs is blamed as in a game (raised as the divergence)."""
        path: list[str] = []
        steps = len(self.case["script"])
        while True:
            here = reference.position()
            missing = [key for key in wanted if key not in divide]
            extra = sorted(key for key in divide if key not in wanted)
            if missing or extra or depth <= 1:
                found = (
                    "; ".join(
                        part
                        for part in (
                            f"missing {', '.join(missing[:4])}" if missing else "",
                            f"extra {', '.join(extra[:4])}" if extra else "",
                        )
                        if part
                    )
                    or "the same moves, other counts"
                )
                return path, found, blame_perft_moves(here)
            key = next((key for key in wanted if wanted[key] != divide[key]), None)
            if key is None:  # every entry agrees: the engine's total is not its divide's sum
                return path, "the divide agrees, the node count does not", blame_perft_moves(here)
            path.append(key)
            depth -= 1
            self.new_game()
            reference = ReferenceGame(self.case["setup"])
            actions = self.case["script"] + [a for node in path for a in node_actions(node)]
            self.play(reference, actions, first_step=1)
            sent = f"perft {depth} after {', '.join(path)}"
            _, divide = self.perft(depth, steps, sent)
            wanted = reference.divide(depth)


class ReferenceGame:
    """The reference engine (dekal_ref) played alongside, for what a frozen case does not
    store: the position after each step of a perft script, and the divide below a node."""

    def __init__(self, setup: Message) -> None:
        import dekal_ref
        from dekal.conformance.drive._adapter import ProtocolAdapter

        self.adapter = ProtocolAdapter(dekal_ref)
        self.adapter.new_game(setup)

    def act(self, action: str) -> None:
        self.adapter.action({"action": action})

    def position(self) -> str:
        return str(self.adapter.position({})["position"])

    def result(self) -> Message | None:
        """The result once a round is scored (None before)."""
        reply = self.adapter.handle({"cmd": "result"})
        return reply if reply.get("ok") else None

    def divide(self, depth: int) -> dict[str, object]:
        return dict(self.adapter.perft({"depth": depth})["divide"])


def node_actions(node: str) -> list[str]:
    """The actions of a perft node: `reveals a1,-,c3` is one reveal per seat that picks."""
    if not node.startswith("reveals "):
        return [node]
    picks = node.removeprefix("reveals ").split(",")
    return [f"reveal {seat} {cell}" for seat, cell in enumerate(picks) if cell != "-"]
