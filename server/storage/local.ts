import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { contentTypeOfKey, isStorageKey, keyOfPut, type PutOptions, type Storage } from './storage';

/** Temporary files older than this are left-overs of a crash and removed on start. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Local-disk storage under `root` (DATA_DIR/files). put() writes to `root/.tmp/<uuid>`, flushes it
 * to disk, then renames it to `root/<key>`: a rename within one file system is atomic, so a key
 * either names a complete file or nothing. Keys are checked against the generated pattern before
 * any path is built, so no key can leave `root`.
 */
export async function createLocalStorage(root: string): Promise<Storage> {
  const tmpDir = path.join(root, '.tmp');
  await fsp.mkdir(tmpDir, { recursive: true });
  await removeStaleTemps(tmpDir);

  const pathOf = (key: string) => {
    if (!isStorageKey(key)) return undefined;
    return path.join(root, ...key.split('/'));
  };

  return {
    driver: 'local',

    async check() {
      await fsp.access(tmpDir, fs.constants.R_OK | fs.constants.W_OK);
    },

    async put(source: Readable | { path: string }, options: PutOptions) {
      const key = keyOfPut(options);
      const target = pathOf(key)!;
      const temp = path.join(tmpDir, randomUUID());
      try {
        if (isStream(source)) {
          await pipeline(source, fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
        } else {
          await fsp.copyFile(source.path, temp, fs.constants.COPYFILE_EXCL);
        }
        const handle = await fsp.open(temp, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fsp.mkdir(path.dirname(target), { recursive: true });
        await fsp.rename(temp, target);
        await syncDir(path.dirname(target));
      } catch (err) {
        await fsp.rm(temp, { force: true });
        throw err;
      }
      return key;
    },

    async get(key) {
      const file = pathOf(key);
      if (!file) return undefined;
      try {
        const handle = await fsp.open(file, 'r');
        const { size } = await handle.stat();
        return { body: handle.createReadStream(), size, contentType: contentTypeOfKey(key) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },

    async delete(key) {
      const file = pathOf(key);
      if (file) await fsp.rm(file, { force: true });
    },

    async *list() {
      for (const prefix of await fsp.readdir(root, { withFileTypes: true })) {
        if (!prefix.isDirectory() || prefix.name === '.tmp') continue;
        for (const name of await fsp.readdir(path.join(root, prefix.name))) {
          const key = `${prefix.name}/${name}`;
          if (!isStorageKey(key)) continue;
          try {
            yield { key, modifiedAt: (await fsp.stat(path.join(root, prefix.name, name))).mtimeMs };
          } catch {
            // removed meanwhile
          }
        }
      }
    },

    async exists(key) {
      const file = pathOf(key);
      if (!file) return false;
      try {
        return (await fsp.stat(file)).isFile();
      } catch {
        return false;
      }
    },
  };
}

const isStream = (source: Readable | { path: string }): source is Readable =>
  typeof (source as Readable).pipe === 'function';

/** Makes the rename itself durable (best effort: not every file system allows it). */
async function syncDir(dir: string) {
  try {
    const handle = await fsp.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // e.g. EISDIR/EPERM on some platforms
  }
}

async function removeStaleTemps(dir: string) {
  const now = Date.now();
  for (const name of await fsp.readdir(dir)) {
    const file = path.join(dir, name);
    try {
      if (now - (await fsp.stat(file)).mtimeMs > STALE_TEMP_MS) await fsp.rm(file, { force: true });
    } catch {
      // removed meanwhile
    }
  }
}
