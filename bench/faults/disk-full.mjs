#!/usr/bin/env node
// Disk full during an upload: the file store (DATA_DIR/files) is a small tmpfs that fills up.
// Uploads that do not fit get 503 with a message (never 500), no row is left without its file, and
// the server keeps serving (and stores CVs again once there is room).
//
//   node bench/faults/disk-full.mjs                  # needs root (mount -t tmpfs); skipped otherwise
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { apply, firstOpenJobId, freePort, reporter, startServer, storedFiles, tempDir } from './lib.mjs';

export async function diskFullCheck({ sizeKb = 400, cvKb = 64, attempts = 12 } = {}) {
  const r = reporter(`Disk full: uploads into a ${sizeKb} KB file store, ${cvKb} KB CVs`);
  r.title();
  const dataDir = tempDir('disk');
  const files = path.join(dataDir, 'files');
  fs.mkdirSync(files, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', files], { stdio: 'pipe' });
  } catch (err) {
    // A check that cannot run has checked nothing: it fails, saying why, instead of passing.
    r.check(
      'the check can run (it mounts a small tmpfs, which needs root)',
      false,
      `cannot mount a tmpfs here (${String(err.message).split('\n')[0]}); run as root`,
    );
    fs.rmSync(dataDir, { recursive: true, force: true });
    return r.results;
  }
  let server;
  try {
    server = await startServer({ port: await freePort(), dataDir });
    const jobId = await firstOpenJobId(server.base);
    const answers = [];
    for (let i = 0; i < attempts; i++)
      answers.push(await apply(server.base, jobId, `disk.${i}@example.com`, { bytes: cvKb * 1024 }));
    const accepted = answers.filter((a) => a.status >= 200 && a.status < 300);
    const full = answers.filter((a) => a.status === 503);
    const other = answers.filter((a) => !(a.status >= 200 && a.status < 300) && a.status !== 503);
    const message = full[0] ? JSON.parse(full[0].body).message : '';
    r.figure(
      `${answers.length} uploads: ${accepted.length} stored, ${full.length} answered 503, ${other.length} other (${other.map((a) => a.status).join(' ')})`,
    );
    r.check(
      'the disk filled up and uploads got 503 with a message',
      full.length > 0 && /cannot store files/i.test(message),
      message,
    );
    r.check('never a 500 or another error', other.length === 0);
    const health = await fetch(`${server.base}/api/health`);
    r.check(
      'the server keeps serving',
      health.status === 200 &&
        (await fetch(`${server.base}/api/bind-job-openings?jobid=0&search=&pagenum=1&pagesize=20`)).status ===
          200,
    );

    // room again (the store grows): the next CV is stored, no restart needed
    execFileSync('mount', ['-o', `remount,size=${sizeKb * 4}k`, files], { stdio: 'pipe' });
    const again = await apply(server.base, jobId, 'disk.again@example.com', { bytes: cvKb * 1024 });
    r.check('with room again, a CV is stored without a restart', again.status === 201, String(again.status));
    await server.stop('SIGTERM');
    server = undefined;

    const db = new Database(path.join(dataDir, 'manna.sqlite'), { readonly: true });
    const rows = db.prepare('select resume from job_application').all();
    db.close();
    const present = new Set(storedFiles(dataDir));
    const withoutFile = rows.filter((row) => !present.has(row.resume));
    r.check(
      'no row without its file',
      withoutFile.length === 0,
      `${rows.length} rows, ${withoutFile.length} without a file`,
    );
    r.check('a 2xx for every row', rows.length === accepted.length + 1, `${rows.length} rows`);
  } finally {
    if (server) await server.stop('SIGKILL');
    try {
      execFileSync('umount', [files], { stdio: 'pipe' });
    } catch {
      // not mounted
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return r.results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await diskFullCheck();
  process.exit(results.every((x) => x.ok) ? 0 : 1);
}
