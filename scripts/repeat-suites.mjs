#!/usr/bin/env node
// Runs the unit and server suites again and again, in a row, to show that a pass means
// something: the whole vitest suite on SQLite, then the server suite on PostgreSQL (with Redis),
// N rounds (default 20). Nothing retries: a test that fails once stops the run, and its output is
// kept. Prints one line per suite run (passed, failed, skipped, seconds) and a summary.
//
//   node scripts/repeat-suites.mjs [--rounds 20] [--only sqlite|postgres]
//
// PostgreSQL and Redis come from TEST_DATABASE_URL and TEST_REDIS_URL (defaults: the local
// servers .ci/run uses).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
const rounds = Number(arg('rounds', 20));
const only = arg('only', null);
const PG = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-repeat-'));

const suites = [
  { name: 'sqlite', args: [], env: { TEST_DATABASE_URL: undefined, TEST_REDIS_URL: undefined } },
  { name: 'postgres', args: ['server/'], env: { TEST_DATABASE_URL: PG, TEST_REDIS_URL: REDIS } },
].filter((s) => !only || s.name === only);

/** This process's environment with `changes` applied (undefined removes a variable). */
function environment(changes) {
  const env = { ...process.env, CI: 'true' };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

function runSuite(suite, round) {
  const report = path.join(dir, `${suite.name}-${round}.json`);
  const log = path.join(dir, `${suite.name}-${round}.log`);
  const started = Date.now();
  return new Promise((resolve) => {
    const out = fs.openSync(log, 'w');
    const child = spawn(
      'npx',
      ['vitest', 'run', ...suite.args, '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`],
      { stdio: ['ignore', out, out], env: environment(suite.env) },
    );
    child.on('close', (code) => {
      fs.closeSync(out);
      let counts = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 };
      try {
        counts = JSON.parse(fs.readFileSync(report, 'utf8'));
      } catch {
        // no report: the run itself broke; the log says why
      }
      resolve({
        ok: code === 0 && counts.numFailedTests === 0 && counts.numPassedTests > 0,
        passed: counts.numPassedTests,
        failed: counts.numFailedTests,
        skipped: counts.numPendingTests + counts.numTodoTests,
        seconds: Math.round((Date.now() - started) / 1000),
        log,
      });
    });
  });
}

let good = 0;
for (let round = 1; round <= rounds; round++) {
  for (const suite of suites) {
    const r = await runSuite(suite, round);
    console.log(
      `round ${round}/${rounds} ${suite.name.padEnd(8)} ${r.ok ? 'passed' : 'FAILED'}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped, ${r.seconds} s`,
    );
    if (!r.ok) {
      console.log(`stopped: round ${round} failed; its output is ${r.log}`);
      console.log(`${good} suite runs in a row passed before it`);
      process.exit(1);
    }
    good++;
  }
}
console.log(
  `${good} suite runs in a row passed (${rounds} rounds of ${suites.map((s) => s.name).join(' + ')})`,
);
fs.rmSync(dir, { recursive: true, force: true });
