import type { Kysely } from 'kysely';
import type { ContactMessageRow, ContactMessagesQuery } from '../../src/api/contract/admin-messages';
import { COUNT_CAP } from '../../src/api/contract/paging';
import { ftsMatch, ftsRowids, searchTerms, tsMatches, tsQuery } from './full-text';
import { dialectOf } from './database';
import type { Database } from './schema';

/**
 * The admin's inbox of contact messages: search (full-text over name, email, company
 * and message), newest first, paged, and the handled flag. The public form's writes are in
 * contact.repo.ts.
 */

type Db = Kysely<Database>;

function filtered(db: Db, q: Pick<ContactMessagesQuery, 'search' | 'handled'>) {
  let query = db.selectFrom('contact_message');
  if (q.handled) query = query.where('handled', '=', q.handled === 'true' ? 1 : 0);
  const terms = searchTerms(q.search);
  if (terms.length > 0) {
    if (dialectOf(db) === 'postgres') query = query.where(tsMatches(tsQuery(terms)));
    else query = query.where('message_id', 'in', ftsRowids('contact_message_fts', ftsMatch(terms)));
  }
  return query;
}

const COLUMNS = [
  'message_id',
  'name',
  'email',
  'company',
  'message',
  'lang',
  'handled',
  'created_at',
  'version',
] as const;

type Raw = {
  message_id: number;
  name: string;
  email: string;
  company: string;
  message: string;
  lang: string;
  handled: number;
  created_at: string;
  version: number;
};

const toRow = (r: Raw): ContactMessageRow => ({
  message_id: Number(r.message_id),
  name: r.name,
  email: r.email,
  company: r.company,
  message: r.message,
  lang: r.lang,
  handled: Boolean(Number(r.handled)),
  created_at: r.created_at,
  version: Number(r.version),
});

/** A page of messages, newest first; `total_count` (exact up to 10,000) on the first row. */
export async function listContactMessages(db: Db, q: ContactMessagesQuery): Promise<ContactMessageRow[]> {
  const rows = await filtered(db, q)
    .select(COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('message_id', 'desc')
    .limit(q.pagesize)
    .offset(q.pagesize * (q.pagenum - 1))
    .execute();
  if (rows.length === 0) return [];
  const capped = filtered(db, q).select('message_id').limit(COUNT_CAP);
  const { n } = await db
    .selectFrom(capped.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return rows.map((r, i) => (i === 0 ? { ...toRow(r), total_count: Number(n) } : toRow(r)));
}

export async function getContactMessage(db: Db, messageId: number): Promise<ContactMessageRow | undefined> {
  const row = await db
    .selectFrom('contact_message')
    .select(COLUMNS)
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return row && toRow(row);
}

/**
 * Sets the handled flag; answers the row and whether this call changed it (a message already so
 * marked, by this request's twin a moment earlier, is not changed again), or undefined when there
 * is no such message.
 */
export async function setMessageHandled(
  db: Db,
  messageId: number,
  handled: boolean,
  version: number,
): Promise<{ row: ContactMessageRow; changed: boolean; stale: boolean } | undefined> {
  const result = await db
    .updateTable('contact_message')
    .set((eb) => ({ handled: handled ? 1 : 0, version: eb('version', '+', 1) }))
    .where('message_id', '=', messageId)
    .where('handled', '=', handled ? 0 : 1)
    .where('version', '=', version)
    .executeTakeFirst();
  const row = await getContactMessage(db, messageId);
  const changed = Number(result.numUpdatedRows) > 0;
  // not written, not as asked and not at the version read: someone changed it meanwhile
  // (docs/decisions/022); already as asked (a double click, a colleague's same choice) is no conflict
  return row && { row, changed, stale: !changed && row.handled !== handled && row.version !== version };
}

/** Deletes one message (its search entry goes with it, by trigger); answers whether it was there. */
export async function deleteMessage(trx: Db, messageId: number): Promise<boolean> {
  const result = await trx
    .deleteFrom('contact_message')
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Deletes up to `limit` messages received before `cutoff` (ISO), oldest first; answers how many
 * went. Call it inside the transaction that records the purge (services/retention.ts).
 */
export async function deleteMessagesBefore(trx: Db, cutoff: string, limit: number): Promise<number> {
  const ids = (
    await trx
      .selectFrom('contact_message')
      .select('message_id')
      .where('created_at', '<', cutoff)
      .orderBy('created_at')
      .orderBy('message_id')
      .limit(limit)
      .execute()
  ).map((r) => r.message_id);
  if (ids.length === 0) return 0;
  await trx.deleteFrom('contact_message').where('message_id', 'in', ids).execute();
  return ids.length;
}

/** Messages received from `since` (inclusive) to `until` (exclusive), oldest first, at most `limit`, and how many in all (the daily digest). */
export async function messagesBetween(db: Db, since: string, until: string, limit: number) {
  const base = db
    .selectFrom('contact_message')
    .where('created_at', '>=', since)
    .where('created_at', '<', until);
  const rows = await base.select(['name']).orderBy('message_id').limit(limit).execute();
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}
