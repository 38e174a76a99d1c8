#!/usr/bin/env node
'use strict';
/**
 * A Dékal engine in JavaScript speaking the engine protocol v1 (spec/protocol.md).
 *
 *   node engine.js                      the correct engine
 *   node engine.js --bug diagonal       a deliberately broken build (also DEKAL_BUG=diagonal)
 *   node engine.js --list-bugs          the broken builds on offer
 *   node engine.js --deal SEED PLAYERS [ROUND]   print a seeded deal as JSON (spec/rules.md)
 */

const bugs = require('./bugs');

function main(argv) {
  const args = argv.slice();
  if (process.env.DEKAL_BUG) bugs.select(process.env.DEKAL_BUG);
  while (args.length > 0) {
    const arg = args.shift();
    if (arg === '--list-bugs') {
      for (const [name, description] of Object.entries(bugs.BUGS)) {
        process.stdout.write(`${name.padEnd(18)} ${description}\n`);
      }
      return;
    }
    if (arg === '--bug') {
      if (args.length === 0) throw new Error('--bug needs a name (see --list-bugs)');
      bugs.select(args.shift());
    } else if (arg.startsWith('--bug=')) {
      bugs.select(arg.slice('--bug='.length));
    } else if (arg === '--deal') {
      const { deal } = require('./deal');
      const [seed, players, round = '1'] = args;
      process.stdout.write(`${JSON.stringify(deal(BigInt(seed), Number(players), Number(round)))}\n`);
      return;
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(require('fs').readFileSync(__filename, 'utf8').split('*/')[0].replace(/^[\s\S]*?\/\*\*\n/, '').replace(/^ \* ?/gm, ''));
      return;
    } else {
      throw new Error(`unknown argument ${arg} (try --help)`);
    }
  }
  require('./protocol').serve();
}

try {
  main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`engine.js: ${error.message}\n`);
  process.exit(2);
}
