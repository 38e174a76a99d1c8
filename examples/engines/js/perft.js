'use strict';
/**
 * perft (spec/protocol.md, command `perft`): the number of distinct legal sequences of
 * exactly `depth` nodes. A node is a joint reveal (one pick for every seat that has not
 * picked yet, written `reveals C0,C1,...` with `-` for a seat that had already picked),
 * a take of one distinct value, or a push. Phases `next` and `over` have no nodes.
 */

const game = require('./game');
const { cellName, valueSymbol, formatPush } = require('./notation');

/** For each seat, the cells it may still pick: its face-down cells, or [null] if it picked. */
function revealChoices(state) {
  return state.picks.map((pick, seat) => (pick === null ? game.faceDownCells(state, seat) : [null]));
}

/** How many nodes `state` has (without playing them). */
function countNodes(state) {
  if (state.phase === 'reveal') return revealChoices(state).reduce((product, c) => product * c.length, 1);
  if (state.phase === 'take') return game.distinctCentreValues(state).length;
  if (state.phase === 'push') return game.pushesNow(state).length;
  return 0;
}

/** Every [name, child state] node playable in `state`, one at a time. */
function* nodes(state) {
  if (state.phase === 'reveal') {
    yield* jointReveals(state, revealChoices(state), 0, []);
  } else if (state.phase === 'take') {
    for (const value of game.distinctCentreValues(state)) {
      const child = game.cloneState(state);
      game.play(child, { verb: 'take', seat: state.actor, value });
      yield [`take ${state.actor} ${valueSymbol(value)}`, child];
    }
  } else if (state.phase === 'push') {
    for (const move of game.pushesNow(state)) {
      const child = game.cloneState(state);
      game.play(child, { verb: 'push', seat: state.actor, push: move });
      yield [`push ${state.actor} ${formatPush(move)}`, child];
    }
  }
}

/** The cartesian product of the open seats' choices, as joint-reveal nodes. */
function* jointReveals(state, choices, seat, chosen) {
  if (seat === choices.length) {
    const child = game.cloneState(state);
    chosen.forEach((cell, s) => { if (cell !== null) child.picks[s] = cell; });
    game.revealAll(child);
    yield [`reveals ${chosen.map((c) => (c === null ? '-' : cellName(c))).join(',')}`, child];
    return;
  }
  for (const cell of choices[seat]) {
    yield* jointReveals(state, choices, seat + 1, [...chosen, cell]);
  }
}

function perft(state, depth) {
  if (depth === 0) return 1;
  if (depth === 1) return countNodes(state);
  let total = 0;
  for (const [, child] of nodes(state)) total += perft(child, depth - 1);
  return total;
}

/** {nodes, divide}: the count and its break-down by first node. */
function divide(state, depth) {
  if (depth === 0) return { nodes: 1, divide: {} };
  const parts = {};
  let total = 0;
  for (const [name, child] of nodes(state)) {
    const count = perft(child, depth - 1);
    parts[name] = count;
    total += count;
  }
  return { nodes: total, divide: parts };
}

module.exports = { perft, divide };
