// A throw-away app for the query benchmarks (blog, applications, site search, growth): the real
// server's app, built in this process and reached with app.inject, on SQLite in a temporary
// DATA_DIR, or on PostgreSQL in a new schema. `close()` stops it and removes both.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';

register();

const { buildApp } = await import('../../server/app.ts');
const { loadConfig } = await import('../../server/config.ts');
const pg = (await import('pg')).default;

/** An app with no build and no demo content; `env` adds or changes settings. */
export async function throwAwayApp({ postgresUrl, prefix = 'bench', env = {} } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `manna-${prefix}-`));
  let databaseUrl;
  let dropSchema = async () => {};
  if (postgresUrl) {
    const schema = `${prefix.replace(/\W/g, '_')}_${randomBytes(5).toString('hex')}`;
    const query = async (text) => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    };
    await query(`create schema ${schema}`);
    const url = new URL(postgresUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
    dropSchema = () => query(`drop schema if exists ${schema} cascade`);
  }
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'test', // no retention schedule in a benchmark
      DATA_DIR: dataDir,
      DIST_DIR: path.join(dataDir, 'no-build'),
      SECRET: 'bench-secret-that-is-at-least-32-characters',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      ...env,
    }),
    { logger: false },
  );
  return {
    app,
    async close() {
      await app.close();
      await dropSchema();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `once` run `warmup` times, then `runs` times: the median and 95th percentile of its times (ms) and its last answer. */
export async function timeRuns(once, { runs, warmup = 5 }) {
  for (let i = 0; i < warmup; i++) await once();
  const times = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    last = await once();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)], last };
}
