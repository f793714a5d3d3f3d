import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { applicationsStoredBefore, deleteApplications } from '../db/application-list.repo';
import { deleteMessagesBefore } from '../db/contact-admin.repo';
import { deleteMailBefore } from '../db/mail.repo';
import type { Database } from '../db/schema';
import type { Storage } from '../storage/storage';
import { runBackupTask } from './backup-task';
import { finishLease, PROCESS_HOLDER, releaseLease, takeLease } from '../db/scheduled-task.repo';

/**
 * Candidates' and writers' data rights: applications older than APPLICATION_RETENTION_DAYS (365
 * by default) are deleted with their CVs, and contact messages older than MESSAGE_RETENTION_DAYS
 * (730), once a day, by one process of the site (a lease in the database, db/scheduled-task.repo.ts).
 * Each run is logged; each batch deleted writes its audit row (with the count) in its transaction.
 *
 * `purgeExpiredApplications` is the work itself and takes the clock as an argument, so tests call
 * it directly; `runRetentionTask` adds the lease; `startRetentionSchedule` checks every hour
 * whether a daily run is due.
 */

export const RETENTION_TASK = 'application-retention';
const DAY_MS = 24 * 60 * 60 * 1000;
/** How often a process asks whether the daily run is due (the lease decides who runs it). */
export const RETENTION_CHECK_MS = 60 * 60 * 1000;
/** The first check after start, so a restart loop does not purge on every start. */
export const RETENTION_FIRST_CHECK_MS = 60 * 1000;
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
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** The first instant that is kept: everything stored before it is purged. */
export const retentionCutoff = (now: Date, days: number) =>
  new Date(now.getTime() - days * DAY_MS).toISOString();

/** Deletes every application stored before the cutoff, with its CV; answers how many. */
export async function purgeExpiredApplications(
  db: Kysely<Database>,
  storage: Storage,
  { retentionDays, now, log }: PurgeOptions,
): Promise<{ deleted: number; cutoff: string }> {
  const cutoff = retentionCutoff(now, retentionDays);
  let deleted = 0;
  for (;;) {
    const ids = await applicationsStoredBefore(db, cutoff, BATCH);
    if (ids.length === 0) break;
    const n = await deleteApplications(db, storage, ids, (count) => ({
      actor: null,
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
  db: Kysely<Database>,
  { retentionDays, now, log }: Pick<PurgeOptions, 'retentionDays' | 'now' | 'log'>,
): Promise<{ deleted: number; cutoff: string }> {
  const cutoff = retentionCutoff(now, retentionDays);
  let deleted = 0;
  for (;;) {
    const n = await deleteMessagesBefore(db, cutoff, BATCH, (count) => ({
      actor: null,
      action: 'retention_purge',
      entity: 'contact_message',
      detail: { deleted: count, retention_days: retentionDays },
    }));
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
  db: Kysely<Database>,
  storage: Storage,
  o: PurgeOptions & { holder?: string },
): Promise<{ deleted: number; cutoff: string } | null> {
  const holder = o.holder ?? PROCESS_HOLDER;
  const taken = await takeLease(db, RETENTION_TASK, {
    holder,
    now: o.now,
    leaseMs: RETENTION_LEASE_MS,
    everyMs: DAY_MS,
  });
  if (!taken) return null;
  try {
    const result = await purgeExpiredApplications(db, storage, o);
    const messages =
      o.messageRetentionDays === undefined
        ? { deleted: 0 }
        : await purgeExpiredMessages(db, { retentionDays: o.messageRetentionDays, now: o.now, log: o.log });
    // the outbox keeps names and addresses too: a mail goes MAIL_KEEP_DAYS after it was queued
    const mails = await deleteMailBefore(db, retentionCutoff(o.now, MAIL_KEEP_DAYS));
    const summary =
      o.messageRetentionDays === undefined
        ? `deleted ${result.deleted}, mails ${mails}`
        : `deleted ${result.deleted}, messages ${messages.deleted}, mails ${mails}`;
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

/**
 * Starts the hourly check of the daily tasks inside the server (the retention purge, then the
 * backup when BACKUP_DIR is set); stopped when the app closes.
 */
export function startRetentionSchedule(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const check = () => {
    running = runRetentionTask(app.db, app.storage, {
      retentionDays: app.config.APPLICATION_RETENTION_DAYS,
      messageRetentionDays: app.config.MESSAGE_RETENTION_DAYS,
      now: new Date(),
      log: app.log,
    })
      .then(() => runBackupTask(app.db, app.config, { now: new Date(), log: app.log }))
      .catch((err: unknown) => app.log.error({ err }, 'Retention check failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(check, RETENTION_CHECK_MS).unref();
      });
  };
  app.addHook('onReady', async () => {
    timer = setTimeout(check, RETENTION_FIRST_CHECK_MS).unref();
  });
  app.addHook('preClose', async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  });
}
