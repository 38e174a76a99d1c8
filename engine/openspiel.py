"""Dékal as an OpenSpiel game: `import dekal.openspiel` registers it as "dekal" with pyspiel.

    import pyspiel
    import dekal.openspiel  # registers the game
    game = pyspiel.load_game("dekal", {"players": 3, "variant": "eject", "first": "lowest"})

One round (a single-round game, rules T5, S3); matches to a threshold (S4) are left out. The
game is played on the optimized engine (dekal.fast); docs/openspiel.md is the user's page.

How the rules become an OpenSpiel game:

* **The deal is chance.** The first 100 moves are chance nodes, one per card of the shuffled
  deck in dealing order (seat 0's a1 … d4, seat 1's, …, then the set-aside pile top first);
  the outcome is the card's value, with probability (copies of it left) / (cards left): a
  uniform shuffle (M1, M3). No player sees these outcomes; a value becomes known when the
  rules turn its card face up (T1), or when an F2 draw shows a pile card.
* **Simultaneous reveals become sequential.** OpenSpiel's sequential form of a simultaneous
  move, as its own games do it: the seats pick in seat order 0..n-1 (the table order of
  docs/contracts.md), and a pick stays out of every other seat's information state and
  observation until the last seat has picked (T1). Takes and pushes are sequential anyway
  (T3, T4).
* **Actions** are 46 integers: 0–15 reveal a cell (a1 = 0 … d4 = 15), 16–25 take a value
  (1 … 10), 26–29 push from L, R, T, B (slide, P1), 30–45 push from a side along a line
  (eject, P2: L1 … L4, R1 … R4, T1 … T4, B1 … B4). Chance outcomes 0–9 are the values 1–10.
* **Information state** of a seat (perfect recall): every public event in order, with the
  cell and value of each reveal once the reveal has happened, and the seat's own pick before
  it. **Observation**: the public view of the position (dekal.bots.observation, spec/
  notation.md "Positions"), plus the seat's own pick.
* **Returns** are the ranking of S3 (lowest score, then fewest cards; shared places), made
  zero-sum: each seat scores +1 for every other seat it beats and −1 for every seat that
  beats it, divided by n − 1, so a 2-player game is +1 / −1 (0 for a shared victory). The
  rules reward the place, not the points: "minus the score" would make a seat chase points
  that change nobody's place, and would lose the fewer-cards tie-break.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from dekal import bits, fast
from dekal._game import hole_of
from dekal.bots.observation import format_public_view, observation_of
from dekal.extras import needed
from dekal.state import FastState
from dekal.tables import STEP
from dekal_ref.actions import Action, PushMove, Reveal, Take
from dekal_ref.deal import DECK, MAX_PLAYERS, MIN_PLAYERS, Deal, deal_from_deck
from dekal_ref.notation import SIDES, Push, cell_name, value_symbol
from dekal_ref.state import Phase, Rules

with needed("Dékal as an OpenSpiel game (dekal.openspiel)", extra="openspiel"):
    import numpy as np
    import pyspiel

SHORT_NAME = "dekal"
CARDS = len(DECK)
TAKE_BASE = 16
PUSH_BASE = 26
PUSHES = tuple(Push(side) for side in SIDES) + tuple(
    Push(side, line) for side in SIDES for line in range(1, 5)
)
DISTINCT_ACTIONS = PUSH_BASE + len(PUSHES)  # 46
PLAYER_MOVES_PER_SEAT = 3 * 16  # a reveal, a take and a push on each of the 16 turns (T5)

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Dékal (one round)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"players": 2, "variant": "slide", "first": "lowest"},
)


# --- Actions as integers --------------------------------------------------------------------


def action_id(action: Action) -> int:
    """The OpenSpiel action of a Dékal action (see the module docstring)."""
    if isinstance(action, Reveal):
        return action.cell
    if isinstance(action, Take):
        return TAKE_BASE + action.card - 1
    if isinstance(action, PushMove):
        return PUSH_BASE + PUSHES.index(action.push)
    raise ValueError(f"{action} is not a move of one round")


def dekal_action(seat: int, number: int) -> Action:
    """The Dékal action of seat `seat` that OpenSpiel action `number` stands for."""
    if 0 <= number < TAKE_BASE:
        return Reveal(seat, number)
    if number < PUSH_BASE:
        return Take(seat, number - TAKE_BASE + 1)
    if number < DISTINCT_ACTIONS:
        return PushMove(seat, PUSHES[number - PUSH_BASE])
    raise ValueError(f"{number} is not a Dékal action (0–{DISTINCT_ACTIONS - 1})")


def deciding_seat(state: FastState) -> int | None:
    """Who moves: in a reveal the first seat still to pick (seat order), else the rules' seat."""
    if state.phase is Phase.REVEAL:
        return state.picks.index(None)
    return state.to_act


# --- The game ---------------------------------------------------------------------------------


def rules_of(params: dict[str, Any]) -> Rules:
    players = int(params.get("players", 2))
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players: Dékal is played by 2 to 6 players, not {players} (M2)")
    return Rules(players, push=str(params.get("variant", "slide")),
                 first=str(params.get("first", "lowest")))  # fmt: skip


class DekalGame(pyspiel.Game):  # type: ignore[misc]
    """One round of Dékal for 2–6 players; parameters players, variant, first (chosen: seat 0
    starts, F3)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.rules = rules_of(params or {})
        players = self.rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=DISTINCT_ACTIONS,
            max_chance_outcomes=10,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=CARDS + PLAYER_MOVES_PER_SEAT * players,
        )
        super().__init__(GAME_TYPE, info, params or {})

    def new_initial_state(self) -> DekalState:
        return DekalState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DekalObserver:
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return DekalObserver(perfect_recall)


class DekalState(pyspiel.State):  # type: ignore[misc]
    """A round in progress: the deck dealt so far, then the engine's position.

    `deal` and `actions` give the round in the reference's terms (dekal_ref.Deal and the
    actions in playing order), so any other engine can replay it.
    """

    def __init__(self, game: DekalGame) -> None:
        super().__init__(game)
        self.rules: Rules = game.rules
        self.deck: list[int] = []  # the cards dealt so far, in dealing order
        self.left = Counter(DECK)  # the copies of each value not dealt yet
        self.deal: Deal | None = None
        self.position: FastState | None = None  # the engine's full position, once dealt
        # each move as two bytes, its seat and its OpenSpiel action: OpenSpiel clones a
        # Python state with copy.deepcopy at every step, which shares immutable bytes but
        # rebuilt a list of Action objects one by one (the game's length at each clone)
        self.played: bytes = b""
        self.events: list[str] = []  # the public events, for the information states
        self.pending: list[Reveal] = []  # this turn's picks, secret until the last one (T1)
        # Where each face-down card came from: origin[seat][cell] is its index in the deck
        # (-1: no face-down card there), and the pile's top is deck[pile_next]. What is in
        # neither was seen by every seat; resample_from_infostate reshuffles the rest.
        self.origin: list[list[int]] = []
        self.pile_next = CARDS

    @property
    def actions(self) -> list[Action]:
        """The round's moves so far, in playing order, as the reference's actions."""
        seats, numbers = self.played[::2], self.played[1::2]
        return [dekal_action(s, n) for s, n in zip(seats, numbers, strict=True)]

    # -- whose move --------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.position is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.position.phase is Phase.OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = deciding_seat(self.position)
        assert seat is not None
        return seat

    def is_terminal(self) -> bool:
        return self.position is not None and self.position.phase is Phase.OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """M1, M3: the next card of a uniform shuffle, by the copies of each value left."""
        total = CARDS - len(self.deck)
        return [(value - 1, count / total) for value, count in sorted(self.left.items()) if count]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.position is not None
        return sorted(
            action_id(action)
            for action in fast.legal_actions(self.position)
            if getattr(action, "seat", None) == player
        )

    # -- moves -------------------------------------------------------------------------------

    def _apply_action(self, number: int) -> None:
        if self.position is None:
            if self.left[number + 1] <= 0:  # M1: ten of each value 1-10, no other card
                raise ValueError(f"chance outcome {number}: no card of value {number + 1} is left")
            self.deck.append(number + 1)
            self.left[number + 1] -= 1
            if len(self.deck) == CARDS:
                self.deal = deal_from_deck(self.deck, self.rules.players)
                first = 0 if self.rules.first == "chosen" else None
                self.position = fast.new_game(self.rules, self.deal, first)
                players = self.rules.players
                self.origin = [list(range(16 * s, 16 * s + 16)) for s in range(players)]
                self.pile_next = 16 * players
            return
        seat = self.current_player()
        action = dekal_action(seat, number)
        before = self.position
        self.position = fast.apply(before, action)
        self.played += bytes((seat, number))
        self._follow_the_cards(action, before, self.position)
        self._tell(action, before, self.position)

    def _follow_the_cards(self, action: Action, before: FastState, after: FastState) -> None:
        """Keep `origin` and `pile_next` true: the picks leave their grids once every seat has
        picked (T1), F2 draws take the pile's top cards, and a push moves a grid's face-down
        cards as dekal.bits.push_face_down moves their bits (T4, P1, P2)."""
        if isinstance(action, Reveal) and after.phase is not Phase.REVEAL:
            for pick in [*self.pending, action]:
                self.origin[pick.seat][pick.cell] = -1
            self.pile_next += len(after.removed) - len(before.removed)
        elif isinstance(action, PushMove):
            step = STEP[self.rules.push][hole_of(before.grids[action.seat])][action.push]
            moved = [-1] * 16
            for cell, index in enumerate(self.origin[action.seat]):
                if index >= 0:
                    moved[bits.push_face_down(1 << cell, step).bit_length() - 1] = index
            self.origin[action.seat] = moved

    def _tell(self, action: Action, before: FastState, after: FastState) -> None:
        """The public events of a move: a pick is told (with its cell and value) only once
        every seat has picked (T1), and with it the draws of F2 if any."""
        if not isinstance(action, Reveal):
            self.events.append(str(action))
            return
        self.pending.append(action)
        if after.phase is Phase.REVEAL:
            return
        for pick in self.pending:  # every picked card is still in its grid in `before`
            self.events.append(f"{pick}={value_symbol(before.values(pick.seat)[pick.cell])}")
        if after.removed != before.removed:
            self.events.append("draws " + "".join(value_symbol(v) for v in after.removed))
        self.pending = []

    def _action_to_string(self, player: int, number: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {value_symbol(number + 1)}"
        return str(dekal_action(player, number))

    def returns(self) -> list[float]:
        """S3 made zero-sum (see the module docstring); 0 each before the end."""
        players = self.rules.players
        if not self.is_terminal():
            return [0.0] * players
        assert self.position is not None
        places = {s.seat: s.place for s in fast.ranking(self.position)}
        return [
            sum((places[o] > places[p]) - (places[o] < places[p]) for o in places) / (players - 1)
            for p in range(players)
        ]

    # -- what a seat knows -------------------------------------------------------------------

    def own_pick(self, seat: int) -> Reveal | None:
        return next((pick for pick in self.pending if pick.seat == seat), None)

    def _seat(self, player: int | None) -> int:
        """The seat a string is for: the one to move by default, else a seat at the table."""
        if player is None:
            return self.current_player()
        if not 0 <= player < self.rules.players:
            raise ValueError(f"player {player} is not a seat: 0 to {self.rules.players - 1} (M4)")
        return player

    def information_state_string(self, player: int | None = None) -> str:
        """Everything `player` has seen, in order (perfect recall; see the module docstring)."""
        seat = self._seat(player)
        if self.position is None:
            return f"seat {seat}; dealt {len(self.deck)}"
        secret = [str(pick) if pick.seat == seat else f"reveal {pick.seat} ?"
                  for pick in self.pending]  # fmt: skip
        return "; ".join([f"seat {seat}", *self.events, *secret])

    def observation_string(self, player: int | None = None) -> str:
        """The public view of the position (M3), and the seat's own pick if it made one."""
        seat = self._seat(player)
        if self.position is None:
            return f"seat {seat}; dealt {len(self.deck)}"
        pick = self.own_pick(seat)
        mine = f"; your pick {cell_name(pick.cell)}" if pick is not None else ""
        return f"seat {seat}; {format_public_view(observation_of(self.position))}{mine}"

    def resample_from_infostate(self, player: int, sampler: Callable[[], float] | Any) -> Any:
        """A state `player` cannot tell from this one, drawn uniformly (ISMCTS needs one per
        simulation): the cards no seat has seen (face down, or in the pile) shuffled among
        their places in the deck, the other seats' secret picks moved to random face-down
        cells of theirs; the player's own pick stays.

        The new state is dealt that deck and replays the round's moves, so everything it
        exposes (history(), serialize(), `deal`, `deck`, `actions`, its strings) tells the
        resampled round: no hidden card of this one. The moves stay legal: which cells a move
        touches never depends on a hidden value (T1-T4, P1, P2), and every seen card keeps
        its value."""
        self._seat(player)
        if self.position is None:
            raise ValueError("resample_from_infostate: the deal is not over; nothing is seen")
        draw = sampler() if callable(sampler) else random.random()
        shuffle = random.Random(int(draw * 2**53))
        unseen = [i for cells in self.origin for i in cells if i >= 0]
        unseen += range(self.pile_next, CARDS)
        values = [self.deck[i] for i in unseen]
        shuffle.shuffle(values)
        deck = list(self.deck)
        for index, value in zip(unseen, values, strict=True):
            deck[index] = value
        moves = list(self.actions)
        first_pick = len(moves) - len(self.pending)  # this turn's picks are the last moves
        for k, pick in enumerate(self.pending, start=first_pick):
            if pick.seat != player:
                cells = self.position.face_down_cells(pick.seat)
                moves[k] = Reveal(pick.seat, shuffle.choice(cells))
        world = self.get_game().new_initial_state()
        for value in deck:
            world.apply_action(value - 1)
        for move in moves:
            world.apply_action(action_id(move))
        return world

    def __str__(self) -> str:
        if self.position is None:
            return f"dealing: {len(self.deck)} of {CARDS} cards"
        return fast.format_position(self.position)


class DekalObserver:
    """OpenSpiel's observer protocol: strings only, from DekalState's own. The game provides
    no tensors (GAME_TYPE says so): asking for one raises NotImplementedError rather than
    answering with an empty tensor an algorithm would take for a real one."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: DekalState, player: int) -> None:
        raise NotImplementedError(
            "the dekal OpenSpiel game provides no tensors, only strings:"
            " information_state_string and observation_string (docs/openspiel.md)"
        )

    def string_from(self, state: DekalState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


pyspiel.register_game(GAME_TYPE, DekalGame)
