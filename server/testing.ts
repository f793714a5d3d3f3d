import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from './app';
import { loadConfig, type Env } from './config';
import { createOpening, ensureJobType } from './db/jobs.repo';
import { migrateToLatest } from './db/migrate';

/**
 * A migrated app for `app.inject` tests, on its own throw-away database: a SQLite file in a temp
 * DATA_DIR, or, when TEST_DATABASE_URL is set (CI's PostgreSQL run), a fresh PostgreSQL schema.
 * `await app.close()` removes both. Settings in `env` win over the test defaults.
 */
export async function createTestApp(
  env: Env = {},
  /** Logs (at LOG_LEVEL, default silent) go here instead of nowhere. */
  logStream?: { write(line: string): void },
): Promise<FastifyInstance> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'manna-test-'));
  let dropSchema: (() => Promise<void>) | undefined;
  let databaseUrl = env.DATABASE_URL;
  if (databaseUrl === undefined && process.env.TEST_DATABASE_URL) {
    ({ url: databaseUrl, drop: dropSchema } = await createSchema(process.env.TEST_DATABASE_URL));
  }
  const cleanUp = async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
    await dropSchema?.();
  };
  let app: FastifyInstance;
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DIST_DIR: path.join(dataDir, 'no-build'),
      SECRET: 'test-secret-that-is-at-least-32-characters',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      // tests change rows directly and read them back at once; plugins/public-reads.test.ts turns it on
      PUBLIC_READ_CACHE_MS: '0',
      ...env,
      DATABASE_URL: databaseUrl,
    });
    app = await buildApp(config, logStream ? { logStream } : { logger: false });
  } catch (err) {
    await cleanUp();
    throw err;
  }
  app.addHook('onClose', cleanUp);
  try {
    const base = process.env.TEST_DATABASE_URL;
    if (dropSchema && base) await schemaTurn(base, () => migrateToLatest(app.db));
    else await migrateToLatest(app.db);
  } catch (err) {
    await app.close();
    throw err;
  }
  return app;
}

/** The advisory lock that migrations and schema drops of the test processes take in turn. */
const SCHEMA_TURN = 0x6d616e6e61; // 'manna'

/**
 * Runs `work` while holding SCHEMA_TURN on the database of `url`. Kysely's migrator reads the
 * tables of every schema of the database (its introspection); a test file dropping its own
 * schema at that moment made another file's migration fail with `schema "test_..." does not
 * exist`. Migrating and dropping take turns, so test files can run in parallel on PostgreSQL.
 */
export async function schemaTurn<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_TURN]);
    return await work();
  } finally {
    // ending the session releases the lock as well
    await client.end();
  }
}

/** A new schema, and an address whose connections use it (search_path), so tests never collide. */
async function createSchema(url: string) {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const address = new URL(url);
  address.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: address.toString(),
    drop: () =>
      schemaTurn(url, async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`drop schema if exists ${schema} cascade`);
        } finally {
          await client.end();
        }
      }),
  };
}

/**
 * createTestApp on SQLite even in the PostgreSQL run (TEST_DATABASE_URL set), for a test of
 * something only the embedded database has (restoring its file) or that must count every timer
 * (PostgreSQL's pool keeps idle timers of its own).
 */
export async function createSqliteTestApp(env: Env = {}): Promise<FastifyInstance> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  try {
    return await createTestApp(env);
  } finally {
    if (pgUrl !== undefined) process.env.TEST_DATABASE_URL = pgUrl;
  }
}

/** A published Full-time opening in Editorial, Kochi, with short rich-text fields, for list tests. */
export async function createTestOpening(app: FastifyInstance, title: string) {
  return createOpening(app.db, {
    job_title: title,
    department: 'Editorial',
    location: 'Kochi',
    job_type_id: (await ensureJobType(app.db, 'Full-time')).job_type_id,
    description: '<p>Edit.</p>',
    requirement: '<ul><li>Care</li></ul>',
    about_role: '<p>About.</p>',
    responsibility: '<ul><li>Edit</li></ul>',
  });
}

/** The staff event stream: an answer that never ends by itself (routes/admin-events.ts). */
export const STAFF_STREAM_PATH = '/api/admin/events';

/**
 * `app.inject`, except that the staff event stream is read only as it starts (its status and
 * headers) and then let go: a sweep over every route must not wait for an answer that never ends.
 */
export async function injectStart(app: FastifyInstance, options: InjectOptions) {
  const path = String(options.url ?? '').split('?')[0];
  if (path !== STAFF_STREAM_PATH) return app.inject(options);
  const res = await app.inject({ ...options, payloadAsStream: true });
  res.stream().destroy();
  return Object.assign(res, { body: '', payload: '' });
}
