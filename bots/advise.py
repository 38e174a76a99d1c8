"""Advice for one seat: each legal action's expected score and chance of winning the round.

Given a public view (what every player may see, M3) and a seat that has a decision to make
(a reveal T1, a take T3 or a push T4/P1/P2), `advise` scores every legal action of that seat
the same way:

1. worlds: full positions consistent with the public view, drawn uniformly by the sampler
   (dekal.bots.sampler); or, when at most `samples` worlds can end the round differently
   and play after the action is certain in each (the model draws nothing, or nobody
   decides any more), every one of them with its exact probability (`enumerated_worlds`);
2. for each world and each action: play the action, then the rest of the round with every
   seat, the advised one included, deciding by the model bot (`greedy` by default) from its
   own observation and its own draws;
3. the figures: the seat's *score at the end of this round* (S1–S2 points of its grid, what
   the round adds to a match total) averaged over the worlds, a 95% confidence interval of
   that mean, and the probability that the seat *wins this round* (S3: lowest points, then
   fewest cards left; a shared victory counts as a win).

In a match (S4) the advice is about the current round only: the totals, and the rounds
after it, are not played out.

Every action sees the same worlds and the same draws (common random numbers): world k is
sampled from `Draws(game_seed(seed, k))` and seat s then draws from
`Draws(seat_seed(game_seed(seed, k), s))`, so the differences between two actions are not
blurred by different luck, and an answer depends only on (view, seat, samples, seed, model),
never on how the worlds are split among workers.

The figures are estimates under a model of the players, not a proof: see docs/analysis.md.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from statistics import NormalDist

from dekal import bits
from dekal.actions import apply as fast_apply
from dekal.arguments import seed as check_seed
from dekal.arguments import whole
from dekal.bots.bot import Bot, make_bot
from dekal.bots.observation import (
    Observation,
    check_view,
    legal_actions,
    observation_of,
    read_public_view,
    unseen_cards,
)
from dekal.bots.rollout import POLICIES as ROLLOUT_POLICIES
from dekal.bots.rollout import round_outcomes
from dekal.bots.sampler import MOST_WORLDS, exact_worlds, sample_fast
from dekal.bots.table import seat_to_act
from dekal.bots.work import MAX_WORK, check_work
from dekal.draws import Draws, game_seed, seat_seed
from dekal.position import from_reference
from dekal.simulation.runner import run_chunks
from dekal.state import TURNS_PER_ROUND, FastState
from dekal_ref.actions import Action
from dekal_ref.deal import DECK
from dekal_ref.errors import DekalError, IllegalAction, NotationError
from dekal_ref.notation import HOLE, cell_name
from dekal_ref.position import parse_position
from dekal_ref.ranking import places
from dekal_ref.state import GameState, Phase

CONFIDENCE = 0.95
Z95 = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)  # 1.959963…: the normal interval's half-width
MIN_SAMPLES, MAX_SAMPLES = 30, 100_000
"""--samples bounds: the normal interval of a mean needs some thirty draws to be honest; the
upper bound keeps one answer within minutes on one core."""
MAX_SEARCH_WORK = 300_000_000
"""With a searching model (pimc, ismcts) every decision of the played-out round runs a search:
an answer may cost at most this much work, worlds x actions x decisions left in the round x
the search's work per decision (search_work), at most half an hour on one core (measured:
pimc about 7 microseconds a unit, ismcts about 8)."""
DETERMINISTIC_MODELS = frozenset({"greedy"})
"""Models that make no draws: under them, a world's outcome is one number, not a sample."""


class AdviceError(DekalError, ValueError):
    """A question advise cannot answer: a seat not at the table, or one with nothing to
    decide. `field` names what is wrong (the seat)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


# --- outcomes of one played-out round -----------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one world and one action gave the advised seat at the end of the round."""

    points: int  # S2: the seat's score this round
    won: bool  # S3: placed first in this round, shared or not


def outcome_of(points: Sequence[int], remaining: Sequence[int], seat: int) -> Outcome:
    """S3 for the seat in a scored round (every seat's points and cards left, S2): its points,
    and whether it placed first. The round's own ranking, even in a match, where the places
    of dekal_ref.ranking go by totals (S4)."""
    keys: list[tuple[int, ...]] = [(p, r) for p, r in zip(points, remaining, strict=True)]
    return Outcome(keys[seat][0], places(keys)[seat] == 1)


# --- statistics ---------------------------------------------------------------------------


Interval = tuple[float, float]


def mean_interval(values: Sequence[int]) -> tuple[float, Interval]:
    """The mean of equally likely sampled values and its 95% confidence interval: mean ± 1.96
    standard errors (the normal approximation, sound from some thirty values on)."""
    n = len(values)
    mean = math.fsum(values) / n
    variance = math.fsum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(variance / n)
    return mean, (mean - half, mean + half)


def exact_mean_range(values: Sequence[int], weights: Sequence[Fraction]) -> tuple[float, Interval]:
    """The exact mean of values with these probabilities (summing to 1), and the range of the
    values that can happen: it holds all the probability, and has zero width exactly when
    the value is certain."""
    mean = sum((weight * value for value, weight in zip(values, weights, strict=True)), Fraction(0))
    possible = [value for value, weight in zip(values, weights, strict=True) if weight > 0]
    return float(mean), (float(min(possible)), float(max(possible)))


@dataclass(frozen=True)
class Figures:
    """One action's figures.

    `ci95` is the 95% confidence interval of the expected score over sampled worlds (see
    mean_interval); in an exact answer the mean is exact and `ci95` is the range of the
    scores the action can end on (see exact_mean_range). `versus_best` is the same interval
    for this action's score minus the best action's, world by world: on the same worlds
    (common random numbers) the difference is known far better than either score."""

    action: Action
    expected_score: float
    ci95: Interval
    p_win: float
    versus_best: Interval = (0.0, 0.0)


def figures_of(
    actions: Sequence[Action],
    per_world: Sequence[Sequence[Outcome]],
    weights: Sequence[Fraction] | None = None,
) -> list[Figures]:
    """Every action's figures, best first: `per_world[k][i]` is action i's outcome in world
    k; `weights` are the worlds' probabilities in an exact answer (None: equally likely
    sampled worlds). P(win) is the share (or the probability) of the worlds won."""

    def estimate(values: Sequence[int]) -> tuple[float, Interval]:
        if weights is None:
            return mean_interval(values)
        return exact_mean_range(values, weights)

    share = [Fraction(1, len(per_world))] * len(per_world) if weights is None else weights
    points = [[row[i].points for row in per_world] for i in range(len(actions))]
    figures = []
    for i, action in enumerate(actions):
        mean, interval = estimate(points[i])
        p_win = sum((w for row, w in zip(per_world, share, strict=True) if row[i].won), Fraction(0))
        figures.append(Figures(action, mean, interval, float(p_win)))
    ranked = best_first(figures)
    best = points[actions.index(ranked[0].action)]

    def versus_best(figures: Figures) -> Interval:
        mine = points[actions.index(figures.action)]
        return estimate([a - b for a, b in zip(mine, best, strict=True)])[1]

    return [replace(f, versus_best=versus_best(f)) for f in ranked]


def best_first(figures: Sequence[Figures]) -> list[Figures]:
    """Lowest expected score first (the lowest score wins, S3); equal expectations go to the
    higher P(win), then to the legal order."""
    return sorted(figures, key=lambda f: (f.expected_score, -f.p_win))


# --- the answer ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """The answer: every legal action of `seat`, best first.

    `samples` is the number of worlds the figures are over: sampled worlds, or the distinct
    worlds of an exact answer. `exact` is true when every world was enumerated with its
    probability and the play after each action is certain in each world (the model makes
    no draws, or no decision is left)."""

    seat: int
    phase: str
    samples: int
    model: str
    exact: bool
    seed: int
    actions: tuple[Figures, ...]

    @property
    def best(self) -> Action:
        return self.actions[0].action

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "samples": self.samples,
            "model": self.model,  # issue 10 names the key: the bot that plays every later move
            "exact": self.exact,
            "seed": self.seed,
            "actions": [
                {
                    "action": str(f.action),
                    "expected_score": round(f.expected_score, 4),
                    "ci95": [round(f.ci95[0], 4), round(f.ci95[1], 4)],
                    "p_win": round(f.p_win, 4),
                    "versus_best": [round(f.versus_best[0], 4), round(f.versus_best[1], 4)],
                }
                for f in self.actions
            ],
            "best": str(self.best),
        }


Progress = Callable[[int, int], None]
"""progress(done, total): called as chunks of worlds are finished."""


# --- worlds -------------------------------------------------------------------------------


def slot_fillings(
    unseen: Counter[int], slots: int, limit: int
) -> list[tuple[tuple[int, ...], Fraction]] | None:
    """Every distinct sequence of `slots` cards drawn without replacement from `unseen`, with
    its probability (a uniform shuffle puts each sequence there with the product of the
    chances of each draw), or None when there are more than `limit` of them."""
    found: list[tuple[tuple[int, ...], Fraction]] = []
    left = unseen.total()

    def extend(prefix: tuple[int, ...], chance: Fraction) -> bool:
        if len(prefix) == slots:
            found.append((prefix, chance))
            return len(found) <= limit
        remaining = left - len(prefix)
        for value in sorted(unseen):
            copies = unseen[value] - prefix.count(value)
            if copies and not extend((*prefix, value), chance * Fraction(copies, remaining)):
                return False
        return True

    return found if extend((), Fraction(1)) else None


def world_of(view: Observation, cards: Sequence[int], picks: tuple[int | None, ...]) -> FastState:
    """The full position that puts `cards` in the face-down cells (seat by seat, cell
    order) and the unseen rest in the pile, ascending (its order matters only to F2)."""
    words = [word for word, _ in view.words]
    slots = [(seat, cell) for seat in range(view.players) for cell in view.face_down_cells(seat)]
    for (seat, cell), value in zip(slots, cards, strict=True):
        words[seat] |= value << (4 * cell)
    pile = unseen_cards(view) - Counter(cards)
    return FastState(
        view.rules, view.round, view.turn, view.phase, view.start, tuple(words),
        tuple(down for _, down in view.words), picks, view.centre, view.hand,
        tuple(sorted(pile.elements())), view.removed, view.totals,
    )  # fmt: skip


def enumerated_worlds(view: Observation, limit: int) -> list[tuple[FastState, Fraction]] | None:
    """Every distinct world that can end the round differently, with its probability, or
    None when there are more than `limit`.

    Once the first player is known the pile's order can change nothing before the end of
    the round (it only breaks F2's tie on turn 1 of round 1), so worlds that differ only
    there are one world here; dekal.bots.sampler.exact_worlds, which tells them apart, is
    asked only while F2 may still draw from the pile."""
    whole("limit", limit, 0, MOST_WORLDS)
    if view.start is None:
        exact = exact_worlds(view, limit)
        return None if exact is None else [(from_reference(w), p) for w, p in exact]
    slots = sum(len(view.face_down_cells(seat)) for seat in range(view.players))
    fillings = slot_fillings(unseen_cards(view), slots, limit)
    if fillings is None:
        return None
    # a pick made but not revealed yet is in one of its seat's face-down cells, uniformly (T1)
    choices = [
        view.face_down_cells(seat) if made else [None] for seat, made in enumerate(view.picked)
    ]
    picks = list(product(*choices))
    if len(fillings) * len(picks) > limit:
        return None
    share = Fraction(1, len(picks))
    return [
        (world_of(view, cards, chosen), chance * share)
        for cards, chance in fillings
        for chosen in picks
    ]


# --- which positions can be asked about ---------------------------------------------------


def check_reachable(view: Observation) -> None:
    """Refuse, naming the rule, a view that no game can reach: advise plays the round on from
    it, and a clock, a phase or grids that contradict each other would make its figures (and
    the legal actions) meaningless. dekal.bots.observation.check_view has checked the deck
    (M1, M2); this checks the round's shape, from what every turn does to every grid:

    * T5: a round has turns 1 to 16; a single game has one round (S4); `next` is a match's;
    * T1: each turn reveals one face-down card of each grid, and pushes never turn a card
      over (P1, P2), so a grid has 17 - turn face-down cards at the reveal, 16 - turn after
      it, none once the round is scored; picks are made, and stay secret, in the reveal only,
      and the last pick reveals them all at once; the centre fills at the reveal;
    * T3, T4: a take finds 1 to n cards in the centre, a push 0 to n - 1; a card waits in
      hand only for its push; a seat that has not pushed this turn has its hole, one that
      has pushed has none, and before the reveal no grid has a hole;
    * F1, F3, M4: the start is a seat at the table, unknown only on turn 1 of round 1, before
      the reveal, when the lowest card decides it; F2: tie-break draws leave play in round 1
      only, and not before the first reveal;
    * S4: a match goes on only while every total is under its threshold.
    """
    n, rules, phase, turn = view.players, view.rules, view.phase, view.turn
    if {len(view.grids), len(view.picked), len(view.totals)} != {n}:
        raise IllegalAction("M2", f"the rules seat {n}: one grid, pick and total per seat")
    check_view(view)  # M1, M2: the deck, for a view made in Python rather than read
    playing = phase in (Phase.REVEAL, Phase.TAKE, Phase.PUSH)
    if not 1 <= turn <= TURNS_PER_ROUND or view.round < 1:
        raise IllegalAction("T5", f"round {view.round}, turn {turn}: a round has turns 1 to 16")
    if not playing and turn != TURNS_PER_ROUND:
        raise IllegalAction("T5", f"the round is scored only after turn 16, not turn {turn}")
    if rules.threshold is None and view.round != 1:
        raise IllegalAction("S4", f"a single game has one round, not round {view.round}")
    if rules.threshold is None and phase is Phase.NEXT_ROUND:
        raise IllegalAction("T5", "a single game has no next round: it is over (write over)")
    over_threshold = rules.threshold is not None and max(view.totals) >= rules.threshold
    if over_threshold and phase is not Phase.OVER:
        raise IllegalAction("S4", f"a total reached {rules.threshold}: the match is over")
    if rules.threshold is None and phase is not Phase.OVER and any(view.totals):
        raise IllegalAction("S4", "a single game has no totals before its round is scored")
    first_reveal = view.round == 1 and turn == 1 and phase is Phase.REVEAL
    if (view.start is None) != (first_reveal and rules.first == "lowest"):
        raise IllegalAction(
            "F1", "the lowest card of round 1's first reveal gives the start: before it the"
            " start is unknown (-), after it known (F3: given from the outset)",
        )  # fmt: skip
    if view.start is not None and view.start >= n:
        raise IllegalAction("M4", f"the start {view.start} is not a seat: seats are 0 to {n - 1}")
    if view.removed and (view.round != 1 or first_reveal or rules.first != "lowest"):
        raise IllegalAction("F2", "cards leave play to break the first tie of round 1 only")
    if any(view.picked) and phase is not Phase.REVEAL or all(view.picked):
        raise IllegalAction("T1", "picks are secret during the reveal only; the last reveals all")
    if (phase is Phase.REVEAL or not playing) and view.centre:
        raise IllegalAction("T1", f"the centre fills at the reveal; in {phase.value} it is empty")
    if phase is Phase.TAKE and not 1 <= len(view.centre) <= n:
        raise IllegalAction("T3", f"a take finds 1 to {n} cards in the centre")
    if phase is Phase.PUSH and len(view.centre) > n - 1:
        raise IllegalAction("T4", f"a push leaves 0 to {n - 1} cards in the centre")
    down = {Phase.REVEAL: 17 - turn}.get(phase, 16 - turn if playing else 0)
    pushed = _pushed_this_turn(view)
    for seat, cells in enumerate(view.grids):
        if len(view.face_down_cells(seat)) != down:
            raise IllegalAction(
                "T1", f"seat {seat} has {len(view.face_down_cells(seat))} face-down cards:"
                f" {down} in {phase.value} of turn {turn}, one revealed each turn",
            )  # fmt: skip
        holes = cells.count(HOLE)
        if holes != int(phase in (Phase.TAKE, Phase.PUSH) and seat not in pushed):
            raise IllegalAction(
                "T4", f"seat {seat} has {holes} holes: a seat's reveal leaves one, its push"
                " fills it",
            )  # fmt: skip


def _pushed_this_turn(view: Observation) -> set[int]:
    """T3, T4: the seats that have taken and pushed this turn, from the token holder on."""
    if view.phase not in (Phase.TAKE, Phase.PUSH) or view.start is None:
        return set()
    token = (view.start + view.turn - 1) % view.players
    done = view.players - len(view.centre) - (view.phase is Phase.PUSH)
    return {(token + k) % view.players for k in range(done)}


def check_full_position(state: GameState) -> None:
    """A full position shows what its view hides, so it must hold the deck exactly (M1: the
    face-down cards and the pile included) and each made pick must be a face-down cell of its
    seat (T1)."""
    cards = Counter(card.value for grid in state.grids for card in grid if card is not None)
    cards.update(state.centre + state.pile + state.removed)
    if state.hand is not None:
        cards[state.hand] += 1
    for value in sorted(set(cards) | set(DECK)):
        if cards[value] != DECK.count(value):
            raise IllegalAction(
                "M1", f"the position holds {cards[value]} cards of value {value}; the deck"
                f" has {DECK.count(value)}",
            )  # fmt: skip
    for seat, pick in enumerate(state.picks):
        if pick is not None and pick not in state.face_down_cells(seat):
            raise IllegalAction(
                "T1", f"seat {seat} picked {cell_name(pick)}, which is not a face-down card"
            )


def read_question(text: str) -> Observation:
    """The position `dekal advise` is asked about: a public view line, or a full position
    (checked whole, then hidden). NotationError naming the field, or IllegalAction naming the
    rule for a position no game reaches (check_view, check_full_position, check_reachable)."""
    stripped = text.strip()
    if "?" not in stripped and "#" not in stripped:  # a full position: no view writes neither
        check_full_position(parse_position(stripped))
    view = read_public_view(stripped)
    check_reachable(view)
    return view


# --- playing a round out ------------------------------------------------------------------


def table_outcome(state: FastState, bots: Sequence[Bot], seed: int, seat: int) -> Outcome:
    """The table loop to the end of the round, any bots: each seat decides from its own
    observation with its own draws, `Draws(seat_seed(seed, seat))`."""
    draws = [Draws(seat_seed(seed, s)) for s in range(state.rules.players)]
    while state.phase not in (Phase.NEXT_ROUND, Phase.OVER):
        who = seat_to_act(state)  # the table loop's order (docs/contracts.md)
        state = fast_apply(state, bots[who].act(observation_of(state), who, draws[who]))
    scores = [bits.score(word) for word in state.grids]
    return outcome_of([p for p, _ in scores], [r for _, r in scores], seat)


def play_out(
    states: Sequence[FastState], seeds: Sequence[int], model: str, seat: int, playout: str
) -> list[Outcome]:
    """Each state played to the end of its round by `model` for every seat, state k with the
    draws of seeds[k]. The two policies of docs/contracts.md run compiled (dekal.kernel, unless
    playout="python": then dekal.bots.rollout's Python loop); any other bot at the table."""
    if model in ROLLOUT_POLICIES and playout != "table":
        if playout == "python":
            played = round_outcomes(states, model, seeds, compiled=False)
            return [outcome_of(o.points, o.remaining, seat) for o in played]
        from dekal import kernel  # numba: imported only when a rollout needs it

        policy = kernel.POLICIES[model]
        results = kernel.rollouts(states, [policy] * states[0].rules.players, seeds)
        scores, left = results.scores.tolist(), results.cards_left.tolist()
        return [outcome_of(p, r, seat) for p, r in zip(scores, left, strict=True)]
    bots = [make_bot(model) for _ in range(states[0].rules.players)]
    return [table_outcome(state, bots, s, seat) for state, s in zip(states, seeds, strict=True)]


# --- batches of worlds (the unit of work a worker gets) -----------------------------------


@dataclass(frozen=True)
class WorldBatch:
    """Worlds first..first+count-1 of one question. Sampled worlds are drawn here from their
    own seeds; the worlds of an exact answer are given."""

    view: Observation
    seat: int
    model: str
    actions: tuple[Action, ...]
    seed: int
    first: int
    count: int
    playout: str = "auto"
    given: tuple[FastState, ...] = ()

    def worlds(self) -> list[tuple[FastState, int]]:
        """Each world with the seed of its draws: world k belongs to `game_seed(seed, k)`."""
        seeds = [game_seed(self.seed, k) for k in range(self.first, self.first + self.count)]
        if self.given:
            return list(zip(self.given, seeds, strict=True))
        return [(sample_fast(self.view, Draws(s)), s) for s in seeds]


def evaluate_batch(batch: WorldBatch) -> list[list[Outcome]]:
    """outcomes[world][action]: each action played in each world of the batch, then the rest
    of the round by the model; every action meets the same world and the same draws."""
    worlds = batch.worlds()
    states = [fast_apply(world, action) for world, _ in worlds for action in batch.actions]
    seeds = [seed for _, seed in worlds for _ in batch.actions]
    outcomes = play_out(states, seeds, batch.model, batch.seat, batch.playout)
    width = len(batch.actions)
    return [outcomes[k : k + width] for k in range(0, len(outcomes), width)]


# --- the question -------------------------------------------------------------------------

BATCH = 100
"""Worlds per batch: small enough for a smooth progress bar and even work among workers,
large enough for the compiled rollouts to run in bulk."""
PLAYOUTS = ("auto", "python", "table")
"""How a round is played out: auto (compiled for random and greedy), python (the same
policies in dekal.bots.rollout), table (the bots themselves, one decision at a time)."""


def decision_of(view: Observation, seat: int) -> str:
    """The seat's decision in this view: "reveal" (T1), "take" (T3) or "push" (T4).

    AdviceError (field "seat") when the seat is not at the table or has nothing to decide."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < view.players:
        raise AdviceError(
            "seat", f"seat {seat} is not at the table: seats are 0 to {view.players - 1} (M4)"
        )
    why = f"seat {seat} has nothing to decide"
    if view.phase is Phase.OVER:
        raise AdviceError("seat", f"{why}: the game is over (T5, S4)")
    if view.phase is Phase.NEXT_ROUND:
        raise AdviceError("seat", f"{why}: the round is scored, the next needs a deal (M5)")
    if view.phase is Phase.REVEAL:
        if view.picked[seat]:
            raise AdviceError("seat", f"{why}: it has picked this turn; the others pick (T1)")
        return "reveal"
    if view.to_act != seat:
        verb = "take" if view.phase is Phase.TAKE else "push"
        raise AdviceError("seat", f"{why}: seat {view.to_act} must {verb} now (T3, T4)")
    return "take" if view.phase is Phase.TAKE else "push"


def decisions_left(view: Observation) -> int:
    """How many decisions the round has left after this one (T1, T3, T4: each turn every
    seat reveals, takes and pushes): a bound on the searches a played-out round runs."""
    n = view.players
    this_turn = {
        Phase.REVEAL: view.picked.count(False) + 2 * n,
        Phase.TAKE: 2 * len(view.centre),
        Phase.PUSH: 1 + 2 * len(view.centre),
    }.get(view.phase, 0)
    return max(0, this_turn - 1 + 3 * n * (TURNS_PER_ROUND - view.turn))


def search_work(view: Observation, actions: int, worlds: int, bot: Bot) -> int:
    """The work of an answer whose model searches at every later decision, in units of about
    one compiled playout: pimc plays each of at most 16 legal actions in each sample, ismcts
    runs a tree descent and a playout per iteration (some sixteen times a playout's cost).
    The compiled policies (random, greedy) search nothing: 0."""
    per_decision = 16 * (getattr(bot, "samples", 0) + getattr(bot, "iterations", 0))
    return worlds * actions * decisions_left(view) * per_decision


def ends_the_round(view: Observation, phase: str) -> bool:
    """The last push of the round (T5): after it nobody decides, whatever the model."""
    return phase == "push" and view.turn == TURNS_PER_ROUND and not view.centre


def advise(
    view: Observation,
    seat: int,
    *,
    samples: int = 1000,
    seed: int = 0,
    model: str = "greedy",
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
    batch: int = BATCH,
    playout: str = "auto",
) -> Advice:
    """Every legal action of `seat` in `view`, best first (see the module docstring).

    AdviceError (field "seat") for a seat not at the table or with nothing to decide;
    NotationError (field "bot") for an unknown model or a search past MAX_SEARCH_WORK;
    IllegalAction naming the rule for a
    view no game reaches (check_reachable)."""
    check_reachable(view)
    check_seed("seed", seed)  # the API's bounds (dekal.arguments): ValueError naming them
    phase = decision_of(view, seat)
    bot = make_bot(model)  # an unknown model is refused here
    model = bot.name  # the canonical spec
    if playout not in PLAYOUTS:
        raise ValueError(f"playout: one of {', '.join(PLAYOUTS)}, not {playout!r}")
    actions = tuple(legal_actions(view, seat))
    whole("samples", samples, 1, MAX_WORK)
    whole("batch", batch, 1, MAX_WORK)
    # each world plays each action out: a playout, one unit of dekal.bots.work, at least
    check_work(samples * len(actions), "samples", f"{samples:,} worlds x {len(actions)} actions")
    work = search_work(view, len(actions), samples, bot)
    if work > MAX_SEARCH_WORK:
        raise NotationError(
            "bot", f"{model} searching at each of {decisions_left(view)} later decisions of"
            f" {samples:,} worlds x {len(actions)} actions is {work:,} units of work: at most"
            f" {MAX_SEARCH_WORK:,}; give fewer --samples or a smaller search",
        )  # fmt: skip
    certain_play = model in DETERMINISTIC_MODELS or ends_the_round(view, phase)
    enumerated = enumerated_worlds(view, samples) if certain_play else None
    if enumerated is not None:
        states = [world for world, _ in enumerated]
        batches = [
            WorldBatch(view, seat, model, actions, seed, k, len(part), playout, tuple(part))
            for k in range(0, len(states), batch)
            for part in [states[k : k + batch]]
        ]
    else:
        batches = [
            WorldBatch(view, seat, model, actions, seed, k, min(batch, samples - k), playout)
            for k in range(0, samples, batch)
        ]
    per_world = [
        row
        for rows in run_chunks(
            evaluate_batch, batches, workers=workers, scheduler=scheduler, progress=progress
        )
        for row in rows
    ]
    weights = None if enumerated is None else [weight for _, weight in enumerated]
    return Advice(
        seat=seat,
        phase=phase,
        samples=len(per_world),
        model=model,
        exact=enumerated is not None,
        seed=seed,
        actions=tuple(figures_of(actions, per_world, weights)),
    )
