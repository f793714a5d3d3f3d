#!/usr/bin/env node
// API load: autocannon, 50 connections, 20 s per target, against the real server on SQLite and on
// PostgreSQL, and against a bare node:http server in its own process answering the same bytes from
// memory (the ceiling). Each target's time is cut into slices (--rounds, default 4) that alternate
// between the server and the ceiling, and each database has its ceiling measured beside it, so a
// busy moment of the machine weighs on both alike. Prints the median requests/s of the slices,
// p50, the worst p99, errors, and the share of the ceiling. Targets: each read at least 70% of the
// ceiling, p99 < 10 ms, no errors.
// Figures, not assertions. The server runs with the settings a user gets by default (LOG_LEVEL
// info: one log line per request, written to a file as a service manager would keep it; --log-level
// to compare), except the per-address rate limit, raised because all the load comes from one address.
//
//   node bench/api-load.mjs                      # build first, 20 s per target
//   node bench/api-load.mjs --no-build --duration 5
//   node bench/api-load.mjs --sqlite-only
//   node bench/api-load.mjs --rounds 6              # slices per target, alternating with the ceiling (default 4)
//   node bench/api-load.mjs --warmup 2              # seconds of unmeasured load per target first (default 2)
//   node bench/api-load.mjs --log-level warn        # the server's LOG_LEVEL (default: the server's default, info)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort, ROOT, sleep, startServer, tempDir } from './faults/lib.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const value = (name, d) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : d;
};
const DURATION = Number(value('duration', 20));
const CONNECTIONS = Number(value('connections', 50));
const WARMUP = Number(value('warmup', 2));
const ROUNDS = Number(value('rounds', 4));
const dist = path.resolve(ROOT, process.env.MANNA_DIST ?? 'dist');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const TARGETS = [
  ['bind-company-blog, first page', '/api/bind-company-blog?blogid=0&search=&page_number=1&page_size=10'],
  ['bind-company-blog, search', '/api/bind-company-blog?blogid=0&search=archive&page_number=1&page_size=10'],
  [
    'BindPlanDetails (India, quarterly)',
    '/api/BindPlanDetails?countryid=101&moduleid=1&subscriptiontypeid=1',
  ],
  ['bind-job-openings', '/api/bind-job-openings?jobid=0&search=&pagenum=1&pagesize=20'],
  ['prerendered page /about', '/about'],
];

if (!flag('no-build') || !fs.existsSync(path.join(dist, 'pages', 'manifest.json'))) {
  console.log(`[api-load] building into ${dist}`);
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, MANNA_DIST: dist },
  });
  if (r.status !== 0) process.exit(1);
}

function cannon(url, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

/** The ceiling: a bare node:http server in its own process answering recorded bodies and headers. */
async function startCeiling(recorded) {
  const port = await freePort();
  const file = path.join(os.tmpdir(), `manna-ceiling-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(recorded));
  const code = `
    const http = require('node:http');
    const recorded = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'));
    const bodies = Object.fromEntries(Object.entries(recorded).map(([k, v]) => [k, { headers: v.headers, body: Buffer.from(v.body, 'base64') }]));
    http.createServer((req, res) => {
      const hit = bodies[req.url];
      if (!hit) { res.statusCode = 404; return res.end(); }
      res.writeHead(200, hit.headers);
      res.end(hit.body);
    }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { base: `http://127.0.0.1:${port}`, stop: () => (child.kill(), fs.rmSync(file, { force: true })) };
}

/** Same bytes and the headers that matter for size (content-type, cache, security headers). */
async function record(base) {
  const out = {};
  for (const [, url] of TARGETS) {
    const res = await fetch(base + url);
    const headers = {};
    for (const [k, v] of res.headers)
      if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k))
        headers[k] = v;
    out[url] = { headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
  }
  return out;
}

/** The middle value of some numbers (the mean of the two middle ones for an even count). */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Each target on the server and on the ceiling in turn: ROUNDS slices of DURATION / ROUNDS seconds
 * each, alternating, so that whatever else the machine is doing at a moment weighs on both alike.
 * A row gives the median req/s of its slices, the median p50, the worst p99 and all the errors.
 */
async function measure(label, base, ceiling) {
  const rows = [];
  // warm up (JIT, caches, connection pools) before anything is measured
  rows.warmup = 0;
  for (const [, url] of TARGETS) {
    await cannon(ceiling.base + url, WARMUP);
    rows.warmup += (await cannon(base + url, WARMUP)).requests.total;
  }
  const slice = Math.max(1, DURATION / ROUNDS);
  for (const [name, url] of TARGETS) {
    const runs = { ceiling: [], server: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.ceiling.push(await cannon(ceiling.base + url, slice));
      runs.server.push(await cannon(base + url, slice));
    }
    for (const [who, list] of Object.entries(runs)) {
      const row = {
        section: label,
        label: who === 'ceiling' ? 'ceiling' : label,
        name,
        total: list.reduce((sum, r) => sum + r.requests.total, 0),
        rps: median(list.map((r) => r.requests.average)),
        p50: median(list.map((r) => r.latency.p50)),
        p99: Math.max(...list.map((r) => r.latency.p99)),
        errors: list.reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0),
      };
      rows.push(row);
      process.stdout.write(
        `  ${row.label.padEnd(10)} ${name.padEnd(36)} ${Math.round(row.rps).toString().padStart(7)} req/s  p99 ${row.p99} ms  (slices: ${list.map((r) => Math.round(r.requests.average)).join(', ')})\n`,
      );
    }
  }
  return rows;
}

const LOG_LEVEL = value('log-level', undefined);
const serverEnv = (extra) => ({
  DIST_DIR: dist,
  // the server's default level (server/config.ts); startServer's own default is warn
  LOG_LEVEL: LOG_LEVEL ?? 'info',
  RATE_LIMIT_PUBLIC_PER_MIN: '1000000',
  ...extra,
});
/** Lines the server logged per request answered (the log file), to show the cost being measured. */
function logLinesPerRequest(file, rows) {
  // read in pieces: at 40,000 requests a second the log passes the longest string Node can hold
  let lines = 0;
  let fd;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return 'none';
  }
  const piece = Buffer.alloc(1 << 20);
  for (let n; (n = fs.readSync(fd, piece, 0, piece.length, null)) > 0;)
    for (let i = piece.indexOf(10); i >= 0 && i < n; i = piece.indexOf(10, i + 1)) lines++;
  fs.closeSync(fd);
  // the server's requests, warm-up included (the ceiling logs nothing)
  const requests = rows.filter((r) => r.label !== 'ceiling').reduce((sum, r) => sum + r.total, rows.warmup);
  return `${lines.toLocaleString('en')} lines for ${requests.toLocaleString('en')} requests to the server (${(lines / requests).toFixed(3)} a request; a few lines are the start and stop)`;
}
const results = [];
console.log(
  `[api-load] ${os.availableParallelism()} cores, ${CONNECTIONS} connections, ${DURATION} s per target; load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);

// SQLite
{
  const dataDir = tempDir('load');
  const logFile = path.join(dataDir, 'server.log');
  const server = await startServer({
    port: await freePort(),
    dataDir,
    env: serverEnv({}),
    stdoutFile: logFile,
  });
  const ceiling = await startCeiling(await record(server.base));
  const rows = await measure('sqlite', server.base, ceiling);
  ceiling.stop();
  results.push(...rows);
  await server.stop();
  console.log(`  sqlite log: ${logLinesPerRequest(logFile, rows)}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// PostgreSQL
if (!flag('sqlite-only')) {
  const admin = new pg.Client({ connectionString: PG_URL });
  let ok = true;
  await admin.connect().catch((err) => {
    ok = false;
    console.log(`[api-load] PostgreSQL skipped: ${err.message}`);
  });
  if (ok) {
    const schema = `load_${Date.now().toString(36)}`;
    await admin.query(`create schema ${schema}`);
    const url = new URL(PG_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const dataDir = tempDir('load-pg');
    try {
      const logFile = path.join(dataDir, 'server.log');
      const server = await startServer({
        port: await freePort(),
        dataDir,
        env: serverEnv({ DATABASE_URL: url.href, SEED_DEMO: 'true' }),
        stdoutFile: logFile,
      });
      await sleep(500);
      const ceiling = await startCeiling(await record(server.base));
      const rows = await measure('postgres', server.base, ceiling);
      ceiling.stop();
      results.push(...rows);
      await server.stop();
      console.log(`  postgres log: ${logLinesPerRequest(logFile, rows)}`);
    } finally {
      await admin.query(`drop schema ${schema} cascade`).catch(() => undefined);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

// each server's share of the ceiling measured beside it, in the same section
const ceilingOf = Object.fromEntries(
  results.filter((r) => r.label === 'ceiling').map((r) => [`${r.section} ${r.name}`, r.rps]),
);
console.log(
  `\nAPI load: ${CONNECTIONS} connections, ${DURATION} s each in ${ROUNDS} slices alternating with the ceiling (targets: >= 70% of ceiling, p99 < 10 ms, no errors; server LOG_LEVEL ${LOG_LEVEL ?? 'info, the default'})`,
);
console.log(
  `  ${'server'.padEnd(10)} ${'target'.padEnd(36)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'% ceil'.padStart(7)}  verdict`,
);
for (const r of results) {
  const share = r.label === 'ceiling' ? 100 : (100 * r.rps) / ceilingOf[`${r.section} ${r.name}`];
  const verdict =
    r.label === 'ceiling' ? '' : share >= 70 && r.p99 < 10 && r.errors === 0 ? 'meets' : 'MISSES';
  console.log(
    `  ${r.label.padEnd(10)} ${r.name.padEnd(36)} ${Math.round(r.rps).toString().padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.errors).padStart(7)} ${share.toFixed(0).padStart(6)}%  ${verdict}`,
  );
}
