import type { Kysely } from 'kysely';
import { COUNT_CAP } from '../../contract/paging';
import {
  isPasswordLinkKind as isPasswordLink,
  PASSWORD_LINK_KINDS,
  type MailQuery,
  type MailRow,
  type MailStatus,
} from '../../contract/mail';
import { dialectOf } from './database';
import type { MailOutboxTable } from './mail.schema';
import type { Database } from './schema';

/**
 * The mail outbox (migration 0900). Plain functions taking `db` first; `queueMail` takes the
 * transaction of the change that causes the mail, so both are kept or neither.
 */

type Db = Kysely<Database>;

/** A rendered mail to queue: the outbox row without what the sender keeps (mail/sender.ts). */

/** A mail's text with the token of every password link replaced by '…' (for anyone but its reader). */
export const redactTokens = (text: string) => text.replace(/([?&]token=)[^\s&"'<]+/g, '$1…');

/** The kept copy of a password link's mail without its token (other mails: nothing changes). */
const withoutToken = (mail: { kind: string; text_body: string; html_body: string }) =>
  isPasswordLink(mail.kind)
    ? { text_body: redactTokens(mail.text_body), html_body: redactTokens(mail.html_body) }
    : {};

export type NewMail = Pick<
  MailOutboxTable,
  'message_id' | 'kind' | 'lang' | 'to_address' | 'subject' | 'text_body' | 'html_body'
> &
  Partial<Pick<MailOutboxTable, 'mailbox' | 'application_id'>>;

export async function queueMail(db: Db, mail: NewMail, now = new Date()): Promise<number> {
  const at = now.toISOString();
  const row = await db
    .insertInto('mail_outbox')
    .values({ ...mail, next_attempt_at: at, created_at: at })
    .returning('mail_id')
    .executeTakeFirstOrThrow();
  return row.mail_id;
}

/**
 * Leases up to `limit` pending mails that are due and that nobody holds, for `leaseMs`: one
 * conditional UPDATE, so two processes never hold the same mail (PostgreSQL skips rows another
 * transaction is leasing; SQLite has one writer at a time).
 */
export async function claimDueMail(db: Db, o: { holder: string; now: Date; leaseMs: number; limit: number }) {
  const now = o.now.toISOString();
  let due = db
    .selectFrom('mail_outbox')
    .select('mail_id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where('lease_until', '<', now)
    .orderBy('mail_id')
    .limit(o.limit);
  if (dialectOf(db) === 'postgres') due = due.forUpdate().skipLocked();
  return db
    .updateTable('mail_outbox')
    .set({ holder: o.holder, lease_until: new Date(o.now.getTime() + o.leaseMs).toISOString() })
    .where('mail_id', 'in', due)
    .where('status', '=', 'pending')
    .returning([
      'mail_id',
      'message_id',
      'kind',
      'to_address',
      'subject',
      'text_body',
      'html_body',
      'attempts',
      'created_at',
      'application_id',
    ])
    .execute();
}

/**
 * Records a sent mail (only its holder can). A password link's token is then removed from the kept
 * copy: only the mailbox it went to holds it.
 */
export async function markSent(
  db: Db,
  mail: { mail_id: number; kind: string; text_body: string; html_body: string },
  holder: string,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      status: 'sent',
      sent_at: now.toISOString(),
      attempts: eb('attempts', '+', 1),
      holder: null,
      lease_until: '',
      last_error: null,
      ...withoutToken(mail),
    }))
    .where('mail_id', '=', mail.mail_id)
    .where('holder', '=', holder)
    .execute();
}

/** Records a failed attempt: tried again at `retryAt`, or given up (`failed`) when it is null. */
export async function markAttemptFailed(
  db: Db,
  mail: { mail_id: number; kind: string; text_body: string; html_body: string },
  holder: string,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      status: retryAt ? 'pending' : 'failed',
      attempts: eb('attempts', '+', 1),
      next_attempt_at: (retryAt ?? new Date()).toISOString(),
      holder: null,
      lease_until: '',
      last_error: error.slice(0, 500),
      // given up: a password link's token is of no use to anyone any more
      ...(retryAt ? {} : withoutToken(mail)),
    }))
    .where('mail_id', '=', mail.mail_id)
    .where('holder', '=', holder)
    .execute();
}

/** Puts a failed (or waiting) mail back in line now; answers whether it exists and was not sent. */
export async function retryMail(
  db: Db,
  mailId: number,
  kinds: readonly string[],
  now = new Date(),
): Promise<boolean> {
  if (kinds.length === 0) return false;
  const result = await db
    .updateTable('mail_outbox')
    .set({
      status: 'pending',
      attempts: 0,
      next_attempt_at: now.toISOString(),
      created_at: now.toISOString(),
    })
    .where('mail_id', '=', mailId)
    .where('status', '!=', 'sent')
    // a password link is not sent again: its person asks for a new one
    .where('kind', 'not in', [...PASSWORD_LINK_KINDS])
    .where('kind', 'in', [...kinds])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The Mail screen: newest first, optionally one status, only the `kinds` its reader may see;
 * `total_count` (up to 10,000) on the first row. Password links are shown without their token.
 */
export async function listMail(db: Db, q: MailQuery, kinds: readonly string[]): Promise<MailRow[]> {
  if (kinds.length === 0) return [];
  let base = db.selectFrom('mail_outbox').where('kind', 'in', [...kinds]);
  if (q.status) base = base.where('status', '=', q.status);
  const rows = await base
    .select([
      'mail_id',
      'kind',
      'lang',
      'to_address',
      'subject',
      'text_body',
      'status',
      'attempts',
      'last_error',
      'created_at',
      'sent_at',
    ])
    .orderBy('mail_id', 'desc')
    .limit(q.pagesize)
    .offset(q.pagesize * (q.pagenum - 1))
    .execute();
  if (rows.length === 0) return [];
  const { n } = await db
    .selectFrom(base.select('mail_id').limit(COUNT_CAP).as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return rows.map(({ text_body, ...row }, i) => ({
    ...row,
    preview: redactTokens(text_body).slice(0, 600),
    ...(i === 0 ? { total_count: Number(n) } : {}),
  }));
}

/** How many acknowledgments went (or wait) to `mailbox` (normalised) since `since` (their daily cap). */
export async function acksTo(db: Db, mailbox: string, since: Date): Promise<number> {
  const { n } = await db
    .selectFrom('mail_outbox')
    .where('mailbox', '=', mailbox)
    .where('created_at', '>=', since.toISOString())
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The outbox at a glance: waiting, sent since `since`, given up, and the newest error. */
export async function mailCounts(db: Db, since: string): Promise<Omit<MailStatus, 'configured'>> {
  const count = async (status: string, after?: string) => {
    let q = db.selectFrom('mail_outbox').where('status', '=', status);
    if (after) q = q.where('sent_at', '>=', after);
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(n);
  };
  const last = await db
    .selectFrom('mail_outbox')
    .select('last_error')
    .where('last_error', 'is not', null)
    .where('status', '!=', 'sent')
    .orderBy('next_attempt_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    pending: await count('pending'),
    sent_today: await count('sent', since),
    failed: await count('failed'),
    last_error: last?.last_error ?? null,
  };
}

/** Retention: mails (sent or not) queued before the cutoff are deleted; answers how many. */
export async function deleteMailBefore(db: Db, cutoff: string): Promise<number> {
  const result = await db.deleteFrom('mail_outbox').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
