#!/usr/bin/env node
// Crash: applications with CVs are sent while the server is killed with SIGKILL at random moments
// and restarted. Afterwards every application that got a 2xx is in the database with its file,
// no file is left without its row (after the start-up sweep), and SQLite's integrity check is ok.
//
//   node bench/faults/crash.mjs                         # full size: 1000 applications, 10 kills
//   node bench/faults/crash.mjs --applications 150 --kills 4
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  apply,
  firstOpenJobId,
  freePort,
  reporter,
  sleep,
  startServer,
  storedFiles,
  tempDir,
} from './lib.mjs';

export async function crashCheck({ applications = 1000, kills = 10, concurrency = 8 } = {}) {
  const r = reporter(`Crash: ${applications} applications, SIGKILL ${kills} times, ${concurrency} at a time`);
  r.title();
  const dataDir = tempDir('crash');
  const port = await freePort();
  const env = { ORPHAN_MIN_AGE_SECONDS: '600' };
  let server = await startServer({ port, dataDir, env });
  const jobId = await firstOpenJobId(server.base);
  const ok = new Set();
  const answers = { ok: 0, refused: 0, other: 0 };
  let next = 0;
  let killsDone = 0;
  let restarting = null;

  // Kill at random moments spread over the run (at random points of its progress), restarting
  // each time; the requests in flight then get no answer, or their answer is lost.
  const at = Array.from({ length: kills }, () =>
    Math.floor(applications * (0.05 + Math.random() * 0.9)),
  ).sort((a, b) => a - b);
  const killer = (async () => {
    for (const point of at) {
      while (next < point) await sleep(5);
      await sleep(Math.random() * 30); // land inside a request, not between them
      killsDone++;
      server.child.kill('SIGKILL');
      await server.exited;
      restarting = startServer({ port, dataDir, env });
      server = await restarting;
      restarting = null;
    }
  })();

  const worker = async () => {
    while (next < applications) {
      const i = next++;
      if (restarting) await restarting.catch(() => undefined);
      const email = `crash.${i}@example.com`;
      const res = await apply(`http://127.0.0.1:${port}`, jobId, email);
      if (res.status >= 200 && res.status < 300) {
        ok.add(email);
        answers.ok++;
      } else if (res.status === 0) answers.refused++;
      else answers.other++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await killer;
  await server.stop('SIGTERM');

  const filesBefore = storedFiles(dataDir);
  // a last start with the sweep at age 0, as one process alone may do
  server = await startServer({ port, dataDir, env: { ORPHAN_MIN_AGE_SECONDS: '0' } });
  const swept = (server.output().match(/Removed stored files that no row references/g) ?? []).length;
  await server.stop('SIGTERM');

  const db = new Database(path.join(dataDir, 'manna.sqlite'), { readonly: true });
  const rows = db.prepare('select email, resume from job_application').all();
  const referenced = new Set(
    db
      .prepare('select file_key from stored_file')
      .all()
      .map((f) => f.file_key),
  );
  const integrity = db.pragma('integrity_check', { simple: true });
  db.close();
  const byEmail = new Map(rows.map((row) => [row.email, row.resume]));
  const files = new Set(storedFiles(dataDir));
  const missing = [...ok].filter((email) => !byEmail.has(email));
  const withoutFile = rows.filter((row) => !files.has(row.resume));
  const orphans = [...files].filter((key) => !referenced.has(key));

  r.figure(
    `answers: ${answers.ok} accepted (2xx), ${answers.refused} without an answer (server down), ${answers.other} other; kills: ${killsDone}`,
  );
  r.figure(
    `rows: ${rows.length}; files before the final sweep: ${filesBefore.length}, after: ${files.size} (orphans removed at start: ${filesBefore.length - files.size}${swept ? '' : ', none logged'})`,
  );
  r.check(
    'every 2xx application is in the database',
    missing.length === 0,
    `${ok.size} accepted, ${missing.length} missing`,
  );
  r.check('every row has its file', withoutFile.length === 0, `${withoutFile.length} rows without a file`);
  r.check('no stored file without its row', orphans.length === 0, `${orphans.length} orphans`);
  r.check('PRAGMA integrity_check', integrity === 'ok', String(integrity));
  r.check('the server was really killed', killsDone > 0, `${killsDone} kills`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return r.results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, d) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : d;
  };
  const results = await crashCheck({
    applications: arg('applications', 1000),
    kills: arg('kills', 10),
    concurrency: arg('concurrency', 8),
  });
  process.exit(results.every((x) => x.ok) ? 0 : 1);
}
