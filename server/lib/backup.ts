import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import type { Config } from '../config';

/**
 * Backups that restore (README.md, "Running at scale"). One backup is a folder
 * `manna-backup-<UTC time>` holding:
 *
 * - `database.sqlite`: SQLite's online backup of the embedded database (consistent while the
 *   server runs and writes), or `database.dump`: `pg_dump --format=custom` of PostgreSQL when
 *   pg_dump is installed;
 * - `files/`: every stored file (CVs, blog images) of the local store, and `secret` (the generated
 *   SECRET, so sessions and signed addresses stay valid after a restore);
 * - `manifest.json`: what the backup holds, with each file's size and SHA-256.
 *
 * The database is copied first, the files after it: the server stores a file before the row that
 * names it, so every row in the copy finds its file. The folder is written as `.partial` and
 * renamed when complete, so a half-written backup is never taken for one.
 */

export const BACKUP_PREFIX = 'manna-backup-';
const MANIFEST = 'manifest.json';

export interface BackupFile {
  /** Relative to the backup folder, with forward slashes. */
  path: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: 1;
  createdAt: string;
  database: { kind: 'sqlite' | 'postgres'; file: string | null; note?: string };
  storage: { driver: 'local' | 's3'; note?: string };
  files: BackupFile[];
}

export interface BackupResult {
  dir: string;
  bytes: number;
  files: number;
  ms: number;
  manifest: BackupManifest;
}

export class BackupError extends Error {}

const stampOf = (date: Date) =>
  date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Copies `from` to `to` and answers the SHA-256 of what was copied. */
async function copyWithHash(from: string, to: string): Promise<string> {
  await fsp.mkdir(path.dirname(to), { recursive: true });
  const hash = createHash('sha256');
  const source = fs.createReadStream(from);
  source.on('data', (chunk) => hash.update(chunk));
  await pipeline(source, fs.createWriteStream(to, { flags: 'wx', mode: 0o600 }));
  return hash.digest('hex');
}

/** Every file under `root` (relative paths), leaving out the store's temporary folder. */
async function* walk(root: string, rel = ''): AsyncGenerator<string> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(path.join(root, rel), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === '.tmp') continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(root, child);
    else if (entry.isFile()) yield child;
  }
}

/**
 * pg_dump's arguments for the site's DATABASE_URL: libpq reads `+` in the address as itself, not as
 * a space, so the query is re-encoded; a site kept in its own schema (`options=-c search_path=s`)
 * dumps that schema only.
 */
function pgDumpArgs(databaseUrl: string, file: string): string[] {
  const url = new URL(databaseUrl);
  const options = url.searchParams.get('options') ?? '';
  url.search = url.search.replace(/\+/g, '%20');
  const schema = /search_path=([A-Za-z_][\w$]*)/.exec(options)?.[1];
  return [
    '--format=custom',
    '--no-owner',
    `--file=${file}`,
    ...(schema ? [`--schema=${schema}`] : []),
    url.toString(),
  ];
}

/** Takes one backup of the database and files of `config` into a new folder under `outDir`. */
export async function takeBackup(
  config: Pick<Config, 'database' | 'DATA_DIR' | 's3'>,
  outDir: string,
  now = new Date(),
): Promise<BackupResult> {
  const started = Date.now();
  const name = `${BACKUP_PREFIX}${stampOf(now)}`;
  const dir = path.join(outDir, name);
  const partial = `${dir}.partial`;
  await fsp.mkdir(partial, { recursive: true, mode: 0o700 });
  try {
    const files: BackupFile[] = [];
    const add = async (rel: string) => {
      const abs = path.join(partial, ...rel.split('/'));
      files.push({ path: rel, size: (await fsp.stat(abs)).size, sha256: await sha256Of(abs) });
    };

    const manifest: BackupManifest = {
      format: 1,
      createdAt: now.toISOString(),
      database: { kind: config.database.dialect, file: null },
      storage: { driver: config.s3 ? 's3' : 'local' },
      files,
    };

    // 1. The database, first.
    if (config.database.dialect === 'sqlite') {
      const source = new SQLite(config.database.file, { readonly: true, fileMustExist: true });
      try {
        await source.backup(path.join(partial, 'database.sqlite'));
      } finally {
        source.close();
      }
      manifest.database.file = 'database.sqlite';
      await add('database.sqlite');
    } else {
      const dump = spawnSync(
        'pg_dump',
        pgDumpArgs(config.database.url, path.join(partial, 'database.dump')),
        {
          encoding: 'utf8',
        },
      );
      if (dump.error && (dump.error as NodeJS.ErrnoException).code === 'ENOENT') {
        manifest.database.note = 'pg_dump is not installed here: back up PostgreSQL with its own tools';
      } else if (dump.status !== 0) {
        throw new BackupError(`pg_dump failed: ${(dump.stderr || String(dump.error)).trim()}`);
      } else {
        manifest.database.file = 'database.dump';
        await add('database.dump');
      }
    }

    // 2. The files, after the database.
    if (config.s3) {
      manifest.storage.note =
        'files are in the S3 bucket, not copied here: keep them with the bucket’s own versioning or replication';
    } else {
      const root = path.join(config.DATA_DIR, 'files');
      for await (const rel of walk(root)) {
        const target = path.join(partial, 'files', ...rel.split('/'));
        let sha256: string;
        try {
          sha256 = await copyWithHash(path.join(root, ...rel.split('/')), target);
        } catch (err) {
          // deleted since it was listed (an admin's deletion, the retention purge): not backed up
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw err;
        }
        files.push({ path: `files/${rel}`, size: (await fsp.stat(target)).size, sha256 });
      }
    }
    const secret = path.join(config.DATA_DIR, 'secret');
    if (fs.existsSync(secret)) {
      await copyWithHash(secret, path.join(partial, 'secret'));
      await add('secret');
    }

    await fsp.writeFile(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    await fsp.rename(partial, dir);
    const bytes = files.reduce((n, f) => n + f.size, 0);
    return { dir, bytes, files: files.length, ms: Date.now() - started, manifest };
  } catch (err) {
    await fsp.rm(partial, { recursive: true, force: true });
    throw err;
  }
}

/** Reads a backup's manifest and checks every file it lists; throws naming each one that differs. */
export async function verifyBackup(from: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await fsp.readFile(path.join(from, MANIFEST), 'utf8')) as BackupManifest;
  } catch (err) {
    throw new BackupError(`${from} is not a backup: ${MANIFEST} cannot be read (${(err as Error).message})`);
  }
  if (manifest.format !== 1 || !Array.isArray(manifest.files)) {
    throw new BackupError(`${from}: ${MANIFEST} is not a backup manifest this version reads`);
  }
  const wrong: string[] = [];
  for (const file of manifest.files) {
    if (file.path.split('/').some((part) => part === '..' || part === '') || path.isAbsolute(file.path)) {
      throw new BackupError(`${from}: ${MANIFEST} names a file outside the backup: ${file.path}`);
    }
    const abs = path.join(from, ...file.path.split('/'));
    try {
      const size = (await fsp.stat(abs)).size;
      if (size !== file.size || (await sha256Of(abs)) !== file.sha256)
        wrong.push(`${file.path} (checksum does not match)`);
    } catch {
      wrong.push(`${file.path} (missing)`);
    }
  }
  if (wrong.length > 0) {
    throw new BackupError(
      `The backup is damaged; nothing was restored. Files that differ: ${wrong.join(', ')}`,
    );
  }
  return manifest;
}

/**
 * Restores a backup of the embedded database into `dataDir`, which must be empty (or `force`).
 * Every checksum is verified before anything is written, and SQLite's integrity check runs on the
 * restored database before success is reported.
 */
export async function restoreBackup(
  from: string,
  dataDir: string,
  { force = false } = {},
): Promise<{ files: number; bytes: number }> {
  const manifest = await verifyBackup(from);
  if (manifest.database.kind !== 'sqlite' || !manifest.database.file) {
    throw new BackupError(
      'This backup holds a PostgreSQL dump: restore it with pg_restore, then copy its files/ folder into DATA_DIR/files',
    );
  }
  const present = fs.existsSync(dataDir) ? await fsp.readdir(dataDir) : [];
  if (present.length > 0 && !force) {
    throw new BackupError(
      `${dataDir} is not empty; restore into an empty folder, or add --force to replace what is there`,
    );
  }
  if (force) {
    for (const entry of ['manna.sqlite', 'manna.sqlite-wal', 'manna.sqlite-shm', 'files', 'secret']) {
      await fsp.rm(path.join(dataDir, entry), { recursive: true, force: true });
    }
  }
  await fsp.mkdir(dataDir, { recursive: true });
  let bytes = 0;
  for (const file of manifest.files) {
    const target =
      file.path === manifest.database.file
        ? path.join(dataDir, 'manna.sqlite')
        : path.join(dataDir, ...file.path.split('/'));
    const sha256 = await copyWithHash(path.join(from, ...file.path.split('/')), target);
    if (sha256 !== file.sha256) throw new BackupError(`${file.path} changed while it was restored`);
    bytes += file.size;
  }
  const restored = new SQLite(path.join(dataDir, 'manna.sqlite'), { fileMustExist: true });
  try {
    const result = restored.pragma('integrity_check', { simple: true });
    if (result !== 'ok')
      throw new BackupError(`The restored database fails SQLite's integrity check: ${String(result)}`);
  } finally {
    restored.close();
  }
  return { files: manifest.files.length, bytes };
}

/** The backups in `dir`, newest first (complete ones only). */
export async function listBackups(dir: string): Promise<{ name: string; dir: string }[]> {
  const names = fs.existsSync(dir) ? await fsp.readdir(dir) : [];
  return names
    .filter((n) => n.startsWith(BACKUP_PREFIX) && !n.endsWith('.partial'))
    .sort()
    .reverse()
    .map((name) => ({ name, dir: path.join(dir, name) }));
}

/** Removes all but the newest `keep` backups of `dir`; answers the names removed. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await listBackups(dir)).slice(keep);
  for (const b of old) await fsp.rm(b.dir, { recursive: true, force: true });
  return old.map((b) => b.name);
}

/** The newest complete backup of `dir`, from its manifest (time, size, files), or null. */
export async function newestBackup(
  dir: string,
): Promise<{ at: string; bytes: number; files: number } | null> {
  for (const backup of await listBackups(dir)) {
    try {
      const manifest = JSON.parse(
        await fsp.readFile(path.join(backup.dir, MANIFEST), 'utf8'),
      ) as BackupManifest;
      return {
        at: manifest.createdAt,
        bytes: manifest.files.reduce((n, f) => n + f.size, 0),
        files: manifest.files.length,
      };
    } catch {
      // a folder without a readable manifest is not a backup; look at the next one
    }
  }
  return null;
}
