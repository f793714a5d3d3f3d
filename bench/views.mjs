#!/usr/bin/env node
// Visit figures (docs/decisions/028-visit-figures.md): two measures, on SQLite and on PostgreSQL.
// 1. The beacon: the real server (its own process, production settings, LOG_LEVEL warn) takes
//    POST /api/views at a fixed rate (--rate, default 2,000 a second) from 50 connections with 200
//    different browsers and 40 pages, for --duration seconds (default 20) after a warm-up; prints
//    the rate reached, p50, p99 and errors, then the views the database holds (every one counted,
//    none lost). Target: 2,000 a second, p99 < 10 ms.
// 2. The Insights screen over a year: 365 days of daily figures for 500 pages (written straight
//    into the figures tables: 182,500 page rows and as many visit rows, then summed per dimension
//    as the rollup does), then GET
//    /api/admin/insights for the year, median and p95 of --runs requests (in-process, around
//    app.inject). Target: < 200 ms.
// Figures, not assertions.
//
//   node bench/views.mjs                      # both databases, both measures
//   node bench/views.mjs --sqlite-only --duration 5
//   node bench/views.mjs --rate 3000
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { register } from 'tsx/esm/api';
import { freePort, sleep, startServer, tempDir } from './faults/lib.mjs';

register();

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const value = (name, d) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : d;
};
const DURATION = Number(value('duration', 20));
const RATE = Number(value('rate', 2000));
const RUNS = Number(value('runs', 30));
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A throw-away PostgreSQL schema: its URL and how to drop it. */
async function pgSchema() {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    count: async () => {
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      const { rows } = await c.query('select count(*)::int as n from analytics_view');
      await c.end();
      return rows[0].n;
    },
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

const AGENTS = Array.from(
  { length: 200 },
  (_, i) =>
    `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + (i % 40)}.0.${i} Safari/537.36`,
);
const PAGES = Array.from({ length: 40 }, (_, i) =>
  i % 4 === 0 ? `/blog/post-${i}` : `/careers/${i}-editor`,
);

function cannon(url, duration, rate, extra = {}) {
  const requests = AGENTS.map((ua, i) => ({
    method: 'POST',
    path: '/api/views',
    headers: { 'content-type': 'application/json', 'user-agent': ua, ...extra },
    body: JSON.stringify({
      path: PAGES[i % PAGES.length],
      landing_page: PAGES[(i * 7) % PAGES.length],
      referrer_host: i % 3 ? 'www.google.com' : '',
      utm_campaign: i % 5 ? undefined : 'autumn',
      lang: 'en',
    }),
  }));
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: 50, duration, overallRate: rate, requests }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function beacon(label, databaseUrl, countViews) {
  const dataDir = tempDir('views');
  const port = await freePort();
  const server = await startServer({
    port,
    dataDir,
    env: {
      SEED_DEMO: 'false',
      ANALYTICS_VIEWS_PER_MIN: '1000000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await cannon(base, 2, RATE); // warm-up
    // slices alternate with the same requests under DNT: 1 (answered, nothing counted): the
    // server's floor on this machine at the same moment
    const slice = DURATION / 2;
    const before = await countViews(dataDir);
    const counted = [];
    const floor = [];
    for (let i = 0; i < 2; i++) {
      counted.push(await cannon(base, slice, RATE));
      floor.push(await cannon(base, slice, RATE, { dnt: '1' }));
    }
    await sleep(2500); // the last batch is written within a second
    const stored = (await countViews(dataDir)) - before;
    const sum = (rs, f) => rs.reduce((t, r) => t + f(r), 0);
    const line = (what, rs) =>
      `${what.padEnd(24)} ${(sum(rs, (r) => r.requests.total) / DURATION).toFixed(0).padStart(6)} views/s   ` +
      `p50 ${String(Math.max(...rs.map((r) => r.latency.p50))).padStart(3)} ms   ` +
      `p99 ${String(Math.max(...rs.map((r) => r.latency.p99))).padStart(3)} ms (slices ${rs.map((r) => r.latency.p99).join(', ')})   ` +
      `errors ${sum(rs, (r) => r.errors + r.timeouts)}   non-2xx ${sum(rs, (r) => r.non2xx)}`;
    console.log(line(`${label}, counted`, counted));
    console.log(line(`${label}, DNT (floor)`, floor));
    console.log(
      `${''.padEnd(24)} stored ${stored} of ${sum(counted, (r) => r.requests.total)} counted views`,
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const sqliteCount = async (dataDir) => {
  const db = new Database(path.join(dataDir, 'manna.sqlite'), { readonly: true });
  try {
    return db.prepare('select count(*) as n from analytics_view').get().n;
  } finally {
    db.close();
  }
};

async function yearOfFigures(label, databaseUrl) {
  const { buildApp } = await import('../server/app.ts');
  const { loadConfig } = await import('../server/config.ts');
  const { migrateToLatest } = await import('../server/db/migrate.ts');
  const { sql } = await import('kysely');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-bench-insights-'));
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DIST_DIR: path.join(dataDir, 'no-build'),
      SECRET: 'bench-secret-that-is-at-least-32-characters',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
    }),
    { logger: false },
  );
  try {
    await migrateToLatest(app.db);
    const started = performance.now();
    const today = new Date().toISOString().slice(0, 10);
    const day = (n) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
    const COUNTRIES = ['IN', 'GB', 'DE', 'FR', 'US', 'ES'];
    const REFERRERS = ['', 'google.com', 'linkedin.com', 'news.example.org'];
    for (let d = 0; d < 365; d++) {
      const pages = [];
      const visits = [];
      for (let p = 0; p < 500; p++) {
        const dims = {
          referrer_host: REFERRERS[(p + d) % REFERRERS.length],
          utm_source: p % 7 === 0 ? 'newsletter' : '',
          utm_medium: p % 7 === 0 ? 'email' : '',
          utm_campaign: p % 7 === 0 ? `campaign-${p % 5}` : '',
          country: COUNTRIES[p % COUNTRIES.length],
          device: ['desktop', 'mobile', 'tablet'][p % 3],
          language: ['en', 'ml', 'fr', 'de', 'es'][p % 5],
        };
        const path_ = p % 4 === 0 ? `/blog/post-${p}` : `/careers/${p}-editor`;
        pages.push({
          day: day(d),
          path: path_,
          ...dims,
          views: 5 + ((p * d) % 40),
          visitors: 3 + ((p + d) % 20),
        });
        visits.push({
          day: day(d),
          landing: path_,
          ...dims,
          visits: 3 + ((p + d) % 20),
          visitors: 3 + ((p + d) % 18),
          views: 5 + ((p * d) % 40),
          bounces: (p + d) % 10,
        });
      }
      await app.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 500; i += 250) {
          await trx
            .insertInto('analytics_page_day')
            .values(pages.slice(i, i + 250))
            .execute();
          await trx
            .insertInto('analytics_visit_day')
            .values(visits.slice(i, i + 250))
            .execute();
        }
      });
    }
    const { sumDimensions } = await import('../server/db/analytics.repo.ts');
    await sumDimensions(app.db, day(364), today);
    await (app.dialect === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(app.db);
    console.log(
      `${label}: filled 365 days x 500 pages (${(365 * 500).toLocaleString('en')} rows a table) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const { createRole, createUser, insertSession } = await import('../server/db/auth.repo.ts');
    const { hashSessionId, sessionCookie } = await import('../server/plugins/auth.ts');
    const roleId = await createRole(app.db, 'bench-analyst', ['insights.read']);
    const userId = await createUser(app.db, {
      email: 'bench@example.org',
      passwordHash: 'x',
      roleId,
      mustChangePassword: false,
    });
    const sid = randomBytes(32).toString('base64url');
    await insertSession(app.db, hashSessionId(sid), userId);
    const cookie = sessionCookie(app, sid);
    const time = async (what, query) => {
      const url = `/api/admin/insights?${query}`;
      const once = async () => {
        const t = performance.now();
        const res = await app.inject({ url, headers: { cookie } });
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        return performance.now() - t;
      };
      for (let i = 0; i < 3; i++) await once();
      const times = [];
      for (let i = 0; i < RUNS; i++) times.push(await once());
      times.sort((a, b) => a - b);
      console.log(
        `  ${what.padEnd(40)} median ${times[Math.floor(RUNS / 2)].toFixed(1).padStart(7)} ms   p95 ${times[Math.floor(RUNS * 0.95)].toFixed(1).padStart(7)} ms`,
      );
    };
    await time('a year, no filter', `from=${day(364)}&to=${today}`);
    await time('a year, a campaign', `from=${day(364)}&to=${today}&campaign=campaign-2`);
    await time('a year, a page', `from=${day(364)}&to=${today}&page=${encodeURIComponent('/blog/post-8')}`);
    await time('30 days, no filter', `from=${day(29)}&to=${today}`);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`POST /api/views at ${RATE}/s for ${DURATION} s (50 connections, 200 browsers):`);
await beacon('SQLite', undefined, sqliteCount);
if (!flag('sqlite-only')) {
  const schema = await pgSchema();
  try {
    await beacon('PostgreSQL', schema.url, () => schema.count());
  } finally {
    await schema.drop();
  }
}
console.log(`\nGET /api/admin/insights over a year of daily figures (${RUNS} runs after 3 warm-up runs):`);
await yearOfFigures('SQLite', undefined);
if (!flag('sqlite-only')) {
  const schema = await pgSchema();
  try {
    await yearOfFigures('PostgreSQL', schema.url);
  } finally {
    await schema.drop();
  }
}
