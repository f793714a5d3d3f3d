#!/usr/bin/env node
// Backup and restore: applications with CVs arrive while `npm run backup` runs against the live
// server; the backup is restored into a fresh folder (`npm run restore`) and a server started on
// it. Every application acknowledged before the backup began is there with its file, SQLite's
// integrity check is ok and every checksum matches; a backup with one file changed is refused,
// naming that file. Prints the backup and restore times and sizes.
//
//   node bench/faults/backup-restore.mjs                      # full size: 10,000 applications
//   node bench/faults/backup-restore.mjs --applications 200
//   node bench/faults/backup-restore.mjs --during 0.95     # start the backup when 95% are in
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ROOT, apply, firstOpenJobId, freePort, reporter, startServer, tempDir } from './lib.mjs';

/** Runs one of the package's scripts (backup, restore) as an operator would; never throws. */
function npmScript(script, args, env) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', `server/scripts/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => resolve({ code, out: out.trim(), ms: Date.now() - started }));
  });
}

export async function backupRestoreCheck({ applications = 10_000, concurrency = 8, during = 0.5 } = {}) {
  const r = reporter(
    `Backup and restore: ${applications} applications with CVs, a backup taken while they arrive`,
  );
  r.title();
  const dataDir = tempDir('backup-data');
  const backups = tempDir('backup-out');
  const restoredDir = path.join(tempDir('backup-restored'), 'data');
  const env = { SEED_DEMO: 'true' };
  const server = await startServer({ port: await freePort(), dataDir, env });
  try {
    const jobId = await firstOpenJobId(server.base);
    const acknowledged = []; // [email, time of the 2xx]
    let next = 0;
    const worker = async () => {
      while (next < applications) {
        const email = `backup.${next++}@example.com`;
        const res = await apply(server.base, jobId, email);
        if (res.status >= 200 && res.status < 300) acknowledged.push([email, Date.now()]);
      }
    };
    const workers = Array.from({ length: concurrency }, worker);
    // the backup starts when part of the applications are in, and the rest keep arriving
    while (next < applications * during) await new Promise((resolve) => setTimeout(resolve, 20));
    const backup = await npmScript('backup', ['--out', backups], { DATA_DIR: dataDir });
    const backupEnded = Date.now();
    await Promise.all(workers);
    r.check('npm run backup succeeds while the server takes writes', backup.code === 0, backup.out);
    const dirs = fs.readdirSync(backups).filter((n) => n.startsWith('manna-backup-'));
    r.check(
      'one backup folder, no partial one left',
      dirs.length === 1 && !dirs[0].endsWith('.partial'),
      dirs.join(', '),
    );
    const backupDir = path.join(backups, dirs[0] ?? 'none');
    // the copy itself began at the manifest's time (after the script's start-up)
    const copyStarted = Date.parse(
      JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')).createdAt,
    );
    const duringCopy = acknowledged.filter(([, at]) => at >= copyStarted && at <= backupEnded).length;
    r.figure(`${backup.out}; ${duringCopy} applications were acknowledged while it copied`);
    r.check(
      'applications kept arriving while the backup copied (the check is not of a quiet server)',
      duringCopy > 0,
    );

    const restore = await npmScript('restore', [backupDir], { DATA_DIR: restoredDir });
    r.check(
      'npm run restore into an empty folder succeeds, checksums verified',
      restore.code === 0,
      restore.out,
    );
    r.figure(`restore: ${restore.out} (${(restore.ms / 1000).toFixed(1)} s with start-up)`);

    const db = new Database(path.join(restoredDir, 'manna.sqlite'), { readonly: true });
    let missing = [];
    let withoutFile = [];
    try {
      r.check(
        "the restored database passes SQLite's integrity check",
        db.pragma('integrity_check', { simple: true }) === 'ok',
      );
      const rows = new Map(
        db
          .prepare("SELECT email, resume FROM job_application WHERE email LIKE 'backup.%'")
          .all()
          .map((x) => [x.email, x.resume]),
      );
      const before = acknowledged.filter(([, at]) => at < copyStarted).map(([email]) => email);
      missing = before.filter((email) => !rows.has(email));
      withoutFile = [...rows.values()].filter(
        (key) => !fs.existsSync(path.join(restoredDir, 'files', ...key.split('/'))),
      );
      r.check(
        `every application acknowledged before the backup began is restored (${before.length})`,
        missing.length === 0,
        missing.slice(0, 5).join(', '),
      );
      r.check(
        `every restored application has its CV (${rows.size})`,
        withoutFile.length === 0,
        withoutFile.slice(0, 5).join(', '),
      );
    } finally {
      db.close();
    }

    const again = await startServer({
      port: await freePort(),
      dataDir: restoredDir,
      env: { SEED_DEMO: 'false' },
    });
    const ready = await fetch(`${again.base}/api/ready`);
    r.check(
      'a server starts on the restored folder and is ready',
      ready.status === 200,
      String(ready.status),
    );
    await again.stop();

    // one CV changed in the backup: restore refuses, naming it, and writes nothing
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    const victim = manifest.files.find((f) => f.path.startsWith('files/cv/'));
    fs.appendFileSync(path.join(backupDir, ...victim.path.split('/')), 'x');
    const damagedTarget = path.join(path.dirname(restoredDir), 'damaged');
    const refused = await npmScript('restore', [backupDir], { DATA_DIR: damagedTarget });
    r.check(
      'a backup with one changed file is refused, naming the file',
      refused.code !== 0 && refused.out.includes(victim.path) && !fs.existsSync(damagedTarget),
      refused.out,
    );
  } finally {
    await server.stop();
    for (const dir of [dataDir, backups, path.dirname(restoredDir)])
      fs.rmSync(dir, { recursive: true, force: true });
  }
  return r.results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? Number(process.argv[at + 1]) : undefined;
  };
  const results = await backupRestoreCheck({
    ...(arg('--applications') ? { applications: arg('--applications') } : {}),
    ...(arg('--during') ? { during: arg('--during') } : {}),
  });
  process.exit(results.every((x) => x.ok) ? 0 : 1);
}
