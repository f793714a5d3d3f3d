import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStorage } from './local';
import { isStorageKey } from './storage';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-storage-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

async function read(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('local-disk storage', () => {
  it('stores a stream under a generated key and reads it back', async () => {
    const storage = await createLocalStorage(root);
    const key = await storage.put(Readable.from([Buffer.from('%PDF-1.4 hello')]), {
      prefix: 'cv',
      ext: 'pdf',
      contentType: 'application/pdf',
    });
    expect(key).toMatch(/^cv\/[0-9a-f-]{36}\.pdf$/);
    expect(await storage.exists(key)).toBe(true);
    const object = await storage.get(key);
    expect(object?.size).toBe(14);
    expect(object?.contentType).toBe('application/pdf');
    expect((await read(object!.body)).toString()).toBe('%PDF-1.4 hello');
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  it('replaces the bytes of a stored key in place, and only of a stored key', async () => {
    const storage = await createLocalStorage(root);
    const key = await storage.put(Readable.from([Buffer.from('old bytes')]), {
      prefix: 'blog',
      ext: 'jpg',
      contentType: 'image/jpeg',
    });
    const same = await storage.put(Readable.from([Buffer.from('new')]), {
      prefix: 'blog',
      ext: 'jpg',
      contentType: 'image/jpeg',
      replace: key,
    });
    expect(same).toBe(key);
    expect((await read((await storage.get(key))!.body)).toString()).toBe('new');
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
    await expect(
      storage.put(Readable.from([Buffer.from('x')]), {
        prefix: 'blog',
        ext: 'jpg',
        contentType: 'image/jpeg',
        replace: '../outside.jpg',
      }),
    ).rejects.toThrow('Only a stored key can be replaced');
  });

  it('copies a file, leaving the original to its owner', async () => {
    const storage = await createLocalStorage(root);
    const source = path.join(root, 'upload');
    fs.writeFileSync(source, 'bytes');
    const key = await storage.put({ path: source }, { prefix: 'cv', ext: 'docx', contentType: 'x' });
    expect(fs.readFileSync(path.join(root, key), 'utf8')).toBe('bytes');
    expect(fs.existsSync(source)).toBe(true);
  });

  it('leaves no file, half or whole, when the stream fails midway', async () => {
    const storage = await createLocalStorage(root);
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024, 1));
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(storage.put(failing, { prefix: 'cv', ext: 'pdf', contentType: 'x' })).rejects.toThrow(
      'connection lost',
    );
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
    expect(fs.existsSync(path.join(root, 'cv'))).toBe(false);
  });

  it('deletes, and treats unknown or malformed keys as absent', async () => {
    const storage = await createLocalStorage(root);
    const key = await storage.put(Readable.from(['x']), { prefix: 'cv', ext: 'pdf', contentType: 'x' });
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeUndefined();
    await storage.delete(key); // again: not an error
    fs.writeFileSync(path.join(root, 'secret.txt'), 'no');
    for (const bad of ['../secret.txt', 'secret.txt', 'cv/../../etc/passwd', '/etc/passwd', 'cv/x.pdf', '']) {
      expect(isStorageKey(bad)).toBe(false);
      expect(await storage.exists(bad)).toBe(false);
      expect(await storage.get(bad)).toBeUndefined();
      await storage.delete(bad);
    }
    expect(fs.existsSync(path.join(root, 'secret.txt'))).toBe(true);
  });

  it('refuses a prefix or extension that could form a path', async () => {
    const storage = await createLocalStorage(root);
    await expect(
      storage.put(Readable.from(['x']), { prefix: '../cv', ext: 'pdf', contentType: 'x' }),
    ).rejects.toThrow();
    await expect(
      storage.put(Readable.from(['x']), { prefix: 'cv', ext: 'pdf/..', contentType: 'x' }),
    ).rejects.toThrow();
  });

  it('removes temporary files a crash left behind, and keeps recent ones', async () => {
    fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
    const old = path.join(root, '.tmp', 'old');
    const fresh = path.join(root, '.tmp', 'fresh');
    fs.writeFileSync(old, 'half');
    fs.writeFileSync(fresh, 'writing');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(old, twoHoursAgo, twoHoursAgo);
    await createLocalStorage(root);
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual(['fresh']);
  });
});
