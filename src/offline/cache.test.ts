import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearCopies, closeOfflineCache, deleteCopy, readCopies, readCopy, saveCopy } from './cache';

beforeEach(async () => {
  await closeOfflineCache();
  globalThis.indexedDB = new IDBFactory(); // a fresh, empty browser storage per test
});
afterEach(() => closeOfflineCache());

describe('the offline cache', () => {
  it('keeps a copy with the time it was saved, and reads it back', async () => {
    const rows = [{ plan_name: 'Starter', price: '12,000' }];
    const saved = await saveCopy('pricing', 'plans', rows, new Date('2026-03-01T10:30:00Z'));
    expect(saved).toEqual({ value: rows, savedAt: '2026-03-01T10:30:00.000Z' });
    expect(await readCopy('pricing', 'plans')).toEqual({ value: rows, savedAt: '2026-03-01T10:30:00.000Z' });
  });

  it('answers null when nothing was kept', async () => {
    expect(await readCopy('pricing', 'plans')).toBeNull();
  });

  it('replaces an older copy of the same key', async () => {
    await saveCopy('pricing', 'plans', ['old'], new Date('2026-01-01T00:00:00Z'));
    await saveCopy('pricing', 'plans', ['new'], new Date('2026-02-01T00:00:00Z'));
    expect(await readCopy('pricing', 'plans')).toEqual({
      value: ['new'],
      savedAt: '2026-02-01T00:00:00.000Z',
    });
  });

  it('keeps the areas apart: the same key in another store is another copy', async () => {
    await saveCopy('pricing', 'latest', 'plans');
    await saveCopy('blog', 'latest', 'posts');
    expect((await readCopy('pricing', 'latest'))?.value).toBe('plans');
    expect((await readCopy('blog', 'latest'))?.value).toBe('posts');
    expect((await readCopies('blog')).map((c) => c.key)).toEqual(['latest']);
  });

  it('deletes one copy, or every copy of one store', async () => {
    await saveCopy('jobs', 'page-1', [1]);
    await saveCopy('jobs', 'page-2', [2]);
    await saveCopy('blog', 'page-1', ['post']);
    await deleteCopy('jobs', 'page-1');
    expect((await readCopies('jobs')).map((c) => c.key)).toEqual(['page-2']);
    await clearCopies('jobs');
    expect(await readCopies('jobs')).toEqual([]);
    expect(await readCopy('blog', 'page-1')).not.toBeNull();
  });

  it('survives closing and reopening the database (a new visit)', async () => {
    await saveCopy('pricing', 'plans', { a: 1 });
    await closeOfflineCache();
    expect((await readCopy('pricing', 'plans'))?.value).toEqual({ a: 1 });
  });

  it('rejects when the browser has no IndexedDB, so callers can fall back', async () => {
    vi.stubGlobal('indexedDB', undefined);
    await expect(readCopy('pricing', 'plans')).rejects.toThrow('IndexedDB is not available');
    await expect(saveCopy('pricing', 'plans', [])).rejects.toThrow('IndexedDB is not available');
  });
});
