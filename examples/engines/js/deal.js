'use strict';
/**
 * Seeded deals (spec/rules.md, "Seeded deals"): SplitMix64 and a Fisher-Yates shuffle on
 * unsigned 64-bit integers (BigInt), so a seed deals the same cards in every language.
 *
 *   deal(seed, players, round) -> {grids: ["TT12/7688/7127/21T1", ...], pile: "2556..."}
 *
 * Round r of a match shuffles a fresh sorted deck with the same generator, continuing where
 * round r - 1 stopped (99 draws per round).
 */

const { formatValueGrid, valueSymbol } = require('./notation');

const MASK = (1n << 64n) - 1n;
const GOLDEN_GAMMA = 0x9E3779B97F4A7C15n;

/** SplitMix64 (Steele, Lea and Flood 2014), as published by Vigna. */
class SplitMix64 {
  constructor(seed) {
    this.state = BigInt(seed) & MASK;
  }

  next() {
    this.state = (this.state + GOLDEN_GAMMA) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
    return z ^ (z >> 31n);
  }
}

/** The sorted deck (ten 1s, ten 2s, ..., ten 10s) shuffled by Fisher-Yates, i from 99 down to 1. */
function shuffledDeck(generator) {
  const deck = [];
  for (let value = 1; value <= 10; value += 1) for (let copy = 0; copy < 10; copy += 1) deck.push(value);
  for (let i = 99; i >= 1; i -= 1) {
    const j = Number(generator.next() % BigInt(i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** Seat s gets deck[16s .. 16s+15] in reading order; the rest, in deck order, is the pile. */
function dealFromDeck(deck, players) {
  const grids = [];
  for (let seat = 0; seat < players; seat += 1) {
    grids.push(formatValueGrid(deck.slice(16 * seat, 16 * seat + 16)));
  }
  const pile = deck.slice(16 * players).map(valueSymbol).join('');
  return { grids, pile: pile === '' ? '-' : pile };
}

/** The deal of round `round` (from 1) of a match played from `seed`, as in `new_game`. */
function deal(seed, players, round = 1) {
  const generator = new SplitMix64(seed);
  let deck = null;
  for (let r = 1; r <= round; r += 1) deck = shuffledDeck(generator);
  return dealFromDeck(deck, players);
}

module.exports = { SplitMix64, shuffledDeck, deal };
