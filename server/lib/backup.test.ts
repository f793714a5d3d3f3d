import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addApplication, addOpening } from '../db/application-list.testing';
import { signInAs } from './auth-testing';
import { createSqliteTestApp, createTestApp } from '../testing';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import {
  BackupError,
  listBackups,
  pgDumpCommand,
  restoreBackup,
  takeBackup,
  type BackupManifest,
} from './backup';
import { holdDataDir } from './data-dir';
import { BACKUP_TASK, runBackupTask } from '../services/backups';
import { taskState } from '../db/scheduled-task.repo';

const DAY = 24 * 60 * 60 * 1000;

describe('backups', () => {
  let app: FastifyInstance;
  let work: string;
  beforeEach(async () => {
    app = await createTestApp();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-backup-test-'));
  });
  afterEach(async () => {
    await app.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const sqliteOnly = () => app.config.database.dialect === 'sqlite';

  it('a backup taken while applications arrive restores every one stored before it, with its CV', async () => {
    const jobId = await addOpening(app, 'Copy Editor');
    const before: { application_id: number; key: string }[] = [];
    for (let i = 0; i < 20; i++) {
      before.push(
        await addApplication(app, { jobId, name: `Before ${i}`, email: `b${i}@example.com`, at: new Date() }),
      );
    }
    // more arrive while the backup runs
    const during = Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        addApplication(app, { jobId, name: `During ${i}`, email: `d${i}@example.com`, at: new Date() }),
      ),
    );
    const backup = await takeBackup(app.config, path.join(work, 'out'));
    await during;
    expect(path.basename(backup.dir)).toMatch(/^manna-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    // a generated SECRET (DATA_DIR/secret) travels with the backup; test apps set SECRET instead
    const secretFile = path.join(app.config.DATA_DIR, 'secret');
    expect(backup.manifest.files.some((f) => f.path === 'secret')).toBe(fs.existsSync(secretFile));
    if (!sqliteOnly()) {
      // PostgreSQL: a pg_dump custom-format file when pg_dump is installed, and restore says how
      expect(backup.manifest.database.kind).toBe('postgres');
      if (backup.manifest.database.file) {
        expect(fs.readFileSync(path.join(backup.dir, 'database.dump')).subarray(0, 5).toString()).toBe(
          'PGDMP',
        );
      }
      await expect(restoreBackup(backup.dir, path.join(work, 'restored'))).rejects.toThrow(/pg_restore/);
      return;
    }

    const restoredDir = path.join(work, 'restored');
    const restored = await restoreBackup(backup.dir, restoredDir);
    expect(restored.files).toBe(backup.files);
    const db = new Database(path.join(restoredDir, 'manna.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const rows = db.prepare('SELECT application_id, resume FROM job_application').all() as {
        application_id: number;
        resume: string;
      }[];
      const byId = new Map(rows.map((r) => [r.application_id, r.resume]));
      for (const b of before) {
        expect(byId.get(b.application_id)).toBe(b.key);
        expect(fs.existsSync(path.join(restoredDir, 'files', ...b.key.split('/')))).toBe(true);
      }
      // whatever else made it in has its file too
      for (const resume of byId.values()) {
        expect(fs.existsSync(path.join(restoredDir, 'files', ...resume.split('/')))).toBe(true);
      }
    } finally {
      db.close();
    }
  });

  it('refuses a damaged backup naming the file, and a folder that is not empty unless forced', async () => {
    // what is restored is the embedded database's file: on SQLite in the PostgreSQL run too
    await app.close();
    app = await createSqliteTestApp();
    const jobId = await addOpening(app, 'Indexer');
    const { key } = await addApplication(app, {
      jobId,
      name: 'Asha',
      email: 'asha@example.com',
      at: new Date(),
    });
    const backup = await takeBackup(app.config, work);

    const target = path.join(work, 'target');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'notes.txt'), 'mine');
    await expect(restoreBackup(backup.dir, target)).rejects.toThrow(/not empty.*--force/);
    expect(fs.readdirSync(target)).toEqual(['notes.txt']);
    await restoreBackup(backup.dir, target, { force: true });
    expect(fs.existsSync(path.join(target, 'manna.sqlite'))).toBe(true);

    const cv = path.join(backup.dir, 'files', ...key.split('/'));
    fs.appendFileSync(cv, 'tampered');
    const fresh = path.join(work, 'fresh');
    const refused = restoreBackup(backup.dir, fresh);
    await expect(refused).rejects.toBeInstanceOf(BackupError);
    await expect(refused).rejects.toThrow(`files/${key} (checksum does not match)`);
    expect(fs.existsSync(fresh)).toBe(false);
    fs.rmSync(path.join(backup.dir, 'database.sqlite'));
    await expect(restoreBackup(backup.dir, fresh)).rejects.toThrow('database.sqlite (missing)');
  });

  /** A SQLite app with an application and its CV, and a backup of it; the app is closed. */
  async function sqliteBackup() {
    await app.close();
    app = await createSqliteTestApp();
    const jobId = await addOpening(app, 'Proofreader');
    await addApplication(app, { jobId, name: 'Ravi', email: 'ravi@example.com', at: new Date() });
    return takeBackup(app.config, path.join(work, 'backups'));
  }
  /** A target DATA_DIR holding a live-looking database of its own. */
  const populatedTarget = () => {
    const target = path.join(work, 'data');
    fs.mkdirSync(target);
    const db = new Database(path.join(target, 'manna.sqlite'));
    db.exec("create table keep(v text); insert into keep values ('the data before')");
    db.close();
    return target;
  };
  const keptValue = (target: string) => {
    const db = new Database(path.join(target, 'manna.sqlite'), { readonly: true });
    try {
      return (db.prepare('select v from keep').get() as { v: string }).v;
    } finally {
      db.close();
    }
  };
  /** Rewrites a file of the backup and its manifest entry, so the checksums match what is there. */
  const rewrite = (dir: string, rel: string, change: (abs: string) => void) => {
    const abs = path.join(dir, ...rel.split('/'));
    change(abs);
    const manifestFile = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
    const bytes = fs.readFileSync(abs);
    const entry = { path: rel, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    manifest.files = [...manifest.files.filter((f) => f.path !== rel), entry];
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
  };

  it('restore --force verifies a corrupt database beside the target and leaves the old data whole', async () => {
    const backup = await sqliteBackup();
    rewrite(backup.dir, 'database.sqlite', (abs) => {
      const bytes = fs.readFileSync(abs);
      // past the header: damage the pages, as a bad disk would
      for (let i = 4096; i < bytes.length; i += 97) bytes[i] ^= 0xff;
      fs.writeFileSync(abs, bytes);
    });
    const target = populatedTarget();
    await expect(restoreBackup(backup.dir, target, { force: true })).rejects.toThrow(
      /integrity check|cannot be read|migrations/,
    );
    expect(keptValue(target)).toBe('the data before');
    expect(fs.readdirSync(work).filter((n) => n.startsWith('data.'))).toEqual([]);
  });

  it('restore refuses a folder a running server holds, and proceeds once it is let go', async () => {
    const backup = await sqliteBackup();
    const target = populatedTarget();
    const release = holdDataDir(target);
    try {
      await expect(restoreBackup(backup.dir, target, { force: true })).rejects.toThrow(/server is running/);
      expect(keptValue(target)).toBe('the data before');
    } finally {
      release();
    }
    await restoreBackup(backup.dir, target, { force: true });
    expect(fs.existsSync(path.join(target, 'files'))).toBe(true);
    // what was restored is private: the folder 0700, every file 0600
    expect(fs.statSync(target).mode & 0o777).toBe(0o700);
    for (const name of ['manna.sqlite', 'secret'].filter((n) => fs.existsSync(path.join(target, n)))) {
      expect(fs.statSync(path.join(target, name)).mode & 0o777).toBe(0o600);
    }
  });

  it('restore refuses a backup holding a symbolic link, copying nothing', async () => {
    const backup = await sqliteBackup();
    const host = path.join(work, 'host-file.txt');
    fs.writeFileSync(host, 'a file of the host, not of the backup');
    rewrite(backup.dir, 'files/blog/leak.png', (abs) => {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.symlinkSync(host, abs);
    });
    const target = path.join(work, 'fresh');
    await expect(restoreBackup(backup.dir, target)).rejects.toThrow(
      'The backup holds files/blog/leak.png, which is not a plain file (a symbolic link)',
    );
    expect(fs.existsSync(target)).toBe(false);
  });

  it('pg_dump never carries the password on its command line', () => {
    const { args, env } = pgDumpCommand(
      'postgres://manna:s3cr%40t@db:5432/manna?sslmode=require',
      '/b/x.dump',
    );
    expect(args.join(' ')).not.toContain('s3cr');
    expect(args).toContain('--dbname=postgres://manna@db:5432/manna?sslmode=require');
    expect(env).toEqual({ PGPASSWORD: 's3cr@t' });
  });

  // on SQLite there is no such wait: listed as skipped, not as passed
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'a PostgreSQL backup waiting on a locked table leaves the server answering (needs TEST_DATABASE_URL)',
    async () => {
      const url = (app.config.database as { url: string }).url;
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await sql`select 1`.execute(app.db); // the schema's tables exist (migrated)
        await holder.query('begin');
        await holder.query('lock table job_application in access exclusive mode');
        let finished = false;
        const backup = takeBackup(app.config, path.join(work, 'pg')).finally(() => {
          finished = true;
        });
        // while the dump waits for the lock, the server answers (a blocked event loop would hold
        // these answers until the lock goes, and the lock goes only after them)
        for (let i = 0; i < 5; i++) {
          const res = await app.inject({ url: '/api/health' });
          expect(res.statusCode).toBe(200);
        }
        await holder.query('rollback');
        const result = await backup;
        expect(finished).toBe(true);
        expect(
          result.manifest.database.file === null || result.manifest.database.file === 'database.dump',
        ).toBe(true);
      } finally {
        await holder.end();
      }
    },
  );

  it('the daily task: one backup a day however many processes ask, the newest BACKUP_KEEP kept, a failure recorded', async () => {
    const dir = path.join(work, 'daily');
    const config = { ...app.config, BACKUP_DIR: dir, BACKUP_KEEP: 2 };
    const start = new Date('2026-06-01T03:00:00Z');
    const at = (days: number, hours = 0) => new Date(start.getTime() + days * DAY + hours * 3_600_000);
    expect(await runBackupTask(app.db, config, { now: at(0), holder: 'a' })).not.toBeNull();
    expect(await runBackupTask(app.db, config, { now: at(0, 1), holder: 'b' })).toBeNull();
    expect(await runBackupTask(app.db, config, { now: at(0, 5), holder: 'a' })).toBeNull();
    for (const day of [1, 2, 3])
      expect(await runBackupTask(app.db, config, { now: at(day), holder: 'b' })).not.toBeNull();
    const kept = await listBackups(dir);
    expect(kept.map((b) => b.name)).toEqual([
      'manna-backup-2026-06-04T03-00-00Z',
      'manna-backup-2026-06-03T03-00-00Z',
    ]);
    expect((await taskState(app.db, BACKUP_TASK))?.last_result).toMatch(
      /^manna-backup-2026-06-04T03-00-00Z: \d+ files/,
    );

    // a backup folder that cannot be made: the run fails, says so, and the next check tries again
    const blocked = path.join(work, 'a-file');
    fs.writeFileSync(blocked, '');
    const failing = { ...config, BACKUP_DIR: path.join(blocked, 'backups') };
    expect(await runBackupTask(app.db, failing, { now: at(4), holder: 'a' })).toBeNull();
    expect((await taskState(app.db, BACKUP_TASK))?.last_result).toMatch(/^failed: /);
    expect(await runBackupTask(app.db, config, { now: at(4, 1), holder: 'a' })).not.toBeNull();
    // without BACKUP_DIR there is no task at all
    expect(await runBackupTask(app.db, { ...config, BACKUP_DIR: undefined }, { now: at(9) })).toBeNull();
  });
});

describe('GET /api/admin/backup-status', () => {
  let app: FastifyInstance;
  let work: string;
  afterEach(async () => {
    await app.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('says when backups are not set up, the newest one with its size, and when it is older than two days', async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-backup-status-'));
    const dir = path.join(work, 'backups');
    app = await createTestApp({ BACKUP_DIR: dir });
    const reader = await signInAs(app, { permissions: ['audit.read'] });
    const status = async () =>
      (await app.inject({ url: '/api/admin/backup-status', headers: reader.headers })).json();
    const noMail = { configured: false, pending: 0, sent_today: 0, failed: 0, last_error: null };
    expect(await status()).toEqual({ configured: true, last: null, stale: true, mail: noMail });

    const old = await takeBackup(app.config, dir, new Date(Date.now() - 3 * DAY));
    expect(await status()).toEqual({
      configured: true,
      last: { at: old.manifest.createdAt, bytes: old.bytes, files: old.files },
      stale: true,
      mail: noMail,
    });
    const fresh = await takeBackup(app.config, dir, new Date(Date.now() - 3_600_000));
    expect(await status()).toMatchObject({ last: { at: fresh.manifest.createdAt }, stale: false });

    // only for those who may read the activity log
    const editor = await signInAs(app, { role: 'editor' });
    expect((await app.inject({ url: '/api/admin/backup-status', headers: editor.headers })).statusCode).toBe(
      403,
    );
    await app.close();
    app = await createTestApp();
    const other = await signInAs(app, { permissions: ['audit.read'] });
    expect((await app.inject({ url: '/api/admin/backup-status', headers: other.headers })).json()).toEqual({
      configured: false,
      last: null,
      stale: true,
      mail: noMail,
    });
  });
});
