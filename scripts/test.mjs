#!/usr/bin/env node
// `npm test`: install what is missing (and Debian's chromium when absent and we are root), then
// typecheck and lint side by side with a build into a temporary folder, unit + server tests
// (vitest), and the Playwright suite against that build served by the real server. Every step runs
// even when an earlier one failed (a failed build fails the Playwright step). The last line is
// `N passed, N failed`; the exit code is non-zero when anything failed.
//
// Counting: typecheck = 1 check, lint = 1 check, plus every vitest test and every Playwright test.
//
//   npm test -- --only typecheck,lint,unit,server,e2e   run some steps (comma list or repeated)
//   npm test -- --keep-dist                            keep the temporary build and print where it is
//   npm test -- --step-timeout 5                       stop a step (and its workers) after 5 minutes
//                                                      (default 10, or TEST_STEP_TIMEOUT_MIN)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_CHROME,
  aptInstall,
  ROOT,
  bin,
  c,
  chromePath,
  ensureInstall,
  nativeBuildsDone,
  freePort,
  killGroup,
  log,
  run as runCommand,
  runBuild,
} from './lib/common.mjs';
import { floorProblem } from './lib/floors.mjs';

const STEPS = ['typecheck', 'lint', 'unit', 'server', 'e2e'];

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------
const argv = process.argv.slice(2);
let only = null;
let keepDist = false;
// A step that gives no result in this time is stopped and counted as failed (a synchronous
// infinite loop in a test is beyond vitest's own test timeout).
let stepTimeoutMin = Number(process.env.TEST_STEP_TIMEOUT_MIN) || 10;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--help' || a === '-h') {
    console.log(
      `Usage: npm test [-- --only ${STEPS.join('|')}[,...]] [--keep-dist] [--step-timeout <minutes, default 10>]`,
    );
    process.exit(0);
  } else if (a === '--only' || a.startsWith('--only=')) {
    const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
    if (!value) fail(`--only needs one of: ${STEPS.join(', ')}`);
    only ??= new Set();
    for (const v of value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if (!STEPS.includes(v)) fail(`--only: unknown step "${v}" (known: ${STEPS.join(', ')})`);
      only.add(v);
    }
  } else if (a === '--keep-dist') {
    keepDist = true;
  } else if (a === '--step-timeout' || a.startsWith('--step-timeout=')) {
    const value = Number(a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i]);
    if (!(value > 0)) fail('--step-timeout needs a number of minutes');
    stepTimeoutMin = value;
  } else {
    fail(`unknown argument "${a}"`);
  }
}
const wants = (step) => !only || only.has(step);

function fail(message) {
  console.error(`test: ${message}`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Bookkeeping, signals, temp files
// ---------------------------------------------------------------------------------------------
const results = []; // { name, passed, failed, seconds, note }
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-npm-test-'));
const running = new Set(); // child processes of the steps under way
let interrupted = false;

function cleanup() {
  if (keepDist) return;
  try {
    fs.rmSync(tmp, { recursive: true, force: true });
  } catch {
    // best effort
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(c.yellow(`\n[test] ${signal}: stopping`));
    try {
      for (const child of running) killGroup(child, signal);
    } catch {
      // gone
    }
    // give the child (Playwright stops its web server) a moment, then leave
    setTimeout(() => {
      cleanup();
      process.exit(130);
    }, 5000).unref();
  });
}

// Every step runs in its own process group: a stop (timeout, Ctrl-C) ends its workers too.
const run = (cmd, args, options = {}) =>
  runCommand(cmd, args, { ...options, group: true, timeoutMs: stepTimeoutMin * 60_000 });

const onSpawn = (child) => {
  running.add(child);
  child.on('exit', () => running.delete(child));
};

function banner(title) {
  const line = '─'.repeat(Math.max(10, 72 - title.length));
  console.log(`\n${c.bold(c.cyan(`── ${title} ${line}`))}`);
}

async function step(name, fn) {
  if (interrupted) return;
  banner(name);
  const started = Date.now();
  const r = atLeastFloor(name, await fn());
  const seconds = (Date.now() - started) / 1000;
  if (r.counted !== false) results.push({ name, seconds, ...r });
  const status = r.failed ? c.red('FAILED') : c.green('ok');
  console.log(
    `${c.dim(`[${name}]`)} ${status} ${r.counted === false ? '' : `${r.passed} passed, ${r.failed} failed`}${r.note ? ` (${r.note})` : ''} in ${seconds.toFixed(1)} s`,
  );
  return r;
}

const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

// ---------------------------------------------------------------------------------------------
// Steps
// ---------------------------------------------------------------------------------------------
const started = Date.now();

// native packages (better-sqlite3) compile in the background while the typecheck, lint and build run
if (!(await ensureInstall('test', { deferNativeBuilds: true }))) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// The build the e2e step needs starts now, beside the typecheck and the lint (three processes that
// mostly wait on one core each): its output goes to a file, shown only if it fails.
const dist = path.join(tmp, 'dist');
const buildLog = path.join(tmp, 'build.log');
let building = null;
if (wants('e2e') && !interrupted) {
  const out = fs.openSync(buildLog, 'w');
  const startedBuild = Date.now();
  building = runBuild(dist, {
    onSpawn,
    group: true,
    timeoutMs: stepTimeoutMin * 60_000,
    stdio: ['ignore', out, out],
  }).then((code) => {
    fs.closeSync(out);
    return { code, seconds: (Date.now() - startedBuild) / 1000 };
  });
}

// Build-free checks first: they are quick and tell the most. They run side by side.
await Promise.all([
  wants('typecheck') &&
    step('typecheck', async () => {
      const { code, timedOut } = await run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], { onSpawn });
      return withTimeout({ passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 }, timedOut);
    }),
  wants('lint') &&
    step('lint', async () => {
      const cache = path.join(ROOT, 'node_modules', '.cache', 'eslint', '');
      const { code, timedOut } = await run(bin('eslint'), ['.', '--cache', '--cache-location', cache], {
        onSpawn,
      });
      return withTimeout({ passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 }, timedOut);
    }),
]);

if (wants('unit') || wants('server')) {
  const name =
    wants('unit') && wants('server') ? 'unit+server tests' : wants('unit') ? 'unit tests' : 'server tests';
  // vitest filters are path substrings: src/ for the PWA, server/ for the API
  const filters = wants('unit') && wants('server') ? [] : wants('unit') ? ['src/'] : ['server/'];
  await step(name, async () => {
    if (!(await nativeBuildsDone()))
      return { passed: 0, failed: 1, note: 'not run: the native builds failed' };
    const jsonFile = path.join(tmp, 'vitest.json');
    const { code, timedOut } = await run(
      bin('vitest'),
      ['run', ...filters, '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`],
      { onSpawn },
    );
    return withTimeout(countVitest(readJson(jsonFile), code), timedOut);
  });
}

if (wants('e2e')) {
  const chrome = await ensureChromium();
  let built = false;
  if (building) {
    const b = await step('build (for e2e)', async () => {
      const { code, seconds } = await building;
      if (code !== 0) console.log(fs.readFileSync(buildLog, 'utf8'));
      return {
        counted: false,
        failed: code === 0 ? 0 : 1,
        note: code === 0 ? `built beside the checks in ${seconds.toFixed(1)} s` : `exit code ${code}`,
      };
    });
    built = b && !b.failed;
  }
  await step('e2e (Playwright)', async () => {
    if (!built) return { passed: 0, failed: 1, note: 'not run: the build failed' };
    if (!(await nativeBuildsDone()))
      return { passed: 0, failed: 1, note: 'not run: the native builds failed' };
    if (!chrome) return { passed: 0, failed: 1, note: 'not run: no Chromium' };
    const jsonFile = path.join(tmp, 'playwright.json');
    const progressFile = path.join(tmp, 'playwright-progress.jsonl');
    const port = await freePort();
    const { code, timedOut } = await run(bin('playwright'), ['test', '--pass-with-no-tests'], {
      onSpawn,
      env: {
        ...process.env,
        MANNA_DIST: dist,
        CHROME_PATH: chrome,
        E2E_PORT: String(port),
        E2E_JSON_REPORT: jsonFile,
        E2E_PROGRESS_FILE: progressFile,
      },
    });
    const report = readJson(jsonFile);
    // a stopped run writes no report: count what its progress file says it got to
    return withTimeout(
      report ? countPlaywright(report, code) : countProgress(progressFile, code),
      timedOut,
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Summary
// ---------------------------------------------------------------------------------------------
// a run of some steps only (--only typecheck) still leaves a finished install behind
await nativeBuildsDone();
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0) + (interrupted ? 1 : 0);
const total = (Date.now() - started) / 1000;

banner('summary');
for (const r of results) {
  const status = r.failed ? c.red('FAIL') : c.green('ok  ');
  console.log(
    `  ${status}  ${r.name.padEnd(20)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed ${r.seconds.toFixed(1).padStart(7)} s${r.note ? c.dim(`  ${r.note}`) : ''}`,
  );
}
console.log(`  total time ${Math.floor(total / 60)} min ${Math.round(total % 60)} s`);
if (keepDist) console.log(`  build and reports kept in ${tmp}`);
cleanup();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// Counting
// ---------------------------------------------------------------------------------------------

/**
 * A counted step that reports fewer tests than its floor in tests/floors.json (none at all, at the
 * least) fails, saying so: a suite that found nothing to run has proved nothing.
 */
function atLeastFloor(name, result) {
  if (result.counted === false) return result;
  const problem = floorProblem(name, result.passed + result.failed);
  if (!problem) return result;
  return {
    ...result,
    failed: Math.max(1, result.failed),
    note: result.note ? `${problem}; ${result.note}` : problem,
  };
}

/** A step stopped by the step timeout fails (at least one failure), and says so. */
function withTimeout(result, timedOut) {
  if (!timedOut) return result;
  const note = `stopped after ${stepTimeoutMin} min (--step-timeout)`;
  return {
    ...result,
    failed: Math.max(1, result.failed),
    note: result.note ? `${note}; ${result.note}` : note,
  };
}

/**
 * Vitest's JSON report (jest format). Every test counts; a file that failed without a failing test
 * (it did not load, or a hook threw) counts as one failure; a non-zero exit with nothing failed
 * (unhandled errors) counts as one failure.
 */
function countVitest(report, code) {
  if (!report) return { passed: 0, failed: 1, note: `no report (exit code ${code})` };
  let passed = 0;
  let failed = 0;
  const notes = [];
  // a skipped test says why in its name: "(needs TEST_REDIS_URL)"
  const skipped = new Map();
  for (const file of report.testResults ?? []) {
    const tests = file.assertionResults ?? [];
    const fileFailed = tests.filter((t) => t.status === 'failed').length;
    for (const t of tests.filter((t) => t.status === 'skipped' || t.status === 'pending')) {
      const why = /\(needs ([^)]+)\)/.exec(t.fullName ?? t.title ?? '')?.[1] ?? 'no reason in its name';
      skipped.set(why, (skipped.get(why) ?? 0) + 1);
    }
    passed += tests.filter((t) => t.status === 'passed').length;
    failed += fileFailed;
    if (file.status === 'failed' && fileFailed === 0) {
      failed += 1;
      notes.push(`${path.relative(ROOT, file.name)} failed outside its tests`);
    }
  }
  if (code !== 0 && failed === 0) {
    failed = 1;
    notes.push(`vitest exited with code ${code}`);
  }
  if (skipped.size) {
    const count = [...skipped.values()].reduce((a, b) => a + b, 0);
    notes.push(`${count} skipped (${[...skipped].map(([why, n]) => `${n} need ${why}`).join(', ')})`);
  }
  return { passed, failed, note: notes.join('; ') || undefined };
}

/**
 * Playwright's JSON report: expected + flaky = passed, unexpected = failed; errors outside tests
 * (web server did not start, a spec file did not load) count one each; a non-zero exit with nothing
 * failed counts as one failure.
 */
function countPlaywright(report, code) {
  if (!report) return { passed: 0, failed: 1, note: `no report (exit code ${code})` };
  const s = report.stats ?? {};
  const passed = (s.expected ?? 0) + (s.flaky ?? 0);
  let failed = s.unexpected ?? 0;
  const notes = [];
  const errors = report.errors ?? [];
  if (errors.length) {
    failed += errors.length;
    notes.push(`${errors.length} error(s) outside tests`);
  }
  if (s.skipped) notes.push(`${s.skipped} skipped`);
  if (code !== 0 && failed === 0) {
    failed = 1;
    notes.push(`playwright exited with code ${code}`);
  }
  return { passed, failed, note: notes.join('; ') || undefined };
}

/**
 * What a Playwright run that left no report got to, from its progress file
 * (tests/e2e/progress-reporter.ts): the tests that ended, counted as the report would, and the
 * ones that had begun and not ended, named (the run was stopped while they ran).
 */
function countProgress(file, code) {
  let lines = [];
  try {
    lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return { passed: 0, failed: 1, note: `no report and no progress (exit code ${code})` };
  }
  const running = new Map();
  let passed = 0;
  let failed = 0;
  for (const l of lines) {
    if (l.event === 'begin') running.set(l.id, l.title);
    if (l.event !== 'end') continue;
    running.delete(l.id);
    if (!l.final) continue;
    if (l.outcome === 'expected' || l.outcome === 'flaky') passed += 1;
    else if (l.outcome === 'unexpected') failed += 1;
  }
  const names = [...running.values()];
  if (names.length) {
    console.log(c.red(`[e2e] stopped while running:`));
    for (const name of names) console.log(c.red(`  ✘ ${name}`));
  }
  return {
    passed,
    failed: Math.max(1, failed),
    note: `no report: ${passed} passed before it stopped${names.length ? `, running ${names.join('; ')}` : ''}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Chromium
// ---------------------------------------------------------------------------------------------

/** Returns the Chromium path, installing Debian's package when it is missing and we are root. */
async function ensureChromium() {
  const chrome = chromePath();
  if (fs.existsSync(chrome)) return chrome;
  if (!(typeof process.getuid === 'function' && process.getuid() === 0)) {
    console.error(
      c.red(`[test] Chromium not found at ${chrome}.`) +
        `\n  Install it with:  sudo apt-get install -y chromium` +
        `\n  or point CHROME_PATH at a Chromium/Chrome binary. The Playwright step will fail.`,
    );
    return null;
  }
  log(
    'test',
    `Chromium not found at ${chrome}: installing Debian's chromium package (apt-get install -y chromium) ...`,
  );
  const { ok, output } = aptInstall(['chromium']);
  if (!ok || !fs.existsSync(DEFAULT_CHROME)) {
    console.error(
      c.red(`[test] apt-get install chromium failed; the Playwright step will fail.`) + `\n${output}`,
    );
    return null;
  }
  log('test', `installed ${DEFAULT_CHROME}`);
  return DEFAULT_CHROME;
}
