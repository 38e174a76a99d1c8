'use strict';
/**
 * One 4x4 grid: scoring (S1, S2) and pushes (P1 slide, P2 eject).
 *
 * These functions work on any array of 16 cells; `valueAt(cell)` says how to read a cell's
 * value, so the same code scores plain value grids and game grids of {value, faceUp} cards.
 */

const { rowOf, columnOf, cellAt } = require('./notation');
const { illegal } = require('./refusal');
const { active } = require('./bugs');

/** The cells sharing a side with `cell` (S1: "corners do not count"). */
function sideNeighbours(cell) {
  const row = rowOf(cell);
  const column = columnOf(cell);
  const found = [];
  if (row > 0) found.push(cellAt(row - 1, column));
  if (row < 3) found.push(cellAt(row + 1, column));
  if (column > 0) found.push(cellAt(row, column - 1));
  if (column < 3) found.push(cellAt(row, column + 1));
  if (active('diagonal')) {
    for (const [dr, dc] of [[-1, -1], [-1, 1], [1, -1], [1, 1]]) {
      const r = row + dr;
      const c = column + dc;
      if (r >= 0 && r < 4 && c >= 0 && c < 4) found.push(cellAt(r, c));
    }
  }
  return found;
}

/** The group of equal values connected by sides that contains `start`. */
function groupOf(values, start) {
  const seen = new Set([start]);
  const frontier = [start];
  while (frontier.length > 0) {
    const cell = frontier.pop();
    for (const next of sideNeighbours(cell)) {
      if (!seen.has(next) && values[next] === values[start]) {
        seen.add(next);
        frontier.push(next);
      }
    }
  }
  return seen;
}

/**
 * S1: the cells removed at the end of a round, ascending (reading order). A card is removed
 * when it belongs to an orthogonally connected group of two or more equal cards.
 */
function cancelledCells(values) {
  const removed = [];
  for (let cell = 0; cell < 16; cell += 1) {
    const size = groupOf(values, cell).size;
    const cancels = active('pairs-only') ? size === 2 : size >= 2;
    if (cancels) removed.push(cell);
  }
  return removed;
}

/** S1 + S2: {points, remaining, cancelled} of a full grid of 16 values. */
function scoreGrid(values) {
  const cancelled = cancelledCells(values);
  const gone = new Set(cancelled);
  let points = 0;
  let remaining = 0;
  values.forEach((value, cell) => {
    if (!gone.has(cell)) {
      points += value;
      remaining += 1;
    }
  });
  return { points, remaining, cancelled };
}

/**
 * The cells of one line in entry order: the first is the edge cell where a card pushed
 * from `side` enters, the last is the far end. `line` is 0..3 (row for L/R, column for T/B).
 */
function lineFromSide(side, line) {
  const steps = [0, 1, 2, 3];
  switch (side) {
    case 'L': return steps.map((c) => cellAt(line, c));
    case 'R': return steps.map((c) => cellAt(line, 3 - c));
    case 'T': return steps.map((r) => cellAt(r, line));
    case 'B': return steps.map((r) => cellAt(3 - r, line));
    default: throw new Error(`bad side ${side}`);
  }
}

/** The line (0..3) of the hole that a push from `side` runs along. */
function holeLine(side, hole) {
  return side === 'L' || side === 'R' ? rowOf(hole) : columnOf(hole);
}

/**
 * Where the cards go: a list of [from, to] moves (to read in order) plus the cell the new card
 * takes; or a reason string when the rules forbid the push.
 *   P1 slide: only along the hole's row or column; the cards between the entry edge and the
 *     hole move one step toward the hole. The edge cell being the hole itself is forbidden.
 *   P2 eject: also any full line: its four cards shift and the far one drops into the hole.
 */
function pushPlan(hole, push, variant) {
  const line = push.line === null ? holeLine(push.side, hole) : push.line;
  const cells = lineFromSide(push.side, line);
  const at = cells.indexOf(hole);
  if (at === 0 && !active('into-hole')) {
    return 'the hole is at the entry edge: the card would go straight into the hole';
  }
  if (at === 0) return { moves: [], entry: hole };
  if (at > 0) {
    // Cards from the edge up to the hole move one step toward the hole, the nearest first.
    const moves = [];
    if (active('shift-copies')) {
      for (let i = 1; i <= at; i += 1) moves.push([cells[i - 1], cells[i]]);
    } else {
      for (let i = at; i >= 1; i -= 1) moves.push([cells[i - 1], cells[i]]);
    }
    return { moves, entry: cells[0] };
  }
  if (variant !== 'eject') return 'a slide push must enter along the hole\'s row or column';
  if (active('eject-wrong-card') && (push.side === 'R' || push.side === 'B')) {
    return { moves: [[cells[0], hole]], entry: cells[0] };
  }
  // Full line: the far card drops into the hole, then the other three shift one step.
  const moves = [[cells[3], hole]];
  if (active('shift-copies')) {
    for (let i = 1; i <= 3; i += 1) moves.push([cells[i - 1], cells[i]]);
  } else {
    for (let i = 3; i >= 1; i -= 1) moves.push([cells[i - 1], cells[i]]);
  }
  return { moves, entry: cells[0] };
}

/** The hole of a grid (0 = hole for plain grids, null for game grids), or -1 if not exactly one. */
function holeOf(cells, isHole) {
  const holes = [];
  cells.forEach((c, i) => { if (isHole(c)) holes.push(i); });
  return holes.length === 1 ? holes[0] : -1;
}

/** Check a push against the variant's rules: refuse with P1 (slide) or P2 (eject). */
function checkPush(hole, push, variant) {
  const rule = variant === 'eject' ? 'P2' : 'P1';
  if (variant === 'eject' && push.line === null) {
    throw illegal('P2', 'an eject push must name its line (L1 .. B4)');
  }
  if (variant === 'slide' && push.line !== null && push.line !== holeLine(push.side, hole)) {
    throw illegal('P1', 'a slide push enters along the hole\'s own row or column');
  }
  const plan = pushPlan(hole, push, variant);
  if (typeof plan === 'string') throw illegal(rule, plan);
  return plan;
}

/** The cells after `card` enters by `push` (a new array; `cells` is not changed). */
function applyPush(cells, hole, push, card, variant) {
  const plan = checkPush(hole, push, variant);
  const after = cells.slice();
  for (const [from, to] of plan.moves) after[to] = after[from];
  after[plan.entry] = card;
  return after;
}

/** Every push the variant allows into a grid whose hole is `hole` (as in `legal`). */
function legalPushes(hole, variant) {
  const found = [];
  for (const side of ['L', 'R', 'T', 'B']) {
    const lines = variant === 'eject' ? [0, 1, 2, 3] : [null];
    for (const line of lines) {
      const push = { side, line };
      if (typeof pushPlan(hole, push, variant) !== 'string') found.push(push);
    }
  }
  return found;
}

module.exports = { cancelledCells, scoreGrid, holeOf, checkPush, applyPush, legalPushes };
