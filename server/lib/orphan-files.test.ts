import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../testing';
import { ORPHAN_MIN_AGE_MS, removeOrphanFiles } from './orphan-files';

describe('removeOrphanFiles', () => {
  let app: FastifyInstance;
  afterEach(() => app.close());

  it('removes old files no row references, and keeps referenced and recent ones', async () => {
    app = await createTestApp();
    const put = () => app.storage.put(Readable.from([Buffer.from('%PDF-1.4 x')]), { prefix: 'cv', ext: 'pdf', contentType: 'application/pdf' });
    const referenced = await put();
    const orphan = await put();
    await app.db
      .insertInto('stored_file')
      .values({ file_key: referenced, kind: 'cv', content_type: 'application/pdf', byte_size: 10, original_name: 'a.pdf', created_at: new Date().toISOString() } as never)
      .execute();

    // just written: another process may be about to write its row
    expect(await removeOrphanFiles(app.db, app.storage)).toEqual([]);
    const later = Date.now() + ORPHAN_MIN_AGE_MS + 1000;
    expect(await removeOrphanFiles(app.db, app.storage, { now: later })).toEqual([orphan]);
    expect(await app.storage.exists(orphan)).toBe(false);
    expect(await app.storage.exists(referenced)).toBe(true);
  });
});
