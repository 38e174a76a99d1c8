'use strict';
/**
 * The engine protocol v1 (spec/protocol.md): one JSON request per line on standard input,
 * one JSON reply per line on standard output. `Session.handle(request)` answers one request;
 * `serve()` runs the loop.
 */

const readline = require('readline');
const { Refusal, illegal } = require('./refusal');
const notation = require('./notation');
const grid = require('./grid');
const game = require('./game');
const { formatPosition } = require('./position');
const { divide } = require('./perft');
const { selectedBugs } = require('./bugs');
const { deal: seededDeal } = require('./deal');
const { readPosition, checkReachable } = require('./load');

const PROTOCOL = 1;
const NAME = 'dekal-js';
const VERSION = '1.0.0';
const PUSH_VARIANTS = ['slide', 'eject'];
const FIRST_VARIANTS = ['lowest', 'chosen'];

function badRequest(message) {
  return new Refusal('bad_request', message);
}

function field(request, name, check, description) {
  if (!(name in request) || !check(request[name])) {
    throw badRequest(`field "${name}" must be ${description}`);
  }
  return request[name];
}

const isString = (v) => typeof v === 'string';
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A grid of plain values for the single-grid commands, or a notation refusal. */
function valueGrid(text) {
  const cells = notation.parseValueGrid(text);
  if (cells === null) {
    throw new Refusal('notation', `${JSON.stringify(text)} is not a grid (4 rows of 1-9/T/., joined by /)`, {
      field: 'grid',
    });
  }
  return cells;
}

/** The `variant` field of `pushes` and `push`: `slide` (P1) or `eject` (P2). */
function variantOf(request) {
  const variant = field(request, 'variant', isString, '"slide" or "eject"');
  if (!PUSH_VARIANTS.includes(variant)) {
    throw new Refusal('notation', `${JSON.stringify(variant)} is not a push variant (slide, eject)`, {
      field: 'variant',
    });
  }
  return variant;
}

/** The hole of a single grid; a grid without exactly one hole cannot take a push (T4). */
function singleHole(cells) {
  const hole = grid.holeOf(cells, (v) => v === 0);
  if (hole < 0) throw illegal('T4', 'a push needs a grid with exactly one hole');
  return hole;
}

class Session {
  constructor() {
    this.state = null;
  }

  /** One reply object for one request object. */
  handle(request) {
    const id = isObject(request) && Number.isInteger(request.id) ? request.id : null;
    try {
      if (!isObject(request)) throw badRequest('a request is a JSON object');
      const command = request.cmd;
      const handler = typeof command === 'string' && Object.hasOwn(COMMANDS, command)
        ? COMMANDS[command] : null;
      if (handler === null) throw badRequest(`unknown cmd ${JSON.stringify(command)}`);
      return { id, ok: true, ...handler.call(this, request) };
    } catch (error) {
      if (error instanceof Refusal) return { id, ok: false, error: error.toError() };
      return { id, ok: false, error: { kind: 'bad_request', message: `internal error: ${error.message}` } };
    }
  }

  /** Feature position: the game starts at a full position (refusals: protocol.md). */
  newGameFromPosition(request) {
    const state = readPosition(field(request, 'position', isString, 'a position string'));
    const { players, push, first } = state.rules;
    if (players < 2 || players > 6) throw illegal('M2', 'Dékal is 2 to 6 players');
    if (!PUSH_VARIANTS.includes(push) || !FIRST_VARIANTS.includes(first)) {
      throw new Refusal('unsupported', `${push}/${first}`);
    }
    checkReachable(state);
    this.state = state;
    return {};
  }

  currentGame() {
    if (this.state === null) throw badRequest('no game: send new_game first');
    return this.state;
  }
}

const COMMANDS = {
  hello() {
    const bugs = selectedBugs();
    return {
      name: bugs.length === 0 ? NAME : `${NAME} (bug: ${bugs.join(',')})`,
      version: VERSION,
      protocol: PROTOCOL,
      players: [2, 3, 4, 5, 6],
      variants: { push: PUSH_VARIANTS, first: FIRST_VARIANTS },
      features: ['match', 'perft', 'public', 'seeded-deal', 'position'],
    };
  },

  new_game(request) {
    if ('position' in request) return this.newGameFromPosition(request);
    const rules = field(request, 'rules', isObject, 'an object');
    const players = field(rules, 'players', Number.isInteger, 'an integer');
    // a missing variant is a missing field (spec/protocol.md, new_game: bad_request)
    if (rules.push === undefined) throw badRequest('rules.push is missing');
    if (rules.first === undefined) throw badRequest('rules.first is missing');
    const push = rules.push;
    const first = rules.first;
    const threshold = rules.threshold === undefined ? null : rules.threshold;
    const firstPlayer = request.first_player === undefined ? null : request.first_player;
    if (firstPlayer !== null && !Number.isInteger(firstPlayer)) {
      throw badRequest('first_player must be a seat number or null');
    }
    if (threshold !== null && !(Number.isInteger(threshold) && threshold > 0 && threshold <= 1e9)) {
      throw new Refusal('bad_request', 'a match threshold is null or a whole number from 1 to 10^9', { field: 'rules.threshold' });
    }
    this.state = null; // any previous game is dropped, even when this one is refused
    // Precedence (protocol.md, new_game): bad_request, notation, M2, unsupported, M3, M1, F3, F1.
    const deal = game.readDeal(field(request, 'deal', isObject, 'an object {"grids": [...], "pile": "..."}'));
    game.checkPlayers(players, deal.grids);
    for (const [name, value] of [['push', push], ['first', first]]) {
      if (typeof value !== 'string') {
        throw new Refusal('bad_request', `rules.${name} must be a string`, { field: `rules.${name}` });
      }
    }
    if (!PUSH_VARIANTS.includes(push)) throw new Refusal('unsupported', `push variant ${JSON.stringify(push)}`);
    if (!FIRST_VARIANTS.includes(first)) throw new Refusal('unsupported', `first-player variant ${JSON.stringify(first)}`);
    this.state = game.newGame({ players, push, first, threshold }, deal, firstPlayer);
    return {};
  },

  action(request) {
    const state = this.currentGame();
    const action = notation.parseAction(field(request, 'action', isString, 'a string'));
    game.play(state, action);
    return {};
  },

  position() {
    const state = this.currentGame();
    return { position: formatPosition(state), public: formatPosition(state, true) };
  },

  legal() {
    return { actions: game.legalActions(this.currentGame()) };
  },

  result() {
    const state = this.currentGame();
    if (state.phase !== 'next' && state.phase !== 'over') {
      throw badRequest('the round is not scored yet');
    }
    const scores = game.roundScores(state).map((score, seat) => ({
      seat,
      points: score.points,
      remaining: score.remaining,
      cancelled: score.cancelled.map(notation.cellName),
    }));
    return { scores, totals: state.totals.slice(), ranking: game.ranking(state) };
  },

  new_round(request) {
    const state = this.currentGame();
    const deal = game.readDeal(field(request, 'deal', isObject, 'an object {"grids": [...], "pile": "..."}'));
    game.newRound(state, deal);
    return {};
  },

  perft(request) {
    const depth = field(request, 'depth', (v) => Number.isInteger(v) && v >= 0, 'an integer >= 0');
    return divide(this.currentGame(), depth);
  },

  score(request) {
    const cells = valueGrid(field(request, 'grid', isString, 'a grid string'));
    if (cells.includes(0)) {
      throw new Refusal('notation', 'a grid to score has 16 cards and no hole', { field: 'grid' });
    }
    const score = grid.scoreGrid(cells);
    return { points: score.points, remaining: score.remaining, cancelled: score.cancelled.map(notation.cellName) };
  },

  pushes(request) {
    const cells = valueGrid(field(request, 'grid', isString, 'a grid string'));
    const variant = variantOf(request);
    const hole = singleHole(cells);
    return { pushes: grid.legalPushes(hole, variant).map(notation.formatPush) };
  },

  push(request) {
    const cells = valueGrid(field(request, 'grid', isString, 'a grid string'));
    const move = notation.parsePush(field(request, 'push', isString, 'a push string'));
    const card = notation.parseValue(field(request, 'card', isString, 'a card value 1-9/T'));
    const variant = variantOf(request);
    const hole = singleHole(cells);
    return { grid: notation.formatValueGrid(grid.applyPush(cells, hole, move, card, variant)) };
  },

  /** Feature seeded-deal: the deal of spec/rules.md ("Seeded deals"). */
  deal(request) {
    const seed = exactInteger(request, 'seed');
    if (seed === null || seed < 0n || seed >= 1n << 64n) {
      throw new Refusal('bad_request', 'seed must be a whole number from 0 to 2^64 - 1', { field: 'seed' });
    }
    const players = exactInteger(request, 'players');
    const round = exactInteger(request, 'round');
    if (players === null) throw new Refusal('bad_request', 'players must be a whole number', { field: 'players' });
    if (round === null || round < 1n || round > 1000n) {
      throw new Refusal('bad_request', 'round must be a whole number from 1 to 1000', { field: 'round' });
    }
    if (players < 2n || players > 6n) throw illegal('M2', 'Dékal is 2 to 6 players');
    return { deal: seededDeal(seed, Number(players), Number(round)) };
  },

  quit() {
    return {};
  },
};

/**
 * A whole-number field read exactly, as a BigInt, or null. `serve` turns the integer literal
 * of a request's `seed` into {"$integer": "digits"} before JSON.parse, because JSON.parse
 * reads numbers as doubles and 2^64 - 1 is not one (a seed written 1.5 or "42" stays as is,
 * and is refused).
 */
function exactInteger(request, name) {
  const value = request[name];
  if (isObject(value) && typeof value.$integer === 'string') return BigInt(value.$integer);
  return Number.isSafeInteger(value) ? BigInt(value) : null;
}

/** The integer literals of these fields, kept as text so that none is rounded. */
const EXACT_FIELDS = /"(seed)"\s*:\s*(-?\d+)(?=\s*[,}])/g;

function parseRequest(line) {
  return JSON.parse(line.replace(EXACT_FIELDS, (_, name, digits) => `"${name}":{"$integer":"${digits}"}`));
}

/** Answer requests from standard input until `quit` or the end of input. */
function serve() {
  const session = new Session();
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  let quitting = false;
  lines.on('line', (line) => {
    if (quitting || line.trim() === '') return; // lines already buffered after a quit are not read
    let request;
    try {
      request = parseRequest(line);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ id: null, ok: false, error: { kind: 'bad_request', message: `not JSON: ${error.message}` } })}\n`);
      return;
    }
    const reply = session.handle(request);
    if (isObject(request) && request.cmd === 'quit') {
      quitting = true;
      lines.close();
      process.stdout.write(`${JSON.stringify(reply)}\n`, () => process.exit(0));
      return;
    }
    process.stdout.write(`${JSON.stringify(reply)}\n`);
  });
  lines.on('close', () => { process.exitCode = 0; });
}

module.exports = { Session, serve, parseRequest, PROTOCOL };
