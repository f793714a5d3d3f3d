import type { Kysely } from 'kysely';
import type { KeptSource } from './analytics.schema';
import type { Database } from './schema';

/**
 * Contact messages as the public form stores them. Plain functions taking `db` first. The admin
 * list (search, paging, handled flag) belongs to the admin issue and builds on this table.
 */

type Db = Kysely<Database>;

export interface NewContactMessage {
  name: string;
  email: string;
  company: string;
  message: string;
  lang: string;
  idempotency_key: string | null;
  /** Where it was sent from (its visit's landing page, referrer and campaign). */
  source?: KeptSource;
}

/** Stores one message; answers its id. */
export async function insertContactMessage(
  db: Db,
  input: NewContactMessage,
  now = new Date(),
): Promise<number> {
  const row = await db
    .insertInto('contact_message')
    .values({
      name: input.name,
      email: input.email,
      company: input.company,
      message: input.message,
      lang: input.lang,
      idempotency_key: input.idempotency_key,
      ...input.source,
      created_at: now.toISOString(),
    })
    .returning('message_id')
    .executeTakeFirstOrThrow();
  return row.message_id;
}

/** The message stored for an Idempotency-Key, if any (the safety net when bookkeeping failed). */
export async function findByIdempotencyKey(db: Db, key: string): Promise<{ message_id: number } | undefined> {
  return db
    .selectFrom('contact_message')
    .select('message_id')
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}
