import { deleteCopy, readCopies, readCopy, saveCopy } from './cache';

/**
 * Drafts of back-office forms kept on this device as they are typed (a job opening, a blog post):
 * one per user, kind and record ("new" for one not saved yet), in the offline database's `drafts`
 * area. A reload, a closed or crashed tab, or a session that ran out loses no text: reopening the
 * dialog offers the draft. Removed when the form is saved or discarded.
 */
export type DraftKind = 'job' | 'blog' | 'webhook';

export interface Draft<T> {
  values: T;
  /** When it was written, ISO 8601 in UTC. */
  savedAt: string;
}

export const draftKey = (userId: number, kind: DraftKind, id: number) =>
  `${userId}/${kind}/${id > 0 ? id : 'new'}`;

export async function writeDraft<T>(key: string, values: T): Promise<void> {
  await saveCopy('drafts', key, values);
}

/** The draft under `key`, or null (none, or IndexedDB unavailable: a form works without drafts). */
export async function readDraft<T>(key: string): Promise<Draft<T> | null> {
  const copy = await readCopy<T>('drafts', key).catch(() => null);
  return copy ? { values: copy.value, savedAt: copy.savedAt } : null;
}

export async function removeDraft(key: string): Promise<void> {
  await deleteCopy('drafts', key).catch(() => undefined);
}

/** Removes every draft of `userId` on this device (they signed out: the next person must not see them). */
export async function removeDraftsOf(userId: number): Promise<void> {
  const mine = (await readCopies('drafts').catch(() => [])).filter((copy) =>
    copy.key.startsWith(`${userId}/`),
  );
  await Promise.all(mine.map((copy) => removeDraft(copy.key)));
}
