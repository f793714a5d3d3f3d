import { applicationsStoredBefore } from '../db/application-list.repo';
import { deleteMessagesBefore } from '../db/contact-admin.repo';
import { deleteMailBefore } from '../db/mail.repo';
import { finishLease, PROCESS_HOLDER, releaseLease, takeLease } from '../db/scheduled-task.repo';
import { deleteApplications } from './applications';
import { sweepUnusedBlogImages } from './blog-images';
import { inTransaction, type ServiceContext } from './context';

/**
 * Candidates' and writers' data rights: applications older than APPLICATION_RETENTION_DAYS (365
 * by default) are deleted with their CVs, and contact messages older than MESSAGE_RETENTION_DAYS
 * (730), once a day, by one process of the site (a lease in the database, db/scheduled-task.repo.ts).
 * Each run is logged; each batch deleted writes its audit row (with the count) in its transaction.
 *
 * `purgeExpiredApplications` is the work itself and takes the clock as an argument, so tests call
 * it directly; `runRetentionTask` adds the lease; plugins/scheduled-tasks.ts checks every hour
 * whether a daily run is due.
 */

export const RETENTION_TASK = 'application-retention';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A run that has not finished after this long is presumed dead; another process may take over. */
export const RETENTION_LEASE_MS = 30 * 60 * 1000;
const BATCH = 200;
/** Mails (sent, failed or waiting) are deleted this many days after they were queued. */
export const MAIL_KEEP_DAYS = 30;

export interface PurgeOptions {
  retentionDays: number;
  /** Contact messages: kept this many days (left alone when absent). */
  messageRetentionDays?: number;
  now: Date;
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** The first instant that is kept: everything stored before it is purged. */
export const retentionCutoff = (now: Date, days: number) =>
  new Date(now.getTime() - days * DAY_MS).toISOString();

/** Deletes every application stored before the cutoff, with its CV; answers how many. */
export async function purgeExpiredApplications(
  ctx: ServiceContext,
  { retentionDays, now, log }: PurgeOptions,
): Promise<{ deleted: number; cutoff: string }> {
  const cutoff = retentionCutoff(now, retentionDays);
  let deleted = 0;
  for (;;) {
    const ids = await applicationsStoredBefore(ctx.db, cutoff, BATCH);
    if (ids.length === 0) break;
    const n = await deleteApplications({ ...ctx, actor: null }, ids, (count) => ({
      action: 'retention_purge',
      entity: 'job_application',
      detail: { deleted: count, retention_days: retentionDays },
    }));
    deleted += n;
    if (n === 0) break; // someone else deleted them meanwhile; the next query sees the rest
  }
  log?.info(
    { deleted, cutoff, retentionDays },
    `Retention purge: ${deleted} application(s) stored before ${cutoff} deleted`,
  );
  return { deleted, cutoff };
}

/** Deletes every contact message received before the cutoff; answers how many. */
export async function purgeExpiredMessages(
  ctx: ServiceContext,
  { retentionDays, now, log }: Pick<PurgeOptions, 'retentionDays' | 'now' | 'log'>,
): Promise<{ deleted: number; cutoff: string }> {
  const cutoff = retentionCutoff(now, retentionDays);
  let deleted = 0;
  for (;;) {
    const n = await inTransaction({ ...ctx, actor: null }, async (c) => {
      const count = await deleteMessagesBefore(c.trx, cutoff, BATCH);
      if (count > 0) {
        await c.audit({
          action: 'retention_purge',
          entity: 'contact_message',
          detail: { deleted: count, retention_days: retentionDays },
        });
      }
      return count;
    });
    deleted += n;
    if (n < BATCH) break;
  }
  log?.info(
    { deleted, cutoff, retentionDays },
    `Retention purge: ${deleted} message(s) received before ${cutoff} deleted`,
  );
  return { deleted, cutoff };
}

/**
 * One scheduled run: takes the lease (due once a day), purges, records the run. Answers null when
 * another process holds the lease or the daily run already happened.
 */
export async function runRetentionTask(
  ctx: ServiceContext,
  o: PurgeOptions & { holder?: string },
): Promise<{ deleted: number; cutoff: string } | null> {
  const holder = o.holder ?? PROCESS_HOLDER;
  const db = ctx.db;
  const taken = await takeLease(db, RETENTION_TASK, {
    holder,
    now: o.now,
    leaseMs: RETENTION_LEASE_MS,
    everyMs: DAY_MS,
  });
  if (!taken) return null;
  try {
    const result = await purgeExpiredApplications(ctx, o);
    const messages =
      o.messageRetentionDays === undefined
        ? { deleted: 0 }
        : await purgeExpiredMessages(ctx, { retentionDays: o.messageRetentionDays, now: o.now, log: o.log });
    // the outbox keeps names and addresses too: a mail goes MAIL_KEEP_DAYS after it was queued
    const mails = await deleteMailBefore(db, retentionCutoff(o.now, MAIL_KEEP_DAYS));
    // blog images no post or kept revision names (an editor closed unsaved, a post deleted)
    const images = await sweepUnusedBlogImages(ctx, o.now);
    const summary =
      o.messageRetentionDays === undefined
        ? `deleted ${result.deleted}, mails ${mails}, blog images ${images}`
        : `deleted ${result.deleted}, messages ${messages.deleted}, mails ${mails}, blog images ${images}`;
    await finishLease(db, RETENTION_TASK, holder, o.now, summary);
    return result;
  } catch (err) {
    o.log?.error({ err }, 'Retention purge failed; it is tried again at the next check');
    await releaseLease(
      db,
      RETENTION_TASK,
      holder,
      `failed: ${err instanceof Error ? err.message : String(err)}`,
    ).catch(() => {});
    return null;
  }
}
