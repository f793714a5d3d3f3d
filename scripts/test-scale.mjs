#!/usr/bin/env node
// `npm run test:scale`: two server processes on one PostgreSQL database (a fresh schema), sharing
// SECRET, Redis and the file folder, behind a small local round-robin proxy (per request, no sticky
// sessions), and the end-to-end suite run against the proxy (README "Running at scale").
//
//   npm run test:scale                          # build into a temp folder, the scale subset
//   MANNA_DIST=dist npm run test:scale -- --no-build
//   npm run test:scale -- tests/e2e/blog.spec.ts   # other specs
//
// The default subset is every spec that talks to the site only through the browser and the API:
// careers.spec.ts and pwa.spec.ts also open the SQLite file or start their own servers, which
// does not apply to a PostgreSQL deployment. Prints how many requests each process served.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, ROOT, startServer } from '../bench/faults/lib.mjs';
import { floorProblem } from './lib/floors.mjs';

const argv = process.argv.slice(2);
const noBuild = argv.includes('--no-build');
const specs = argv.filter((a) => !a.startsWith('--'));
const SUBSET = [
  'tests/e2e/shell.spec.ts',
  'tests/e2e/marketing.spec.ts',
  'tests/e2e/contact.spec.ts',
  'tests/e2e/pricing.spec.ts',
  'tests/e2e/blog.spec.ts',
  'tests/e2e/admin-access.spec.ts',
  'tests/e2e/admin-openings.spec.ts',
  'tests/e2e/admin-applications.spec.ts',
];
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-scale-'));
const dist = process.env.MANNA_DIST ? path.resolve(process.env.MANNA_DIST) : path.join(tmp, 'dist');
const dataDir = path.join(tmp, 'data');
fs.mkdirSync(dataDir, { recursive: true });
if (!noBuild || !fs.existsSync(path.join(dist, 'pages', 'manifest.json'))) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, MANNA_DIST: dist } });
  if (r.status !== 0) process.exit(1);
}

const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
const schema = `scale_${Date.now().toString(36)}`;
await admin.query(`create schema ${schema}`);
const dbUrl = new URL(PG_URL);
dbUrl.searchParams.set('options', `-c search_path=${schema}`);

// the proxy: every request goes to the next process in turn
const proxyPort = await freePort();
const base = `http://127.0.0.1:${proxyPort}`;
const backends = [await freePort(), await freePort()];
const served = [0, 0];
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let turn = 0;
const forward = (req, res, retried = false) => {
  const i = turn++ % backends.length;
  served[i]++;
  const upstream = http.request(
    { host: '127.0.0.1', port: backends[i], method: req.method, path: req.url, headers: req.headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    // a kept-alive socket the process closed just as it was reused: a proxy tries a request
    // without a body once more (as Caddy does), anything else is a 502
    if (upstream.reusedSocket && !retried && (req.method === 'GET' || req.method === 'HEAD') && !res.headersSent) {
      forward(req, res, true);
      return;
    }
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  // the client went away before the answer ended (a closed tab's event stream): so does the
  // upstream request, as a real proxy does; else each such answer would hold one of the agent's
  // sockets for good
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  if (req.method === 'GET' || req.method === 'HEAD') upstream.end();
  else req.pipe(upstream);
};
const proxy = http.createServer(forward);
// a browser or test client keeps its connection to the proxy open for a while between requests;
// Node's default of 5 s closed it under Playwright's request fixture ("socket hang up") at the
// moment it sent the next request, so the proxy keeps idle connections as long as the app does (72 s)
proxy.keepAliveTimeout = 72_000;
proxy.headersTimeout = 80_000;
await new Promise((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));

const env = {
  DATABASE_URL: dbUrl.href,
  REDIS_URL,
  REDIS_KEY_PREFIX: `${schema}:`,
  DIST_DIR: dist,
  PUBLIC_URL: base,
  TRUST_PROXY: '1',
  SECRET: 'scale-check-secret-0123456789abcdef0123456789abcdef',
  RATE_LIMIT_PUBLIC_PER_MIN: '10000',
  RATE_LIMIT_PAGE_RENDERS_PER_MIN: '10000',
  ADMIN_EMAIL: 'owner@e2e.example',
  ADMIN_PASSWORD: 'e2e owner passphrase for tests',
  LOG_LEVEL: 'warn',
};
const servers = [];
const reportFile = path.join(tmp, 'scale-report.json');
let code = 1;
try {
  // the first one migrates and seeds; the second starts on the same database
  servers.push(await startServer({ port: backends[0], dataDir, env: { ...env, SEED_DEMO: 'true' } }));
  servers.push(await startServer({ port: backends[1], dataDir, env: { ...env, SEED_DEMO: 'false' } }));
  console.log(`[scale] two processes (${backends.join(', ')}) on PostgreSQL schema ${schema}, behind ${base}`);
  const run = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', ...(specs.length ? specs : SUBSET)],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, E2E_BASE_URL: base, E2E_DATA_DIR: dataDir, MANNA_DIST: dist, E2E_WORKERS: process.env.E2E_WORKERS ?? '2', E2E_JSON_REPORT: reportFile } },
  );
  code = await new Promise((resolve) => run.once('exit', (c) => resolve(c ?? 1)));
  // a run of the whole subset must also have run at least its floor of tests (tests/floors.json)
  if (specs.length === 0) {
    const stats = fs.existsSync(reportFile) ? JSON.parse(fs.readFileSync(reportFile, 'utf8')).stats ?? {} : {};
    const problem = floorProblem('two processes behind a proxy', (stats.expected ?? 0) + (stats.flaky ?? 0) + (stats.unexpected ?? 0));
    if (problem) {
      console.error(`[scale] ${problem}`);
      code = 1;
    }
  }
  console.log(`[scale] requests served: process 1 ${served[0]}, process 2 ${served[1]}`);
} finally {
  for (const s of servers) await s.stop('SIGTERM').catch(() => undefined);
  proxy.close();
  agent.destroy();
  await admin.query(`drop schema ${schema} cascade`).catch(() => undefined);
  await admin.end();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
