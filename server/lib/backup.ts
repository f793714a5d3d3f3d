import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import type { Config } from '../config';
import { createDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { dataDirHolders, RUNNING_MARKS, securePrivateFolder } from './data-dir';

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
  // never through a link: a backup's entries are plain files (refuseOddEntries), and stay so
  const handle = await fsp.open(from, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  const source = handle.createReadStream();
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
 * pg_dump's arguments and environment for the site's DATABASE_URL: the password goes in PGPASSWORD,
 * never on the command line (any local user's `ps` reads that); libpq reads `+` in the address as
 * itself, not as a space, so the query is re-encoded; a site kept in its own schema
 * (`options=-c search_path=s`) dumps that schema only.
 */
export function pgDumpCommand(
  databaseUrl: string,
  file: string,
): { args: string[]; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const options = url.searchParams.get('options') ?? '';
  url.search = url.search.replace(/\+/g, '%20');
  const schema = /search_path=([A-Za-z_][\w$]*)/.exec(options)?.[1];
  return {
    args: [
      '--format=custom',
      '--no-owner',
      `--file=${file}`,
      ...(schema ? [`--schema=${schema}`] : []),
      `--dbname=${url.toString()}`,
    ],
    env: password ? { PGPASSWORD: password } : {},
  };
}

/** pg_dump gives up after this long (a table locked for hours must not hold the backup forever). */
export const PG_DUMP_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * Runs pg_dump without blocking the event loop (the server keeps answering while it waits on a
 * lock); answers 'missing' when pg_dump is not installed.
 */
function runPgDump(databaseUrl: string, file: string, timeoutMs: number): Promise<'done' | 'missing'> {
  const { args, env } = pgDumpCommand(databaseUrl, file);
  return new Promise((resolve, reject) => {
    const child = spawn('pg_dump', args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    child.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') resolve('missing');
      else reject(new BackupError(`pg_dump could not run: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      if (code === 0) resolve('done');
      else if (signal) reject(new BackupError(`pg_dump did not finish within ${timeoutMs / 1000} s`));
      else reject(new BackupError(`pg_dump failed: ${stderr.trim() || `exit code ${code}`}`));
    });
  });
}

/** Takes one backup of the database and files of `config` into a new folder under `outDir`. */
export async function takeBackup(
  config: Pick<Config, 'database' | 'DATA_DIR' | 's3'>,
  outDir: string,
  now = new Date(),
  options: { pgDumpTimeoutMs?: number } = {},
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
      const done = await runPgDump(
        config.database.url,
        path.join(partial, 'database.dump'),
        options.pgDumpTimeoutMs ?? PG_DUMP_TIMEOUT_MS,
      );
      if (done === 'missing') {
        manifest.database.note = 'pg_dump is not installed here: back up PostgreSQL with its own tools';
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
 * Every entry of the backup folder is a folder or a plain file: a symbolic link (a crafted backup
 * pointing at a host file), a device or a pipe is refused, naming it, before anything is read.
 */
async function refuseOddEntries(root: string, rel = ''): Promise<void> {
  for (const entry of await fsp.readdir(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await refuseOddEntries(root, child);
    else if (!entry.isFile()) {
      throw new BackupError(
        `The backup holds ${child}, which is not a plain file (${entry.isSymbolicLink() ? 'a symbolic link' : 'a device, pipe or socket'}); nothing was restored`,
      );
    }
  }
}

const stampNow = () => stampOf(new Date());

/**
 * Restores a backup of the embedded database into `dataDir`, which must be empty (or `force`) and
 * held by no running server (lib/data-dir.ts). Nothing of `dataDir` is touched until the restore is
 * proven whole: the backup's entries must all be plain files with matching checksums; they are
 * copied into a new folder beside `dataDir` (read without following links), checked again, the
 * database must pass SQLite's integrity check and take this version's migrations; only then does one
 * rename put the new folder in place of the old one, which is removed after the swap.
 */
export async function restoreBackup(
  from: string,
  dataDir: string,
  { force = false } = {},
): Promise<{ files: number; bytes: number }> {
  await refuseOddEntries(from);
  const manifest = await verifyBackup(from);
  if (manifest.database.kind !== 'sqlite' || !manifest.database.file) {
    throw new BackupError(
      'This backup holds a PostgreSQL dump: restore it with pg_restore, then copy its files/ folder into DATA_DIR/files',
    );
  }
  const refuseWhileHeld = () => {
    const holders = dataDirHolders(dataDir);
    if (holders.length > 0) {
      throw new BackupError(
        `A server is running on ${dataDir} (${holders.join(', ')}): stop it first; nothing was restored`,
      );
    }
  };
  refuseWhileHeld();
  const present = fs.existsSync(dataDir)
    ? (await fsp.readdir(dataDir)).filter((name) => name !== RUNNING_MARKS)
    : [];
  if (present.length > 0 && !force) {
    throw new BackupError(
      `${dataDir} is not empty; restore into an empty folder, or add --force to replace what is there`,
    );
  }

  const stamp = stampNow();
  const staging = `${dataDir}.restoring-${stamp}`;
  await fsp.mkdir(staging, { recursive: true, mode: 0o700 });
  let bytes = 0;
  try {
    for (const file of manifest.files) {
      const target =
        file.path === manifest.database.file
          ? path.join(staging, 'manna.sqlite')
          : path.join(staging, ...file.path.split('/'));
      const sha256 = await copyWithHash(path.join(from, ...file.path.split('/')), target);
      if (sha256 !== file.sha256) throw new BackupError(`${file.path} changed while it was restored`);
      bytes += file.size;
    }
    await checkRestoredDatabase(path.join(staging, 'manna.sqlite'));
    securePrivateFolder(staging);
    refuseWhileHeld();
    if (fs.existsSync(dataDir)) {
      const previous = `${dataDir}.replaced-${stamp}`;
      await fsp.rename(dataDir, previous);
      try {
        await fsp.rename(staging, dataDir);
      } catch (err) {
        await fsp.rename(previous, dataDir);
        throw err;
      }
      await fsp.rm(previous, { recursive: true, force: true });
    } else {
      await fsp.rename(staging, dataDir);
    }
  } catch (err) {
    await fsp.rm(staging, { recursive: true, force: true });
    throw err;
  }
  return { files: manifest.files.length, bytes };
}

/** SQLite's integrity check, then this version's migrations, on the restored copy. */
async function checkRestoredDatabase(file: string): Promise<void> {
  const restored = new SQLite(file, { fileMustExist: true });
  try {
    const result = restored.pragma('integrity_check', { simple: true });
    if (result !== 'ok')
      throw new BackupError(`The restored database fails SQLite's integrity check: ${String(result)}`);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`The restored database cannot be read: ${(err as Error).message}`);
  } finally {
    restored.close();
  }
  const db = createDatabase({ dialect: 'sqlite', file });
  try {
    await migrateToLatest(db);
  } catch (err) {
    throw new BackupError(
      `The restored database does not take this version's migrations: ${(err as Error).message}`,
    );
  } finally {
    await db.destroy();
  }
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
