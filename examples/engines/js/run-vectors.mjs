#!/usr/bin/env node
/**
 * Run the conformance vectors (spec/conformance/VERSION/*.jsonl) against this engine, in Node
 * alone: no Python, no `dekal`. It follows docs/vectors.md step by step, and is the worked
 * example of that page: a runner of your own test framework does the same.
 *
 *   node run-vectors.mjs                         every case of the newest suite against engine.js
 *   node run-vectors.mjs --bug diagonal          against a broken build (see engine.js --list-bugs)
 *   node run-vectors.mjs --filter score,P1-neg   cases whose kind, ID prefix or rule is listed
 *   node run-vectors.mjs --suite ../../../spec/conformance/v2
 *   node run-vectors.mjs --strict                should-level failures fail the run too
 *
 * Exit status: 0 when no must case failed (and no should case, with --strict), 1 otherwise,
 * 2 for bad usage or vectors that do not match their manifest.
 */

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SUITES = path.join(HERE, '..', '..', '..', 'spec', 'conformance');

/** The newest suite folder (v1 … v4 …: the highest number): the default suite, which is always
 * the newest (dekal.conformance.cases._vectors.SUITE_VERSION; the test of this runner checks
 * that the suite it names is that one). */
function newestSuite() {
  const numbers = readdirSync(SUITES).map((name) => /^v(\d+)$/.exec(name)).filter(Boolean).map((m) => Number(m[1]));
  return path.join(SUITES, `v${Math.max(...numbers)}`);
}
const REFUSAL_KINDS = ['notation', 'unsupported', 'bad_request'];

// -- reading the vectors (docs/vectors.md, "The files and the manifest") ---------------------

/** A case line, its seeds kept exact: a seed may be 2^64 - 1, which no double holds. */
function readCase(line) {
  return JSON.parse(line.replace(/"seed":(-?\d+)(?=[,}])/g, '"seed":{"$digits":"$1"}'));
}

/** A request as one JSON line, exact seeds written back as the digits they were. */
function requestLine(request) {
  return JSON.stringify(request).replace(/\{"\$digits":"(-?\d+)"\}/g, '$1');
}

/** Every case of a suite folder, file by file in manifest order, each file's hash checked. */
export function loadSuite(folder) {
  const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
  const cases = [];
  for (const [name, entry] of Object.entries(manifest.files)) {
    const data = readFileSync(path.join(folder, name));
    const digest = createHash('sha256').update(data).digest('hex');
    if (digest !== entry.sha256) throw new Error(`${name} does not match the manifest's sha256`);
    const lines = data.toString('utf8').split('\n').filter((line) => line.trim() !== '');
    if (lines.length !== entry.cases) throw new Error(`${name} has ${lines.length} cases, the manifest says ${entry.cases}`);
    cases.push(...lines.map(readCase));
  }
  return { suite: manifest.suite, cases };
}

// -- the engine, driven in-process -------------------------------------------------------------

/** The engine of this folder behind one function: a request line in, a reply object out (the
 *  same text a process would read on its standard input). */
export function connect(bugs = []) {
  const bugList = require('./bugs');
  for (const bug of bugs) bugList.select(bug);
  const { Session, parseRequest } = require('./protocol');
  const session = new Session();
  let id = 0;
  const send = (request) => {
    id += 1;
    const reply = session.handle(parseRequest(requestLine({ id, ...request })));
    return JSON.parse(JSON.stringify(reply));
  };
  return { send, hello: send({ cmd: 'hello', protocol: 1 }) };
}

// -- needs and skipping (docs/vectors.md, "Needs") ---------------------------------------------

/** Why the engine cannot run a case, from its hello; null when it can. */
export function unmetNeeds(testCase, hello) {
  const needs = testCase.needs || {};
  const unmet = [];
  if (Number.isInteger(needs.players) && needs.players >= 2 && needs.players <= 6
      && !(hello.players || []).includes(needs.players)) unmet.push(`players: ${needs.players}`);
  for (const name of ['push', 'first']) {
    if (name in needs && !((hello.variants || {})[name] || []).includes(needs[name])) unmet.push(`${name}: ${needs[name]}`);
  }
  for (const feature of needs.features || []) {
    if (!(hello.features || []).includes(feature)) unmet.push(`feature: ${feature}`);
  }
  return unmet.length ? `needs ${unmet.join(', ')}` : null;
}

// -- comparing (docs/vectors.md, "Comparing") --------------------------------------------------

class Differs extends Error {}

function differs(where, what) {
  throw new Differs(`${where}: ${what}`);
}

function describe(reply) {
  if (reply.ok) return 'accepted';
  const error = reply.error || {};
  return error.kind === 'illegal' ? `refused with rule ${error.rule}` : `refused as ${error.kind}`;
}

function describeExpect(expect) {
  if (expect.ok) return 'accepted';
  return 'rule' in expect ? `refused with rule ${expect.rule}` : `refused as ${expect.kind}`;
}

/** A verdict: accepted, or refused with the same kind, and for `illegal` the same rule. */
function sameVerdict(expect, reply) {
  if (Boolean(reply.ok) !== Boolean(expect.ok)) return false;
  if (expect.ok) return true;
  const error = reply.error || {};
  return 'rule' in expect ? error.kind === 'illegal' && error.rule === expect.rule : error.kind === expect.kind;
}

function checkVerdict(where, expect, reply) {
  if (!sameVerdict(expect, reply)) differs(where, `expected ${describeExpect(expect)}, the engine ${describe(reply)}`);
}

/** A frozen probe's refusal ("T1", "notation") as an expectation. */
function typed(refusal) {
  return REFUSAL_KINDS.includes(refusal) ? { ok: false, kind: refusal } : { ok: false, rule: refusal };
}

/** JSON values equal: lists in order, objects whatever the order of their keys. */
function same(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return a === b;
}

/** Two lists compared as sets ("any order" in spec/protocol.md); a duplicate is an error. */
function sameSet(where, expected, actual) {
  if (!Array.isArray(actual) || !actual.every((x) => typeof x === 'string')) differs(where, 'not a list of strings');
  if (new Set(actual).size !== actual.length) differs(where, 'an entry is listed twice');
  const missing = expected.filter((x) => !actual.includes(x));
  const extra = actual.filter((x) => !expected.includes(x));
  if (missing.length || extra.length) differs(where, `missing [${missing}], extra [${extra}]`);
}

/** The public view of a full position (spec/protocol.md, "The position string"). */
function publicView(position) {
  const fields = position.split(' ');
  fields[4] = fields[4].replace(/[a-j]/g, '?');
  fields[5] = fields[5].split(',').map((pick) => (pick === '-' ? '-' : '?')).join(',');
  if (fields[7] !== '-') fields[7] = `#${fields[7].length}`;
  return fields.join(' ');
}

/** A result reduced to what is compared: per seat its points, cards left and cancelled cells
 *  (in reading order), the totals, the ranking as [place, seat] pairs, best first. */
function resultShape(reply) {
  return {
    scores: (reply.scores || []).map((s) => [s.points, s.remaining, s.cancelled]),
    totals: reply.totals,
    ranking: (reply.ranking || []).map((r) => [r.place, r.seat]),
  };
}

// -- running a case (docs/vectors.md, "Kinds of case") -----------------------------------------

class CaseRun {
  constructor(engine, testCase) {
    this.engine = engine;
    this.case = testCase;
    this.claimsPublic = (engine.hello.features || []).includes('public');
  }

  answer(where, request) {
    const reply = this.engine.send(request);
    if (!reply.ok) differs(where, `expected an answer, the engine ${describe(reply)}`);
    return reply;
  }

  checkPosition(where, expected) {
    const reply = this.answer(`${where}, position`, { cmd: 'position' });
    if (reply.position !== expected) differs(where, `the position differs:\n    expected ${expected}\n    engine   ${reply.position}`);
    if (this.claimsPublic && 'public' in reply && reply.public !== publicView(expected)) {
      differs(where, `the public view differs:\n    expected ${publicView(expected)}\n    engine   ${reply.public}`);
    }
  }

  checkResult(where, expected) {
    this.sameResult(where, expected, this.answer(`${where}, result`, { cmd: 'result' }));
  }

  sameResult(where, expected, reply) {
    const [want, got] = [resultShape(expected), resultShape(reply)];
    if (!same(want, got)) differs(where, `the result differs:\n    expected ${JSON.stringify(want)}\n    engine   ${JSON.stringify(got)}`);
  }

  /** Actions the reference refuses here: each refused so, the position unchanged after it. */
  probe(where, position, probes = []) {
    for (const [action, refusal] of probes) {
      checkVerdict(`${where}, probe ${action}`, typed(refusal), this.engine.send({ cmd: 'action', action }));
      this.checkPosition(`${where}, after probe ${action}`, position);
    }
  }

  unit(cmd) {
    const { input, expect } = this.case;
    const reply = this.engine.send({ cmd, ...input });
    if (expect.ok === false) return checkVerdict(cmd, expect, reply);
    if (!reply.ok) differs(cmd, `expected an answer, the engine ${describe(reply)}`);
    return reply;
  }

  score() {
    const reply = this.unit('score');
    if (!reply) return;
    const { points, remaining, cancelled } = this.case.expect;
    if (!same([points, remaining, cancelled], [reply.points, reply.remaining, reply.cancelled])) {
      differs('score', `expected ${points} points, ${remaining} cards, cancelled [${cancelled}]; `
        + `engine ${reply.points} points, ${reply.remaining} cards, cancelled [${reply.cancelled}]`);
    }
  }

  pushes() {
    const reply = this.unit('pushes');
    if (reply) sameSet('pushes', this.case.expect.pushes, reply.pushes);
  }

  push() {
    const { input, expect } = this.case;
    const reply = this.engine.send({ cmd: 'push', ...input });
    checkVerdict('push', expect, reply);
    if (expect.ok && reply.grid !== expect.grid) differs('push', `expected grid ${expect.grid}, engine ${reply.grid}`);
  }

  deal() {
    const reply = this.unit('deal');
    if (reply && !same(reply.deal, this.case.expect.deal)) differs('deal', 'the deal differs');
  }

  setup() {
    checkVerdict('new_game', this.case.expect, this.engine.send({ cmd: 'new_game', ...this.case.setup }));
  }

  game() {
    const { setup, start, steps } = this.case;
    this.answer('new_game', { cmd: 'new_game', ...setup });
    this.checkPosition('set-up', start.position);
    this.probe('set-up', start.position, start.probes);
    let position = start.position;
    steps.forEach((step, index) => {
      const where = `step ${index + 1}`;
      const { expect } = step;
      if ('request' in step) {
        const reply = this.engine.send(step.request);
        checkVerdict(`${where} (${step.request.cmd})`, expect, reply);
        if (expect.ok && step.request.cmd === 'result') this.sameResult(where, expect.reply, reply);
        else if (expect.ok) {
          const { id, ok, ...answer } = reply;
          if (!same(answer, expect.reply)) differs(where, `the answer to ${step.request.cmd} differs`);
        }
        this.checkPosition(where, position);
        return;
      }
      const request = 'action' in step ? { cmd: 'action', action: step.action } : { cmd: 'new_round', deal: step.new_round };
      checkVerdict(`${where} (${step.action || 'new_round'})`, expect, this.engine.send(request));
      if (!expect.ok) {
        this.checkPosition(`${where}, after the refusal`, position);
        return;
      }
      position = expect.position;
      this.checkPosition(where, position);
      if ('legal' in expect) sameSet(`${where}, legal`, expect.legal, this.answer(`${where}, legal`, { cmd: 'legal' }).actions);
      if ('result' in expect) this.checkResult(where, expect.result);
      this.probe(where, position, step.probes);
    });
  }

  perft() {
    const { setup, script, position, depth, expect } = this.case;
    this.answer('new_game', { cmd: 'new_game', ...setup });
    script.forEach((action, index) => this.answer(`script ${index + 1} (${action})`, { cmd: 'action', action }));
    this.checkPosition('after the script', position);
    const reply = this.answer(`perft ${depth}`, { cmd: 'perft', depth });
    if (reply.nodes !== expect.nodes) differs(`perft ${depth}`, `expected ${expect.nodes} nodes, engine ${reply.nodes}`);
    const entries = Object.keys({ ...expect.divide, ...reply.divide }).filter((k) => expect.divide[k] !== (reply.divide || {})[k]);
    if (entries.length) {
      differs(`perft ${depth}`, `divide differs: ${entries.slice(0, 4).map((k) => `${k}: expected ${expect.divide[k]}, engine ${(reply.divide || {})[k]}`).join('; ')}`);
    }
  }
}

/** One case: `pass`, `skip` (with why) or `fail` (with where and what). */
export function runCase(engine, testCase) {
  const skip = unmetNeeds(testCase, engine.hello);
  if (skip) return { status: 'skip', why: skip };
  try {
    new CaseRun(engine, testCase)[testCase.kind]();
    return { status: 'pass' };
  } catch (error) {
    if (error instanceof Differs) return { status: 'fail', why: error.message };
    return { status: 'fail', why: `the runner could not go on: ${error.message}` };
  }
}

// -- the command line ----------------------------------------------------------------------------

function matches(testCase, tokens) {
  return tokens.some((t) => testCase.id.startsWith(t) || testCase.kind === t || testCase.rules.includes(t));
}

function parseArguments(argv) {
  const options = { suite: null, bugs: [], filter: null, strict: false };
  const args = argv.slice();
  while (args.length) {
    const arg = args.shift();
    if (arg === '--suite') options.suite = args.shift();
    else if (arg === '--bug') options.bugs.push(...String(args.shift()).split(','));
    else if (arg === '--filter') options.filter = String(args.shift()).split(',').filter(Boolean);
    else if (arg === '--strict') options.strict = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else throw new Error(`unknown argument ${arg} (try --help)`);
  }
  return options;
}

function main(argv) {
  const options = parseArguments(argv);
  if (options.help) {
    process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('*/')[0].replace(/^[\s\S]*?\/\*\*\n/, '').replace(/^ \* ?/gm, ''));
    return 0;
  }
  const { suite, cases: all } = loadSuite(options.suite || newestSuite());
  const cases = options.filter ? all.filter((c) => matches(c, options.filter)) : all;
  if (cases.length === 0) throw new Error(`--filter ${options.filter} matches no case`);
  const engine = connect(options.bugs);
  const counts = { pass: 0, fail: 0, skip: 0 };
  let failing = 0;
  for (const testCase of cases) {
    const outcome = runCase(engine, testCase);
    counts[outcome.status] += 1;
    if (outcome.status === 'fail') {
      const level = testCase.level || 'must';
      if (level === 'must' || options.strict) failing += 1;
      process.stdout.write(`FAIL (${level}) ${testCase.id} ${testCase.title}\n  ${outcome.why}\n`);
    }
  }
  const totals = Object.entries(counts).filter(([, n]) => n).map(([status, n]) => `${n} ${status}`).join(', ');
  const noun = cases.length === 1 ? 'case' : 'cases';
  process.stdout.write(`${failing ? 'FAIL' : 'PASS'}: suite ${suite}, ${cases.length} ${noun}: ${totals} (${engine.hello.name})\n`);
  return failing ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`run-vectors.mjs: ${error.message}\n`);
    process.exitCode = 2;
  }
}
