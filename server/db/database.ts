import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseSettings } from '../config';
import type { Database } from './schema';
import { NoNulPlugin } from './no-nul';

export type Dialect = 'sqlite' | 'postgres';

type Log = { warn: (obj: object, msg: string) => void };

// COUNT(*) and BIGINT come back from PostgreSQL as strings; SQLite gives numbers. Numbers on both
// keep repositories portable (our counts and ids stay far below 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const pools = new WeakMap<Kysely<Database>, pg.Pool>();

/** The PostgreSQL pool's connections (total, idle, waiting clients), or undefined on SQLite. */
export function poolUse(db: Kysely<Database>): { total: number; idle: number; waiting: number } | undefined {
  const pool = pools.get(db);
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/** Opens the database of the settings: embedded SQLite (WAL) or a PostgreSQL pool. */
export function createDatabase(settings: DatabaseSettings, log?: Log): Kysely<Database> {
  if (settings.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: settings.url, max: 10, connectionTimeoutMillis: 5000 });
    // an idle client losing its connection must not crash the process; the pool replaces it
    pool.on('error', (err) => log?.warn({ err: err.message }, 'PostgreSQL connection error'));
    // A client in use (or being handed back) when its connection drops emits 'error' with no
    // pool listener attached, which would end the process: give every client its own listener;
    // the query that was using it fails, and the pool drops the broken client.
    pool.on('connect', (client) => {
      client.on('error', (err) => log?.warn({ err: err.message }, 'PostgreSQL connection lost'));
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new NoNulPlugin()] });
    pools.set(db, pool);
    return db;
  }
  fs.mkdirSync(path.dirname(settings.file), { recursive: true });
  const sqlite = new SQLite(settings.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new NoNulPlugin()],
  });
}

/**
 * Which database a Kysely instance (or transaction) talks to, for the few places that differ:
 * full-text search (FTS5 or tsvector) and dialect-specific migrations.
 * Uses Kysely's executor adapter, so it also works inside `db.transaction()`.
 */
export function dialectOf(db: Pick<Kysely<unknown>, 'getExecutor'>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Makes the rest of transaction `trx` wait for, and then exclude, every other transaction that
 * takes the lock of the same `name`, until it commits or rolls back. For rules that read several
 * rows and must still hold when two changes race ("at least one user manager is left").
 * PostgreSQL: a transaction-level advisory lock. SQLite needs none: a transaction holds the
 * database's one connection (Kysely queues every other query behind it) and SQLite admits one
 * writer at a time.
 */
export async function serializeOn(trx: Kysely<Database>, name: string): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}

/**
 * The same select, locking the rows it reads until the transaction ends (PostgreSQL's FOR UPDATE),
 * so a read-then-write in a transaction is not raced by another. SQLite serialises transactions
 * already (see serializeOn) and has no FOR UPDATE.
 */
export function forUpdate<QB extends { forUpdate(): QB }>(
  trx: Pick<Kysely<Database>, 'getExecutor'>,
  query: QB,
): QB {
  return dialectOf(trx) === 'postgres' ? query.forUpdate() : query;
}
