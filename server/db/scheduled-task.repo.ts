import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Scheduled work that one process of a site does : each task has a row in
 * `scheduled_task`. A process runs the task only when it takes the lease, which it can only do
 * when the lease is free (or expired, e.g. its holder crashed) and the last run is at least
 * `everyMs` ago. Taking it is one conditional UPDATE, so two processes (or two databases
 * connections racing) can never both win. Times are ISO 8601 strings, compared as text.
 */

type Db = Kysely<Database>;

/** This process, as a lease holder: host, pid and a random part (pids repeat across containers). */
export const PROCESS_HOLDER = `${hostname().slice(0, 60)}:${process.pid}:${randomUUID().slice(0, 8)}`;

export interface LeaseOptions {
  holder: string;
  now: Date;
  /** How long the lease lasts if its holder never releases it (a crash mid-run). */
  leaseMs: number;
  /** The task runs at most once in this time. */
  everyMs: number;
}

/** Takes the lease of `name` when it is free and the task is due; answers whether it did. */
export async function takeLease(db: Db, name: string, o: LeaseOptions): Promise<boolean> {
  await db
    .insertInto('scheduled_task')
    .values({ name, holder: null, lease_until: '', last_run_at: null, last_result: null })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const now = o.now.toISOString();
  const due = new Date(o.now.getTime() - o.everyMs).toISOString();
  const result = await db
    .updateTable('scheduled_task')
    .set({ holder: o.holder, lease_until: new Date(o.now.getTime() + o.leaseMs).toISOString() })
    .where('name', '=', name)
    .where('lease_until', '<', now)
    .where((eb) => eb.or([eb('last_run_at', 'is', null), eb('last_run_at', '<=', due)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a finished run and frees the lease (only the holder can). */
export async function finishLease(
  db: Db,
  name: string,
  holder: string,
  at: Date,
  result: string,
): Promise<void> {
  await db
    .updateTable('scheduled_task')
    .set({ holder: null, lease_until: '', last_run_at: at.toISOString(), last_result: result.slice(0, 500) })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}

/** Frees the lease after a failed run without recording a run, so the task is tried again later. */
export async function releaseLease(db: Db, name: string, holder: string, result: string): Promise<void> {
  await db
    .updateTable('scheduled_task')
    .set({ holder: null, lease_until: '', last_result: result.slice(0, 500) })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}

export async function taskState(db: Db, name: string) {
  return db.selectFrom('scheduled_task').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Every task's last run and its result (the metrics). */
export async function allTaskStates(db: Db) {
  return db.selectFrom('scheduled_task').select(['name', 'last_run_at', 'last_result']).execute();
}
