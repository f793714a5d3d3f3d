import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import { BACKUP_STALE_HOURS } from '../../contract/auth';
import { mailCounts } from '../db/mail.repo';
import { newestBackup, pruneBackups, takeBackup, type BackupResult } from '../lib/backup';
import { mailConfigured, type ServiceContext } from './context';
import { finishLease, PROCESS_HOLDER, releaseLease, takeLease } from '../db/scheduled-task.repo';

export const BACKUP_TASK = 'backup';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A backup that has not finished after this long is presumed dead; another process may take over. */
const BACKUP_LEASE_MS = 2 * 60 * 60 * 1000;

type Log = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * The daily backup of a server with BACKUP_DIR: taken by one process of the site (the lease of
 * scheduled_task, as the retention purge), then all but the newest BACKUP_KEEP are removed. Its
 * result is the task's `last_result` (what /metrics and the logs show). Answers null when there is
 * no BACKUP_DIR, another process holds the lease, today's backup exists, or it failed (logged; the
 * next hourly check tries again).
 */
export async function runBackupTask(
  db: Kysely<Database>,
  config: Pick<Config, 'database' | 'DATA_DIR' | 's3' | 'BACKUP_DIR' | 'BACKUP_KEEP'>,
  o: { now: Date; holder?: string; log?: Log },
): Promise<BackupResult | null> {
  if (!config.BACKUP_DIR) return null;
  const holder = o.holder ?? PROCESS_HOLDER;
  if (
    !(await takeLease(db, BACKUP_TASK, { holder, now: o.now, leaseMs: BACKUP_LEASE_MS, everyMs: DAY_MS }))
  ) {
    return null;
  }
  try {
    const result = await takeBackup(config, config.BACKUP_DIR, o.now);
    const pruned = await pruneBackups(config.BACKUP_DIR, config.BACKUP_KEEP);
    const summary = `${path.basename(result.dir)}: ${result.files} files, ${result.bytes} bytes, ${result.ms} ms`;
    await finishLease(db, BACKUP_TASK, holder, o.now, summary);
    o.log?.info(
      { backup: result.dir, bytes: result.bytes, files: result.files, ms: result.ms, pruned },
      'Backup taken',
    );
    return result;
  } catch (err) {
    o.log?.error({ err }, 'Backup failed; it is tried again at the next check');
    await releaseLease(
      db,
      BACKUP_TASK,
      holder,
      `failed: ${err instanceof Error ? err.message : String(err)}`,
    ).catch(() => {});
    return null;
  }
}

/**
 * What the Activity screen says of backups and mail (audit.read): whether the server takes backups,
 * the newest one (time, size, files) and whether it is older than BACKUP_STALE_HOURS, and the
 * outbox today.
 */
export async function backupStatus(ctx: ServiceContext) {
  const dir = ctx.config.BACKUP_DIR;
  const last = dir ? await newestBackup(dir) : null;
  const now = ctx.now();
  const stale = !last || now.getTime() - Date.parse(last.at) > BACKUP_STALE_HOURS * 3_600_000;
  const today = now.toISOString().slice(0, 10);
  const mail = {
    configured: mailConfigured(ctx),
    ...(await mailCounts(ctx.db, `${today}T00:00:00.000Z`)),
  };
  return { configured: dir !== undefined, last, stale, mail };
}
