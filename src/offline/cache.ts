import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * The offline cache: the last good copy of what a page loaded (pricing plans, blog posts, job
 * openings), kept in IndexedDB so the page can show it when the network fails, with the time it
 * was saved. One object store holds every area's copies under [store, key], so a new area needs
 * no database upgrade: it only picks a store name.
 *
 *   await saveCopy('pricing', 'plans', rows);
 *   const copy = await readCopy('pricing', 'plans'); // { value, savedAt } or null
 *
 * Values are structured-cloned (plain data). A copy is whatever was saved: check it against the
 * contract before use, since it may come from an older version of the site.
 */

export const OFFLINE_DB_NAME = 'manna-offline';
const OFFLINE_DB_VERSION = 1;

/** Areas that keep copies. */
export type CopyStore = 'pricing' | 'blog' | 'jobs' | 'drafts' | 'insights';

export interface KeptCopy<T = unknown> {
  value: T;
  /** When it was saved, ISO 8601 in UTC. */
  savedAt: string;
}

interface CopyRecord {
  store: string;
  key: string;
  value: unknown;
  savedAt: string;
}

interface OfflineSchema extends DBSchema {
  copies: { key: [string, string]; value: CopyRecord; indexes: { store: string } };
}

let connection: Promise<IDBPDatabase<OfflineSchema>> | undefined;

function database(): Promise<IDBPDatabase<OfflineSchema>> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  connection ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, OFFLINE_DB_VERSION, {
    upgrade(db) {
      const copies = db.createObjectStore('copies', { keyPath: ['store', 'key'] });
      copies.createIndex('store', 'store');
    },
    // Another tab wants a newer version: let it, and open again on the next call.
    blocking() {
      void closeOfflineCache();
    },
    // The browser closed the connection (storage cleared, quota): open again on the next call.
    terminated() {
      connection = undefined;
    },
  }).catch((err: unknown) => {
    connection = undefined;
    throw err;
  });
  return connection;
}

/** Keeps `value` as the copy of `key` in `store`, replacing an older one. */
export async function saveCopy<T>(
  store: CopyStore,
  key: string,
  value: T,
  now = new Date(),
): Promise<KeptCopy<T>> {
  const savedAt = now.toISOString();
  await (await database()).put('copies', { store, key, value, savedAt });
  return { value, savedAt };
}

/** The kept copy of `key` in `store`, or null when there is none. */
export async function readCopy<T = unknown>(store: CopyStore, key: string): Promise<KeptCopy<T> | null> {
  const record = await (await database()).get('copies', [store, key]);
  return record ? { value: record.value as T, savedAt: record.savedAt } : null;
}

/** Every kept copy of `store` with its key. */
export async function readCopies<T = unknown>(store: CopyStore): Promise<(KeptCopy<T> & { key: string })[]> {
  const records = await (await database()).getAllFromIndex('copies', 'store', store);
  return records.map((r) => ({ key: r.key, value: r.value as T, savedAt: r.savedAt }));
}

export async function deleteCopy(store: CopyStore, key: string): Promise<void> {
  await (await database()).delete('copies', [store, key]);
}

/** Removes every copy of `store`. */
export async function clearCopies(store: CopyStore): Promise<void> {
  const db = await database();
  const tx = db.transaction('copies', 'readwrite');
  for (const key of await tx.store.index('store').getAllKeys(store)) await tx.store.delete(key);
  await tx.done;
}

/** Closes the connection (tests; another tab upgrading). The next call opens it again. */
export async function closeOfflineCache(): Promise<void> {
  const open = connection;
  connection = undefined;
  if (open) (await open.catch(() => undefined))?.close();
}
