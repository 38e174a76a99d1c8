'use strict';
/**
 * The position string (spec/protocol.md section 2): ten fields separated by single spaces,
 *   rules  round.turn  phase  start  grids  picks  centre  pile  removed  totals
 * and its public view (face-down cards and made picks `?`, a non-empty pile `#N`).
 */

const { valueSymbol, hiddenLetter, cellName } = require('./notation');

function cards(values) {
  return values.length === 0 ? '-' : values.map(valueSymbol).join('');
}

function phaseField(state) {
  if (state.phase === 'take') return `take@${state.actor}`;
  if (state.phase === 'push') return `push@${state.actor}:${valueSymbol(state.holding)}`;
  return state.phase;
}

function gridField(grid, hidden) {
  const symbols = grid.map((card) => {
    if (card === null) return '.';
    if (card.faceUp) return valueSymbol(card.value);
    return hidden ? '?' : hiddenLetter(card.value);
  });
  return [0, 4, 8, 12].map((at) => symbols.slice(at, at + 4).join('')).join('/');
}

/** The canonical position; with `hidden` true, its public view. */
function formatPosition(state, hidden = false) {
  const { rules } = state;
  const threshold = rules.threshold === null ? 'single' : String(rules.threshold);
  const centre = state.centre.slice().sort((a, b) => a - b);
  let pile = cards(state.pile);
  if (hidden && state.pile.length > 0) pile = `#${state.pile.length}`;
  return [
    `${rules.push}/${rules.first}/${threshold}`,
    `${state.round}.${state.turn}`,
    phaseField(state),
    state.start === null ? '-' : String(state.start),
    state.grids.map((grid) => gridField(grid, hidden)).join('|'),
    state.picks.map((cell) => (cell === null ? '-' : hidden ? '?' : cellName(cell))).join(','),
    cards(centre),
    pile,
    cards(state.removed),
    state.totals.join(','),
  ].join(' ');
}

module.exports = { formatPosition };
