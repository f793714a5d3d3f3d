import type { Kysely } from 'kysely';
import type { StoredFileTable } from './jobs.schema';
import type { Database } from './schema';

/**
 * The `stored_file` table: one row per file the site keeps (a CV, a blog image), written in the
 * transaction of the record that uses it. The only place that reads or writes the table; the
 * files themselves are in server/storage.
 */

type Db = Kysely<Database>;

/** A file's row: its storage key, kind ('cv', 'blog-image'), checked type, size and cleaned name. */
export type StoredFile = Omit<StoredFileTable, 'created_at'>;

export async function recordStoredFile(db: Db, file: StoredFile, now = new Date()): Promise<void> {
  await db
    .insertInto('stored_file')
    .values({ ...file, created_at: now.toISOString() })
    .execute();
}

/** The row of `key` (of `kind` when given), if the site keeps such a file. */
export async function storedFile(db: Db, key: string, kind?: string): Promise<StoredFile | undefined> {
  let query = db
    .selectFrom('stored_file')
    .select(['file_key', 'kind', 'content_type', 'byte_size', 'original_name'])
    .where('file_key', '=', key);
  if (kind !== undefined) query = query.where('kind', '=', kind);
  return query.executeTakeFirst();
}

/** Which of `keys` have a row (the start-up sweep keeps those files). */
export async function knownFileKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectFrom('stored_file').select('file_key').where('file_key', 'in', keys).execute();
  return new Set(rows.map((r) => r.file_key));
}

/** Deletes the rows of `keys` (only of `kind` when given); the caller deletes the files after. */
export async function deleteStoredFiles(db: Db, keys: readonly string[], kind?: string): Promise<void> {
  if (keys.length === 0) return;
  let query = db.deleteFrom('stored_file').where('file_key', 'in', keys);
  if (kind !== undefined) query = query.where('kind', '=', kind);
  await query.execute();
}

/** A stored file's size after its bytes were replaced in place (a repaired cover). */
export async function setStoredFileSize(db: Db, key: string, byteSize: number): Promise<void> {
  await db.updateTable('stored_file').set({ byte_size: byteSize }).where('file_key', '=', key).execute();
}
