'use strict';
/**
 * Notation (spec/notation.md, restated in spec/protocol.md section 2): card values, cells,
 * grids, pushes and actions. Parsing either succeeds or throws a Refusal naming what failed.
 *
 * Cells are numbered 0..15 in reading order: a1 b1 c1 d1 a2 ... d4
 * (column a-d left to right, row 1-4 top to bottom).
 */

const { Refusal } = require('./refusal');

const VALUE_SYMBOLS = ['', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'T'];
const HIDDEN_LETTERS = ['', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
const COLUMNS = 'abcd';
const SIDES = ['L', 'R', 'T', 'B'];

/** The symbol of a face-up card value 1..10: `1`-`9`, `T` for ten. */
function valueSymbol(value) {
  return VALUE_SYMBOLS[value];
}

/** The letter of a face-down card in the full position: `a` = 1 ... `j` = 10. */
function hiddenLetter(value) {
  return HIDDEN_LETTERS[value];
}

/** A value symbol -> 1..10, or null when it is not one (a lower-case `t` is read as `T`). */
function valueOf(symbol) {
  const index = VALUE_SYMBOLS.indexOf(symbol === 't' ? 'T' : symbol);
  return index >= 1 ? index : null;
}

function rowOf(cell) {
  return Math.floor(cell / 4);
}

function columnOf(cell) {
  return cell % 4;
}

function cellAt(row, column) {
  return row * 4 + column;
}

function cellName(cell) {
  return COLUMNS[columnOf(cell)] + String(rowOf(cell) + 1);
}

/** A cell name (`a1` .. `d4`, upper case read as lower case) -> 0..15, or a notation refusal. */
function parseCell(text) {
  const match = /^([a-d])([1-4])$/.exec(String(text).toLowerCase());
  if (!match) throw new Refusal('notation', `"${text}" is not a cell (a1 .. d4)`, { field: 'cell' });
  return cellAt(Number(match[2]) - 1, COLUMNS.indexOf(match[1]));
}

/**
 * A card value in an action or command -> 1..10, or a notation refusal. `10` and a lower-case
 * `t` are also read as ten (notation.md reads `10`; the reference engine also reads `t`).
 */
function parseValue(text, field = 'card') {
  const value = text === '10' ? 10 : valueOf(text);
  if (value === null) {
    throw new Refusal('notation', `"${text}" is not a card value (1-9, T)`, { field });
  }
  return value;
}

/**
 * A push: entry side L/R/T/B (lower case read as upper case), optionally the line 1-4 (row
 * for L/R, column for T/B). Returns {side, line} with line 0..3 or null when not given.
 */
function parsePush(text) {
  const match = /^([LRTB])([1-4])?$/.exec(String(text).toUpperCase());
  if (!match) {
    throw new Refusal('notation', `"${text}" is not a push (L, R, T, B, optionally a line 1-4)`, {
      field: 'push',
    });
  }
  return { side: match[1], line: match[2] === undefined ? null : Number(match[2]) - 1 };
}

function formatPush(push) {
  return push.line === null ? push.side : push.side + String(push.line + 1);
}

/**
 * A grid of plain values (`9994/4411/T637/2111`, the hole `.`) -> array of 16 numbers,
 * 0 for a hole. Returns null when the text is not four rows of four such symbols, or holds
 * more than one hole (a grid has at most one).
 */
function parseValueGrid(text) {
  if (typeof text !== 'string') return null;
  const rows = text.split('/');
  if (rows.length !== 4 || rows.some((row) => row.length !== 4)) return null;
  const cells = [];
  for (const symbol of rows.join('')) {
    if (symbol === '.') cells.push(0);
    else {
      const value = valueOf(symbol);
      if (value === null) return null;
      cells.push(value);
    }
  }
  return cells.filter((v) => v === 0).length > 1 ? null : cells;
}

/** Plain values (0 = hole) -> `53T2/1.44/9999/TT11`. */
function formatValueGrid(values) {
  const symbols = values.map((v) => (v === 0 ? '.' : valueSymbol(v)));
  return [0, 4, 8, 12].map((start) => symbols.slice(start, start + 4).join('')).join('/');
}

function parseSeat(text) {
  if (!/^(0|[1-9][0-9]*)$/.test(text)) { // no sign, no leading zero: `01` and `-1` are not seats
    throw new Refusal('notation', `"${text}" is not a seat number`, { field: 'seat' });
  }
  return Number(text);
}

/**
 * An action: `reveal SEAT CELL`, `take SEAT VALUE`, `push SEAT PUSH` (single spaces).
 * Returns {verb, seat, cell | value | push}.
 */
function parseAction(text) {
  if (typeof text !== 'string') {
    throw new Refusal('notation', 'an action must be a string', { field: 'action' });
  }
  const words = text.split(' ');
  if (words.length !== 3) {
    throw new Refusal('notation', `"${text}" is not an action (VERB SEAT ARGUMENT)`, {
      field: 'action',
    });
  }
  const [verb, seatText, argument] = words;
  if (verb === 'reveal') return { verb, seat: parseSeat(seatText), cell: parseCell(argument) };
  if (verb === 'take') return { verb, seat: parseSeat(seatText), value: parseValue(argument) };
  if (verb === 'push') return { verb, seat: parseSeat(seatText), push: parsePush(argument) };
  throw new Refusal('notation', `unknown action "${verb}" (reveal, take, push)`, { field: 'action' });
}

module.exports = {
  SIDES,
  valueSymbol,
  hiddenLetter,
  valueOf,
  rowOf,
  columnOf,
  cellAt,
  cellName,
  parseCell,
  parseValue,
  parsePush,
  formatPush,
  parseValueGrid,
  formatValueGrid,
  parseAction,
};
