import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * DATA_DIR holds the live database (sessions, reset tokens, candidates' data), CVs and the
 * generated secret: only the account the server runs as may read it. Every process of the site
 * (the server, create-admin, backup, restore) first sets its umask with `privateFiles()`, so what
 * it creates is 0700 (folders) and 0600 (files); `securePrivateFolder` puts right a folder made
 * before that rule (or copied in by hand) at start.
 */

/** New files 0600, new folders 0700, for the rest of this process. */
export function privateFiles(): void {
  process.umask(0o077);
}

/** DATA_DIR (or something in it) belongs to another account: start-up says what to do, in one line. */
export class DataDirError extends Error {}

/** The DataDirError of a refusal (EPERM, EACCES) to touch `target` in `dir`; null for another error. */
export function dataDirDenied(err: unknown, dir: string, target: string): DataDirError | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'EPERM' || code === 'EACCES' ? notOurs(dir, target) : null;
}

const notOurs = (dir: string, target: string) => {
  const uid = process.getuid?.() ?? 0;
  let owner = '';
  try {
    owner = ` (it belongs to uid ${fs.lstatSync(target).uid})`;
  } catch {
    // unreadable: the uid stays unsaid
  }
  const what = target === dir ? `DATA_DIR ${dir}` : `${target} in DATA_DIR`;
  return new DataDirError(
    `${what} is not this server's to use${owner}; the server runs as uid ${uid}. ` +
      `Give the folder to that user and start again: chown -R ${uid} ${dir}, or on the host for a bind ` +
      `mount such as -v /srv/manna:/data, chown -R ${uid} /srv/manna.`,
  );
};

/**
 * Makes `dir` 0700 and everything in it 0700 (folders) or 0600 (files), without following symbolic
 * links; answers how many modes changed. A missing folder is left alone (answers 0). A folder or
 * file of another account (a bind mount the server's user does not own) is a DataDirError.
 */
export function securePrivateFolder(dir: string): number {
  let changed = 0;
  const fix = (target: string, mode: number) => {
    const stat = fs.lstatSync(target);
    if ((stat.mode & 0o777) !== mode) {
      try {
        fs.chmodSync(target, mode);
      } catch (err) {
        throw dataDirDenied(err, dir, target) ?? err;
      }
      changed++;
    }
    return stat;
  };
  const list = (folder: string) => {
    try {
      return fs.readdirSync(folder, { withFileTypes: true });
    } catch (err) {
      throw dataDirDenied(err, dir, folder) ?? err;
    }
  };
  const walk = (folder: string) => {
    fix(folder, 0o700);
    for (const entry of list(folder)) {
      const target = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(target);
      else if (entry.isFile()) fix(target, 0o600);
    }
  };
  if (!fs.existsSync(dir)) return 0;
  walk(dir);
  return changed;
}

/** Where each running server of a DATA_DIR leaves its mark (`<host>-<pid>`), for restore to see. */
export const RUNNING_MARKS = '.running';

/**
 * Marks `dir` as held by this process until the answered release runs (at close); restore refuses
 * a folder a live process holds. A mark whose process is gone (a crash) is ignored and removed.
 */
export function holdDataDir(dir: string): () => void {
  const marks = path.join(dir, RUNNING_MARKS);
  fs.mkdirSync(marks, { recursive: true, mode: 0o700 });
  const mark = path.join(marks, `${os.hostname()}-${process.pid}`);
  fs.writeFileSync(mark, `${new Date().toISOString()}\n`, { mode: 0o600 });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    fs.rmSync(mark, { force: true });
  };
  process.on('exit', release);
  return release;
}

/**
 * The live processes that hold `dir` (`host-pid`). A mark left by a process of this host that no
 * longer runs is removed; a mark of another host (a shared disk) counts as live.
 */
export function dataDirHolders(dir: string): string[] {
  const marks = path.join(dir, RUNNING_MARKS);
  if (!fs.existsSync(marks)) return [];
  const live: string[] = [];
  for (const name of fs.readdirSync(marks)) {
    const at = name.lastIndexOf('-');
    const host = name.slice(0, at);
    const pid = Number(name.slice(at + 1));
    if (host === os.hostname() && Number.isInteger(pid) && !isRunning(pid)) {
      fs.rmSync(path.join(marks, name), { force: true });
      continue;
    }
    live.push(name);
  }
  return live;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
