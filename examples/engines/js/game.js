'use strict';
/**
 * A game of Dékal: the state, the three actions (T1 reveal, T3 take, T4 push), the first
 * player (F1-F3), the token (T5), scoring at the end of a round (S1-S2) and match rounds
 * (S4, F4, M5).
 *
 * A state is a plain object. The actions check every rule BEFORE they change anything, so a
 * refused action leaves the state exactly as it was (B1). `cloneState` gives an independent
 * copy (for perft).
 *
 * state = {
 *   rules: {players, push: 'slide'|'eject', first: 'lowest'|'chosen', threshold: null|int},
 *   round, turn,                     // from 1; turn 1..16
 *   phase: 'reveal'|'take'|'push'|'next'|'over',
 *   actor, holding,                  // the seat to take/push, the value it must push
 *   start,                           // seat holding the token on turn 1 of this round, or null
 *   grids,                           // per seat, 16 cells: null (the hole) or {value, faceUp}
 *   picks,                           // per seat: the picked cell this turn, or null
 *   centre, pile, removed,           // card values; pile top first; removed in drawing order
 *   totals,                          // match totals after the rounds already scored
 * }
 */

const { Refusal, illegal } = require('./refusal');
const { scoreGrid, holeOf, applyPush, legalPushes } = require('./grid');
const { valueSymbol, valueOf, cellName, formatPush, parseValueGrid } = require('./notation');
const { active } = require('./bugs');

const CARDS_PER_VALUE = 10;
const TURNS = 16;

// ---------------------------------------------------------------- the deal (M1-M3)

/**
 * Read a deal {grids: [...], pile: "..."}: each grid in grid notation (a hole `.` reads, to be
 * refused later with M3), the pile as value symbols top first (`-` when empty). Text that does
 * not parse is a notation refusal. Returns {grids: values[][] (0 = hole), pile: values[]}.
 */
function readDeal(deal) {
  if (deal === null || typeof deal !== 'object' || !Array.isArray(deal.grids)
      || typeof deal.pile !== 'string') {
    throw new Refusal('bad_request', 'deal must be {"grids": [...], "pile": "..."}');
  }
  deal.grids.forEach((text, seat) => {
    if (typeof text !== 'string') {
      throw new Refusal('bad_request', `deal.grids[${seat}] must be a string`, { field: 'deal.grids' });
    }
  });
  if (deal.pile === '') throw new Refusal('notation', 'an empty pile is written "-"', { field: 'pile' });
  const grids = deal.grids.map((text, seat) => {
    const values = parseValueGrid(text);
    if (values === null) {
      throw new Refusal('notation', `seat ${seat}'s grid ${JSON.stringify(text)} is not 4 rows of 4 cards`, { field: 'deal' });
    }
    return values;
  });
  const symbols = deal.pile === '-' ? [] : [...deal.pile];
  const pile = symbols.map((symbol) => {
    const value = valueOf(symbol);
    if (value === null) throw new Refusal('notation', `"${symbol}" in the pile is not a card value`, { field: 'pile' });
    return value;
  });
  return { grids, pile };
}

/** M2: 2 to 6 players, one grid each. */
function checkPlayers(players, grids) {
  if (!Number.isInteger(players) || players < 2 || players > 6 || grids.length !== players) {
    throw illegal('M2', `Dékal is 2 to 6 players, one grid each (${players} players, ${grids.length} grids)`);
  }
}

/** M3: every grid is 16 cards (no hole); M1: grids and pile are the 100 cards of the box. */
function checkCards({ grids, pile }) {
  const holed = grids.findIndex((values) => values.includes(0));
  if (holed >= 0) throw illegal('M3', `seat ${holed}'s grid has a hole: a deal is 16 cards per grid`);
  const counts = new Array(11).fill(0);
  for (const value of [...grids.flat(), ...pile]) counts[value] += 1;
  for (let value = 1; value <= 10; value += 1) {
    if (counts[value] !== CARDS_PER_VALUE) {
      throw illegal('M1', `the deal has ${counts[value]} cards of value ${valueSymbol(value)}, not ${CARDS_PER_VALUE}`);
    }
  }
}

function faceDown(values) {
  return values.map((value) => ({ value, faceUp: false }));
}

/**
 * Start round 1 (M1-M4, F1/F3) from a deal read by `readDeal`.
 * `rules` = {players, push, first, threshold}.
 * `firstPlayer`: the seat given the token at set-up under `chosen` (F3); null under `lowest`.
 */
function newGame(rules, deal, firstPlayer) {
  const { players } = rules;
  checkPlayers(players, deal.grids);
  checkCards(deal);
  const { grids, pile } = deal;
  let start = null;
  if (rules.first === 'chosen') {
    if (!Number.isInteger(firstPlayer) || firstPlayer < 0 || firstPlayer >= players) {
      throw illegal('F3', 'the chosen variant needs a first_player 0 .. n-1');
    }
    start = firstPlayer;
  } else if (firstPlayer !== null && firstPlayer !== undefined) {
    throw illegal('F1', 'under the lowest-card rule the first player is found on turn 1, not given');
  }
  return {
    rules: { ...rules },
    round: 1,
    turn: 1,
    phase: 'reveal',
    actor: null,
    holding: null,
    start,
    grids: grids.map(faceDown),
    picks: new Array(players).fill(null),
    centre: [],
    pile,
    removed: [],
    totals: new Array(players).fill(0),
  };
}

/**
 * M5, F4: the next round of a match, dealt anew (a deal read by `readDeal`); the start seat
 * rotates one seat left.
 */
function newRound(state, deal) {
  if (state.phase === 'over') {
    throw state.rules.threshold === null
      ? illegal('T5', 'the game is over')
      : illegal('S4', 'the match is over');
  }
  if (state.phase !== 'next') throw illegal('M5', 'the round is not scored yet');
  checkPlayers(state.rules.players, deal.grids);
  checkCards(deal);
  const { grids, pile } = deal;
  const n = state.rules.players;
  state.round += 1;
  state.turn = 1;
  state.phase = 'reveal';
  state.actor = null;
  state.holding = null;
  state.start = active('no-rotation') ? state.start : (state.start + 1) % n;
  state.grids = grids.map(faceDown);
  state.picks = new Array(n).fill(null);
  state.centre = [];
  state.pile = pile;
  state.removed = [];
}

function cloneState(state) {
  return {
    ...state,
    rules: { ...state.rules },
    grids: state.grids.map((g) => g.slice()),
    picks: state.picks.slice(),
    centre: state.centre.slice(),
    pile: state.pile.slice(),
    removed: state.removed.slice(),
    totals: state.totals.slice(),
  };
}

// ---------------------------------------------------------------- whose turn (T5)

/** T5: the seat holding the token on the current turn: it passes left (i -> i+1) each turn. */
function tokenSeat(state) {
  const n = state.rules.players;
  const passes = state.turn - 1;
  const step = active('token-right') ? -passes : passes;
  return (((state.start + step) % n) + n) % n;
}

// ---------------------------------------------------------------- actions

/** B1 checks shared by every action: the game is still running (T5/S4/M5); a real seat (M4). */
function checkCanAct(state, seat) {
  if (state.phase === 'over') {
    throw state.rules.threshold === null
      ? illegal('T5', 'the game is over')
      : illegal('S4', 'the match is over');
  }
  if (state.phase === 'next') throw illegal('M5', 'the round is scored: the next round needs a new deal');
  if (seat < 0 || seat >= state.rules.players) {
    throw illegal('M4', `there is no seat ${seat} (seats 0 .. ${state.rules.players - 1})`);
  }
}

/** T1: `seat` secretly picks one face-down card of its own grid. */
function reveal(state, seat, cell) {
  checkCanAct(state, seat);
  if (state.phase !== 'reveal') throw illegal('T1', 'cards are revealed only at the start of a turn');
  if (state.picks[seat] !== null) throw illegal('T1', `seat ${seat} has already picked this turn`);
  const card = state.grids[seat][cell];
  if (card === null) throw illegal('T1', `${cellName(cell)} is the hole`);
  if (card.faceUp && !active('reveal-face-up')) {
    throw illegal('T1', `${cellName(cell)} is already face up`);
  }
  state.picks[seat] = cell;
  if (state.picks.every((pick) => pick !== null)) revealAll(state);
}

/** T1: all picks are revealed at once; each leaves a hole; then the takes begin (T3). */
function revealAll(state) {
  const revealed = state.picks.map((cell, seat) => {
    const card = state.grids[seat][cell];
    state.grids[seat][cell] = null;
    return card.value;
  });
  state.centre.push(...revealed);
  state.picks = state.picks.map(() => null);
  if (state.start === null) state.start = firstPlayerByLowestCard(state, revealed);
  state.phase = 'take';
  state.actor = tokenSeat(state);
}

/**
 * F1: the single lowest revealed card takes the token. F2: tied seats draw the top card of
 * the set-aside pile in clockwise order from the lowest tied seat; the lowest draw wins; the
 * drawn cards leave play; if the pile cannot serve every still-tied seat, the lowest of them
 * takes the token.
 */
function firstPlayerByLowestCard(state, revealed) {
  const lowest = Math.min(...revealed);
  let tied = revealed.map((v, seat) => (v === lowest ? seat : -1)).filter((seat) => seat >= 0);
  while (tied.length > 1) {
    if (state.pile.length < tied.length) return Math.min(...tied);
    const draws = tied.map(() => state.pile.shift());
    state.removed.push(...draws);
    const best = active('f2-highest-draw') ? Math.max(...draws) : Math.min(...draws);
    tied = tied.filter((_, i) => draws[i] === best);
  }
  return tied[0];
}

/** T3: the seat to act takes one centre card of this value. */
function take(state, seat, value) {
  checkCanAct(state, seat);
  if (state.phase === 'reveal') throw illegal('T3', 'not every seat has revealed yet');
  if (state.phase === 'push') {
    throw illegal(active('wrong-rule-id') ? 'T3' : 'T4', `seat ${state.actor} must push its card first`);
  }
  const at = state.centre.indexOf(value);
  if (seat !== state.actor) {
    if (active('take-leaks') && at >= 0) state.centre.splice(at, 1);
    throw illegal('T3', `it is seat ${state.actor}'s turn to take`);
  }
  if (at < 0) throw illegal('T3', `there is no ${valueSymbol(value)} in the centre`);
  state.centre.splice(at, 1);
  state.phase = 'push';
  state.holding = value;
}

/** T4 with P1/P2: the taker pushes its card into its grid; then the next seat takes. */
function push(state, seat, move) {
  checkCanAct(state, seat);
  if (state.phase !== 'push') throw illegal('T4', 'no card is waiting to be pushed');
  if (seat !== state.actor) throw illegal('T4', `seat ${state.actor} holds the card to push`);
  const grid = state.grids[seat];
  const hole = holeOf(grid, (c) => c === null);
  state.grids[seat] = applyPush(grid, hole, move, { value: state.holding, faceUp: true }, state.rules.push);
  state.holding = null;
  if (state.centre.length > 0) {
    state.phase = 'take';
    state.actor = (seat + 1) % state.rules.players;
  } else {
    endTurn(state);
  }
}

/** T5: the turn ends; after turn 16 the round is scored (S1, S2) and totals grow (S4). */
function endTurn(state) {
  state.actor = null;
  if (state.turn < TURNS) {
    state.turn += 1;
    state.phase = 'reveal';
    return;
  }
  roundScores(state).forEach((score, seat) => { state.totals[seat] += score.points; });
  const { threshold } = state.rules;
  if (threshold === null) state.phase = 'over';
  else {
    const reached = active('threshold-strict')
      ? state.totals.some((t) => t > threshold)
      : state.totals.some((t) => t >= threshold);
    state.phase = reached ? 'over' : 'next';
  }
}

/** Play one parsed action (see notation.parseAction). */
function play(state, action) {
  if (action.verb === 'reveal') reveal(state, action.seat, action.cell);
  else if (action.verb === 'take') take(state, action.seat, action.value);
  else push(state, action.seat, action.push);
}

// ---------------------------------------------------------------- what can be played

/** The face-down cells of a seat's grid (the cells it may pick, T1). */
function faceDownCells(state, seat) {
  const cells = [];
  state.grids[seat].forEach((card, cell) => {
    if (card !== null && (!card.faceUp || active('reveal-face-up'))) cells.push(cell);
  });
  return cells;
}

function distinctCentreValues(state) {
  return [...new Set(state.centre)].sort((a, b) => a - b);
}

function pushesNow(state) {
  const hole = holeOf(state.grids[state.actor], (c) => c === null);
  return legalPushes(hole, state.rules.push);
}

/** Every legal action in canonical notation (the `legal` command). */
function legalActions(state) {
  if (state.phase === 'reveal') {
    const found = [];
    state.picks.forEach((pick, seat) => {
      if (pick === null) {
        for (const cell of faceDownCells(state, seat)) found.push(`reveal ${seat} ${cellName(cell)}`);
      }
    });
    return found;
  }
  if (state.phase === 'take') {
    return distinctCentreValues(state).map((v) => `take ${state.actor} ${valueSymbol(v)}`);
  }
  if (state.phase === 'push') {
    return pushesNow(state).map((p) => `push ${state.actor} ${formatPush(p)}`);
  }
  return [];
}

// ---------------------------------------------------------------- scores and ranking

/** S1, S2 of every seat's grid as it stands (all face up at the end of a round). */
function roundScores(state) {
  return state.grids.map((grid) => scoreGrid(grid.map((card) => (card === null ? 0 : card.value))));
}

/**
 * S3 (single round): lowest points, then fewest cards left, else shared.
 * S4 (match): lowest total, equal totals share.
 * Returns [{place, seat}], best first, ties by ascending seat, places as in sport.
 */
function ranking(state) {
  const scores = roundScores(state);
  const single = state.rules.threshold === null;
  const key = (seat) => {
    if (!single) return [state.totals[seat]];
    const { points, remaining } = scores[seat];
    if (active('highest-wins')) return [-points, remaining];
    return [points, active('tie-more-cards') ? -remaining : remaining];
  };
  const compare = (a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  };
  const seats = state.totals.map((_, seat) => seat).sort((a, b) => compare(a, b) || a - b);
  return seats.map((seat, index) => {
    let first = index;
    while (first > 0 && compare(seats[first - 1], seat) === 0) first -= 1;
    return { place: first + 1, seat };
  });
}

module.exports = {
  TURNS,
  readDeal,
  checkPlayers,
  newGame,
  newRound,
  cloneState,
  tokenSeat,
  play,
  revealAll,
  faceDownCells,
  distinctCentreValues,
  pushesNow,
  legalActions,
  roundScores,
  ranking,
};
