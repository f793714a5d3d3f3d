import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * The `idempotency_key` table (lib/idempotency.ts decides what a key means): one row per scope and
 * key, pending (status null) while its request runs, then its first successful answer.
 */

type Db = Kysely<Database>;

const isUniqueViolation = (err: unknown) =>
  err instanceof Error &&
  ('code' in err
    ? ['SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_UNIQUE', '23505'].includes(String(err.code))
    : false);

/** Forgets the keys of `scope` made before `before`, so the table stays small. */
export async function forgetKeysBefore(db: Db, scope: string, before: Date): Promise<void> {
  await db
    .deleteFrom('idempotency_key')
    .where('scope', '=', scope)
    .where('created_at', '<', before.toISOString())
    .execute();
}

/** Reserves a key for a request with this content hash; false when the key is already taken. */
export async function reserveKey(
  db: Db,
  scope: string,
  key: string,
  bodyHash: string,
  now: Date,
): Promise<boolean> {
  try {
    await db
      .insertInto('idempotency_key')
      .values({ scope, key, status: null, body: null, body_hash: bodyHash, created_at: now.toISOString() })
      .execute();
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** What a taken key holds: its request's content hash, and the answer once there is one. */
export async function keyHolder(db: Db, scope: string, key: string) {
  return db
    .selectFrom('idempotency_key')
    .select(['status', 'body', 'body_hash'])
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Keeps the first successful answer of a key. */
export async function storeAnswer(
  db: Db,
  scope: string,
  key: string,
  status: number,
  body: unknown,
): Promise<void> {
  await db
    .updateTable('idempotency_key')
    .set({ status, body: JSON.stringify(body) })
    .where('scope', '=', scope)
    .where('key', '=', key)
    .execute();
}

/** Frees a key (its request failed or was refused: a retry runs again). */
export async function releaseKey(db: Db, scope: string, key: string): Promise<void> {
  await db.deleteFrom('idempotency_key').where('scope', '=', scope).where('key', '=', key).execute();
}
