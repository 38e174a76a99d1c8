'use strict';
/**
 * Feature `position` (spec/protocol.md, "new_game from a position"): read a full one-line
 * position into a game state, and refuse one that play cannot reach.
 *
 *   readPosition(text) -> state     (a Refusal: notation naming the field, or illegal + rule)
 *
 * A position that does not parse, or is not written canonically, is a notation refusal; one
 * that parses but no game reaches is refused with the rule it breaks, in the order of the
 * protocol: M2, M1, T5, F3/F1/M4/F2, M5, T1, T3/T4, S4. (`unsupported` is the caller's.)
 */

const { Refusal, illegal } = require('./refusal');
const { valueOf, parseCell } = require('./notation');
const { formatPosition } = require('./position');
const { TURNS, tokenSeat } = require('./game');
const { scoreGrid } = require('./grid');

const LETTERS = 'abcdefghij';

function notation(field, message) {
  return new Refusal('notation', message, { field });
}

function cards(text, field) {
  if (text === '-') return [];
  return [...text].map((symbol) => {
    const value = symbol === 't' ? null : valueOf(symbol);
    if (value === null) throw notation(field, `"${symbol}" is not a card value`);
    return value;
  });
}

function whole(text, field) {
  if (!/^[0-9]+$/.test(text)) throw notation(field, `"${text}" is not a number`);
  return Number(text);
}

function grid(text, seat) {
  const rows = text.split('/');
  if (rows.length !== 4 || rows.some((row) => row.length !== 4)) {
    throw notation('grids', `seat ${seat}'s grid is not 4 rows of 4 cells`);
  }
  return [...rows.join('')].map((symbol) => {
    if (symbol === '.') return null;
    if (LETTERS.includes(symbol)) return { value: LETTERS.indexOf(symbol) + 1, faceUp: false };
    const value = symbol === 't' ? null : valueOf(symbol);
    if (value === null) throw notation('grids', `"${symbol}" is not a card, a letter a-j or .`);
    return { value, faceUp: true };
  });
}

/** The ten fields read into a state; notation refusals only. */
function parse(text) {
  const fields = typeof text === 'string' ? text.split(' ') : [];
  if (fields.length !== 10) throw notation('position', 'a position has ten fields');
  const [rulesF, clockF, phaseF, startF, gridsF, picksF, centreF, pileF, removedF, totalsF] = fields;
  const [push, first, length, ...extra] = rulesF.split('/');
  if (extra.length || !['slide', 'eject'].includes(push) || !['lowest', 'chosen'].includes(first)) {
    throw notation('rules', `"${rulesF}": write push/first/threshold`);
  }
  const threshold = length === 'single' ? null : whole(length, 'rules');
  const seatTexts = gridsF.split('|');
  // notation's bound (spec/notation.md, "Bounds"): seats 0-99, so 100 grids at most
  if (seatTexts.length > 100) throw notation('grids', 'more than 100 grids: one per seat');
  const grids = seatTexts.map(grid);
  const players = grids.length;
  const clock = /^([0-9]+)\.([0-9]+)$/.exec(clockF);
  if (!clock) throw notation('round.turn', `"${clockF}" is not ROUND.TURN`);
  const phase = /^(reveal|next|over)$|^(take)@([0-9]+)$|^(push)@([0-9]+):([1-9T])$/.exec(phaseF);
  if (!phase) throw notation('phase', `"${phaseF}": reveal, take@S, push@S:V, next or over`);
  const picks = picksF.split(',').map((pick) => (pick === '-' ? null : parseCell(pick)));
  const totals = totalsF.split(',').map((total) => whole(total, 'totals'));
  if (picks.length !== players) throw notation('picks', 'one pick (or -) per seat');
  if (totals.length !== players) throw notation('totals', 'one total per seat');
  if (pileF.startsWith('#')) throw notation('pile', 'a public view cannot be loaded');
  const state = {
    rules: { players, push, first, threshold },
    round: Number(clock[1]),
    turn: Number(clock[2]),
    phase: phase[1] || phase[2] || phase[4],
    actor: phase[3] !== undefined ? Number(phase[3]) : phase[5] !== undefined ? Number(phase[5]) : null,
    holding: phase[6] !== undefined ? valueOf(phase[6]) : null,
    start: startF === '-' ? null : whole(startF, 'start'),
    grids,
    picks,
    centre: cards(centreF, 'centre'),
    pile: cards(pileF, 'pile'),
    removed: cards(removedF, 'removed'),
    totals,
  };
  if (formatPosition(state) !== text) throw notation('position', 'the position is not written canonically');
  return state;
}

/** The seats that still hold a hole in the take and push phases (they have not pushed). */
function holesMidTurn(state) {
  const n = state.rules.players;
  const taken = n - state.centre.length;
  const pushed = taken - (state.phase === 'push' ? 1 : 0);
  const token = tokenSeat(state);
  const done = new Set();
  for (let k = 0; k < pushed; k += 1) done.add((token + k) % n);
  return state.grids.map((_, seat) => (done.has(seat) ? 0 : 1));
}

/** Refuse a position no game reaches, naming the rule (see the module comment). */
function checkReachable(state) {
  const { players, first, threshold } = state.rules;
  if (players < 2 || players > 6) throw illegal('M2', 'Dékal is 2 to 6 players');
  const counts = new Array(11).fill(0);
  const all = [...state.grids.flat().filter((c) => c !== null).map((c) => c.value),
    ...state.centre, ...state.pile, ...state.removed, ...(state.holding === null ? [] : [state.holding])];
  for (const value of all) counts[value] += 1;
  if (all.length !== 100 || counts.slice(1).some((c) => c !== 10)) throw illegal('M1', 'not the 100 cards of the box');
  const scored = state.phase === 'next' || state.phase === 'over';
  if (state.round < 1 || state.turn < 1 || state.turn > TURNS || (scored && state.turn !== TURNS)) {
    throw illegal('T5', 'turns are 1-16, and a round is scored after turn 16');
  }
  if (state.start === null) {
    if (first === 'chosen') throw illegal('F3', 'under chosen the first player is known');
    if (state.round !== 1 || state.turn !== 1 || state.phase !== 'reveal') {
      throw illegal('F1', 'the first player is known once turn 1 is revealed');
    }
  } else if (state.start >= players) throw illegal('M4', `there is no seat ${state.start}`);
  else if (first === 'lowest' && state.round === 1 && state.turn === 1 && state.phase === 'reveal') {
    throw illegal('F1', 'under the lowest-card rule nobody starts before turn 1 is revealed');
  }
  if (state.removed.length > 0 && (first !== 'lowest' || state.round !== 1 || state.start === null)) {
    throw illegal('F2', 'only a round-1 tie for the lowest card removes cards');
  }
  if (state.removed.length === 1) throw illegal('F2', 'a tie-break draws a card for each of two or more tied seats');
  if (threshold === null && (state.round !== 1 || state.phase === 'next')) {
    throw illegal('M5', 'a single-round game has one round');
  }
  if (state.phase !== 'reveal' && state.picks.some((p) => p !== null)) throw illegal('T1', 'picks outside the reveal');
  state.picks.forEach((pick, seat) => {
    const card = pick === null ? undefined : state.grids[seat][pick];
    if (card === null || (card !== undefined && card.faceUp)) throw illegal('T1', `seat ${seat} picked a face-up cell`);
  });
  if (state.phase === 'reveal' && state.picks.every((p) => p !== null)) {
    throw illegal('T1', 'the last pick turns every pick over: a seat is still to pick');
  }
  if (state.phase === 'take' && state.centre.length === 0) throw illegal('T3', 'the take phase has cards in the centre');
  let faceDown = 17 - state.turn;
  let holes = state.grids.map(() => 0);
  if (scored) faceDown = 0;
  else if (state.phase !== 'reveal') {
    faceDown = 16 - state.turn;
    holes = holesMidTurn(state);
  }
  state.grids.forEach((cells, seat) => {
    if (cells.filter((c) => c !== null && !c.faceUp).length !== faceDown) {
      throw illegal('T1', `seat ${seat} must hold ${faceDown} face-down cards`);
    }
    if (cells.filter((c) => c === null).length !== holes[seat]) throw illegal('T4', `seat ${seat}'s holes`);
  });
  if (threshold !== null && state.totals.some((t) => t >= threshold) !== (state.phase === 'over')) {
    throw illegal('S4', 'the threshold decides whether the match is over');
  }
  if (threshold === null) {
    const due = state.grids.map((cells) => (state.phase === 'over'
      ? scoreGrid(cells.map((c) => (c === null ? 0 : c.value))).points : 0));
    if (due.some((points, seat) => points !== state.totals[seat])) {
      throw illegal('S2', "a single round's totals are 0 until it is scored, then its points");
    }
  }
}

/** The actor written in `take@S` / `push@S:V` is the seat whose turn it is, counted from the
 * token's seat; with the start '-' no S is (notation). */
function checkActor(state) {
  if (state.actor === null) return;
  // S counts from the token's seat (T3, T4); while the start is '-' no seat holds it (T5)
  if (state.start === null) throw notation('phase', `${state.phase}@S names a seat, but the start is '-'`);
  const n = state.rules.players;
  const taken = n - state.centre.length;
  const offset = state.phase === 'take' ? taken : taken - 1;
  if (state.actor !== (tokenSeat(state) + offset) % n) {
    throw notation('phase', `it is not seat ${state.actor}'s turn to ${state.phase}`);
  }
}

/** Read a position; players and claims are checked by the caller between the two steps. */
function readPosition(text) {
  const state = parse(text);
  checkActor(state);
  return state;
}

module.exports = { readPosition, checkReachable };
