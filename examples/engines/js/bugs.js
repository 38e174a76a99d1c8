'use strict';
/**
 * Deliberately broken builds, for proving that the conformance suite catches real mistakes.
 *
 * Each bug is a small, realistic mutation of one rule, switched on by name:
 *   node engine.js --bug diagonal          (or DEKAL_BUG=diagonal node engine.js)
 * Several may be combined with commas. With no bug selected the engine is correct.
 * The code consults `active('name')` at exactly the place the mutation lives, so
 * `grep -n "active('" *.js` shows every mutation in context.
 */

const BUGS = {
  'diagonal': 'S1: cards that touch only by a corner also cancel',
  'pairs-only': 'S1: only groups of exactly two equal cards cancel (groups of 3+ stay)',
  'highest-wins': 'S3: the highest score ranks first',
  'tie-more-cards': 'S3: a score tie is broken by MORE cards left',
  'shift-copies': 'P1/P2: the shift loop runs the wrong way and copies the edge card along the line',
  'into-hole': 'P1: entering from the edge the hole touches is allowed (direct placement into the hole)',
  'token-right': 'T5: the token passes to the right (seat i -> i-1)',
  'reveal-face-up': 'T1: revealing a face-up card is allowed',
  'f2-highest-draw': 'F2: the first-player tie is won by the HIGHEST set-aside draw',
  'wrong-rule-id': 'B1/T4: taking while a card waits to be pushed is refused with T3 instead of T4',
  'eject-wrong-card': 'P2: a full-line eject sends the card at the entry end into the hole, without shifting',
  'threshold-strict': 'S4: the match ends only when a total is strictly above the threshold',
  'no-rotation': 'F4: the first player of the next round does not rotate',
  'take-leaks': 'B1: a take refused because it is not the seat\'s turn still removes the card from the centre',
};

const selected = new Set();

/** Switch on the bugs named in a comma-separated list; unknown names are an error. */
function select(list) {
  for (const name of String(list).split(',').map((s) => s.trim()).filter(Boolean)) {
    if (!(name in BUGS)) {
      throw new Error(`unknown bug "${name}"; known bugs: ${Object.keys(BUGS).join(', ')}`);
    }
    selected.add(name);
  }
}

/** Is this mutation switched on? */
function active(name) {
  if (!(name in BUGS)) throw new Error(`no such bug: ${name}`);
  return selected.has(name);
}

function selectedBugs() {
  return [...selected];
}

module.exports = { BUGS, select, active, selectedBugs };
