import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Storage } from '../storage/storage';
import { knownFileKeys } from '../db/files.repo';

/** A file younger than this may belong to a request still running in another process. */
export const ORPHAN_MIN_AGE_MS = 10 * 60 * 1000;

/**
 * Removes stored files that no `stored_file` row references. An upload stores its file first and
 * then writes its row in one transaction; a crash (SIGKILL, power) between the two leaves a file
 * nobody can reach. Run at start (server/index.ts); only files older than ORPHAN_MIN_AGE_MS, so
 * another process's upload in progress is never touched. Drivers without `list` are skipped.
 */
export async function removeOrphanFiles(
  db: Kysely<Database>,
  storage: Storage,
  { now = Date.now(), minAgeMs = ORPHAN_MIN_AGE_MS } = {},
): Promise<string[]> {
  if (!storage.list) return [];
  const candidates: string[] = [];
  for await (const { key, modifiedAt } of storage.list()) {
    if (now - modifiedAt >= minAgeMs) candidates.push(key);
  }
  const removed: string[] = [];
  for (let i = 0; i < candidates.length; i += 500) {
    const batch = candidates.slice(i, i + 500);
    const known = await knownFileKeys(db, batch);
    for (const key of batch) {
      if (known.has(key)) continue;
      await storage.delete(key);
      removed.push(key);
    }
  }
  return removed;
}
