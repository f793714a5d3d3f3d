import { sql, type Kysely } from 'kysely';
import type { ContactMessageRow, ContactMessagesQuery } from '../../contract/admin-messages';
import { COUNT_CAP } from '../../contract/paging';
import { ftsMatch, ftsRowids, searchTerms, tsMatches, tsQuery } from './full-text';
import { dialectOf } from './database';
import type { Database } from './schema';

/**
 * The admin's inbox of contact messages: search (full-text over name, email, company
 * and message), newest first, paged, and the handled flag. The public form's writes are in
 * contact.repo.ts.
 */

type Db = Kysely<Database>;

/** The filters; `me` is the reader's user id (the 'me' of the assignee filter). */
function filtered(
  db: Db,
  q: Pick<ContactMessagesQuery, 'search' | 'handled' | 'assignee'> & { messageid?: number },
  me = 0,
) {
  let query = db.selectFrom('contact_message');
  if (q.messageid) query = query.where('message_id', '=', q.messageid);
  if (q.handled) query = query.where('handled', '=', q.handled === 'true' ? 1 : 0);
  if (q.assignee === 'none') query = query.where('assignee_id', 'is', null);
  else if (q.assignee) query = query.where('assignee_id', '=', q.assignee === 'me' ? me : Number(q.assignee));
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
  'assignee_id',
] as const;

/** The columns of a row, with its assignee's name and how many replies it had. */
const withColumns = <Q extends ReturnType<typeof filtered>>(query: Q) =>
  query.select((eb) => [
    ...COLUMNS,
    eb
      .selectFrom('admin_user as u')
      .select(sql<string>`coalesce(nullif(u.display_name, ''), u.email)`.as('name'))
      .whereRef('u.user_id', '=', 'contact_message.assignee_id')
      .as('assignee'),
    eb
      .selectFrom('message_reply as r')
      .select((r) => r.fn.countAll<number>().as('n'))
      .whereRef('r.message_id', '=', 'contact_message.message_id')
      .as('replies'),
  ]);

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
  assignee_id: number | null;
  assignee: string | null;
  replies: number | string | null;
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
  assignee_id: r.assignee_id === null ? null : Number(r.assignee_id),
  assignee: r.assignee ?? null,
  replies: Number(r.replies ?? 0),
});

/** A page of messages, newest first; `total_count` (exact up to 10,000) on the first row. */
export async function listContactMessages(
  db: Db,
  q: ContactMessagesQuery,
  me = 0,
): Promise<ContactMessageRow[]> {
  const rows = await withColumns(filtered(db, q, me))
    .orderBy('created_at', 'desc')
    .orderBy('message_id', 'desc')
    .limit(q.pagesize)
    .offset(q.pagesize * (q.pagenum - 1))
    .execute();
  if (rows.length === 0) return [];
  const capped = filtered(db, q, me).select('message_id').limit(COUNT_CAP);
  const { n } = await db
    .selectFrom(capped.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return rows.map((r, i) => (i === 0 ? { ...toRow(r), total_count: Number(n) } : toRow(r)));
}

export async function getContactMessage(db: Db, messageId: number): Promise<ContactMessageRow | undefined> {
  const row = await withColumns(db.selectFrom('contact_message'))
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return row && toRow(row as Raw);
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

/** Deletes the replies of these messages and the outbox mails that carry them (the writer's words). */
async function removeThreads(trx: Db, messageIds: number[]): Promise<void> {
  if (messageIds.length === 0) return;
  const mails = (
    await trx.selectFrom('message_reply').select('mail_id').where('message_id', 'in', messageIds).execute()
  ).flatMap((r) => (r.mail_id === null ? [] : [r.mail_id]));
  if (mails.length) await trx.deleteFrom('mail_outbox').where('mail_id', 'in', mails).execute();
  await trx.deleteFrom('message_reply').where('message_id', 'in', messageIds).execute();
}

/** Deletes one message (its search entry goes with it, by trigger; its replies with it); answers whether it was there. */
export async function deleteMessage(trx: Db, messageId: number): Promise<boolean> {
  await removeThreads(trx, [messageId]);
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
  await removeThreads(trx, ids);
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

/**
 * Assigns a message (null: to nobody) if it is still at `version`; answers the row and whether it
 * changed (already so assigned is no change), or undefined when there is no such message.
 */
export async function setMessageAssignee(
  db: Db,
  messageId: number,
  assigneeId: number | null,
  version: number,
): Promise<{ row: ContactMessageRow; changed: boolean; stale: boolean } | undefined> {
  const result = await db
    .updateTable('contact_message')
    .set((eb) => ({ assignee_id: assigneeId, version: eb('version', '+', 1) }))
    .where('message_id', '=', messageId)
    .where('version', '=', version)
    .where((eb) =>
      assigneeId === null
        ? eb('assignee_id', 'is not', null)
        : eb.or([eb('assignee_id', 'is', null), eb('assignee_id', '!=', assigneeId)]),
    )
    .executeTakeFirst();
  const row = await getContactMessage(db, messageId);
  const changed = Number(result.numUpdatedRows) > 0;
  return (
    row && {
      row,
      changed,
      stale: !changed && (row.assignee_id ?? null) !== assigneeId && row.version !== version,
    }
  );
}

export async function insertReply(
  trx: Db,
  reply: {
    message_id: number;
    author_id: number | null;
    author_email: string;
    text: string;
    mail_id: number;
  },
  now = new Date(),
): Promise<void> {
  await trx
    .insertInto('message_reply')
    .values({ ...reply, created_at: now.toISOString() })
    .execute();
}

/** A message's replies, oldest first, with their writer's name and their mail's delivery state. */
/** The message a reply's mail answers, or undefined (a mail that is no reply). */
export async function messageOfReplyMail(db: Db, mailId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('message_reply')
    .select('message_id')
    .where('mail_id', '=', mailId)
    .executeTakeFirst();
  return row && Number(row.message_id);
}

export async function repliesOf(db: Db, messageId: number) {
  return db
    .selectFrom('message_reply as r')
    .leftJoin('admin_user as u', 'u.user_id', 'r.author_id')
    .leftJoin('mail_outbox as m', 'm.mail_id', 'r.mail_id')
    .select([
      'r.reply_id',
      'r.text',
      'r.created_at',
      'r.author_email',
      'u.display_name',
      'm.status',
      'm.sent_at',
      'm.subject',
      'm.to_address',
    ])
    .where('r.message_id', '=', messageId)
    .orderBy('r.reply_id')
    .execute();
}
