#!/usr/bin/env node
// Job applications at scale: fills a throw-away database with 10,000 applications and
// prints
//   1. the server-side time of GET /api/bind-job-applications for the first page, a later page, a
//      selective and a common keyword, a date range, all filters together and one application by
//      id: app.inject (routing, permission check, validation, the queries, serialisation; no
//      network), median and 95th percentile of repeated requests after a warm-up. Target: < 20 ms.
//   2. the CSV export of every row over a real HTTP connection: rows, bytes, time, and the server
//      process's memory while it streams (heap and RSS sampled every 5 ms, above the level before
//      the request). Bounded memory: the growth stays far below the size of the CSV, and about the
//      same with 5 times as many rows (`--applications 50000`).
//
//   node --expose-gc bench/applications-query.mjs                     # SQLite, 10,000 applications
//   node --expose-gc bench/applications-query.mjs --applications 50000
//   node --expose-gc bench/applications-query.mjs --postgres postgres://postgres@127.0.0.1:5432/test
//
// On PostgreSQL the rows go into a new schema that is dropped afterwards.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { register } from 'tsx/esm/api';

register();

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const APPLICATIONS = Number(arg('applications', '10000'));
const RUNS = Number(arg('runs', '60'));
const postgresUrl = arg('postgres', undefined);

const { buildApp } = await import('../server/app.ts');
const { loadConfig } = await import('../server/config.ts');
const { migrateToLatest } = await import('../server/db/migrate.ts');
const pg = (await import('pg')).default;
const { sql } = await import('kysely');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-bench-applications-'));
let databaseUrl;
let dropSchema = async () => {};
if (postgresUrl) {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(postgresUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  databaseUrl = url.toString();
  dropSchema = async () => {
    const c = new pg.Client({ connectionString: postgresUrl });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
  };
}

const config = loadConfig({
  NODE_ENV: 'test', // no retention schedule in the bench
  DATA_DIR: dataDir,
  DIST_DIR: path.join(dataDir, 'no-build'),
  SECRET: 'bench-secret-that-is-at-least-32-characters',
  SEED_DEMO: 'false',
  LOG_LEVEL: 'silent',
  DATABASE_URL: databaseUrl,
});
const app = await buildApp(config, { logger: false });

const FIRST = ['Asha', 'Ravi', 'Meera', 'Joseph', 'Lakshmi', 'Arjun', 'Fatima', 'Thomas', 'Priya', 'Kiran', 'Anjali', 'Vikram', 'Sara', 'Nikhil', 'Divya', 'Rahul'];
const LAST = ['Menon', 'Kumar', 'Nair', 'Thomas', 'Pillai', 'Iyer', 'Khan', 'George', 'Varma', 'Das', 'Rao', 'Joseph', 'Shah', 'Reddy'];
const TITLES = ['Copy Editor', 'Managing Editor', 'Peer Review Coordinator', 'Production Editor', 'Platform Engineer', 'Data Analyst', 'Indexer', 'Proofreader', 'Sales Executive', 'Support Specialist'];
const STATUSES = ['New', 'Reviewed', 'Interview', 'Offer', 'Rejected', 'Hired'];
const START = Date.UTC(2025, 0, 1);
const SPAN_MS = 365 * 86_400_000;

async function fill() {
  await migrateToLatest(app.db);
  const started = performance.now();
  const now = new Date().toISOString();
  const type = await app.db.insertInto('job_type').values({ job_type_name: 'Full-time', created_at: now }).returning('job_type_id').executeTakeFirstOrThrow();
  const jobIds = [];
  for (const title of TITLES) {
    const row = await app.db
      .insertInto('job_opening')
      .values({
        job_title: title, department: 'Editorial', location: 'Kochi, India', job_type_id: type.job_type_id,
        description: '<p>d</p>', requirement: '<p>r</p>', about_role: '<p>a</p>', responsibility: '<p>s</p>',
        search_text: '', created_at: now, updated_at: now,
      })
      .returning('job_id')
      .executeTakeFirstOrThrow();
    jobIds.push(row.job_id);
  }
  const batch = 500;
  for (let i = 0; i < APPLICATIONS; i += batch) {
    const n = Math.min(batch, APPLICATIONS - i);
    const files = [];
    const apps = [];
    for (let k = 0; k < n; k++) {
      const j = i + k;
      const key = `cv/${randomUUID()}.pdf`;
      const at = new Date(START + Math.floor((j / APPLICATIONS) * SPAN_MS)).toISOString();
      const first = FIRST[j % FIRST.length];
      const last = LAST[Math.floor(j / FIRST.length) % LAST.length];
      files.push({ file_key: key, kind: 'cv', content_type: 'application/pdf', byte_size: 1000, original_name: 'cv.pdf', created_at: at });
      apps.push({
        job_id: jobIds[j % jobIds.length],
        // one applicant in 5,000 has a rare surname (the selective search)
        full_name: j % 5000 === 1234 ? `${first} Zacharias` : `${first} ${last}`,
        email: `${first}.${last}.${j}@example.com`.toLowerCase(),
        contact_number: String(9000000000 + j),
        address: `${j} MG Road, Kochi`,
        resume: key,
        status: STATUSES[j % STATUSES.length],
        is_duplicate: j % 17 === 0 ? 1 : 0,
        consent_at: at,
        created_at: at,
      });
    }
    await app.db.transaction().execute(async (trx) => {
      await trx.insertInto('stored_file').values(files).execute();
      await trx.insertInto('job_application').values(apps).execute();
    });
  }
  await (app.dialect === 'postgres' ? sql`vacuum analyze job_application` : sql`analyze`).execute(app.db);
  console.log(`filled ${APPLICATIONS.toLocaleString('en')} applications in ${((performance.now() - started) / 1000).toFixed(1)} s (${app.dialect})`);
}

async function time(label, url, headers) {
  const once = async () => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const res = await app.inject({ url, headers });
    const ms = performance.now() - t;
    const used = process.cpuUsage(cpu);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return { ms, cpu: (used.user + used.system) / 1000, rows: res.json() };
  };
  for (let i = 0; i < 5; i++) await once(); // warm-up: statement caches, page cache
  const times = [];
  const cpus = [];
  let rows = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await once();
    times.push(r.ms);
    cpus.push(r.cpu);
    rows = r.rows;
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
  const r = { label, median: med(times), p95: p95(times), cpu: med(cpus), cpu95: p95(cpus) };
  console.log(
    `${label.padEnd(42)} wall median ${r.median.toFixed(2).padStart(6)} ms  p95 ${r.p95.toFixed(2).padStart(6)} ms | ` +
      `CPU median ${r.cpu.toFixed(2).padStart(5)} ms  p95 ${r.cpu95.toFixed(2).padStart(5)} ms | ` +
      `rows ${String(rows.length).padStart(2)}  total_count ${rows[0]?.total_count ?? '-'}`,
  );
  return r;
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Downloads the CSV with curl in another process (so the download does not share this event loop)
 * and samples this process's memory meanwhile.
 */
async function exportCsv(port, cookie, { collect }) {
  globalThis.gc?.();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  // with --expose-gc each sample collects first, so it reads what is still held (not garbage)
  const sampler = setInterval(() => {
    if (collect) globalThis.gc?.();
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }, 20);
  const cpu = process.cpuUsage();
  const out = path.join(dataDir, 'export.csv');
  const result = await new Promise((resolve, reject) => {
    execFile(
      'curl',
      ['-sS', '-o', out, '-H', `cookie: ${cookie}`, '-w', '%{http_code} %{size_download} %{time_starttransfer} %{time_total}', `http://127.0.0.1:${port}/api/admin/job-applications/export.csv`],
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    );
  });
  clearInterval(sampler);
  const used = process.cpuUsage(cpu);
  const [status, bytes, firstByte, total] = result.trim().split(' ');
  if (status !== '200') throw new Error(`export: ${status}`);
  const text = fs.readFileSync(out, 'utf8');
  const rows = text.split('\r\n').filter(Boolean).length - 1;
  fs.rmSync(out);
  return {
    bytes: Number(bytes),
    rows,
    ms: Number(total) * 1000,
    firstByteMs: Number(firstByte) * 1000,
    cpuMs: (used.user + used.system) / 1000,
    heapGrowth: peakHeap - before.heapUsed,
    rssGrowth: peakRss - before.rss,
  };
}

try {
  await fill();
  const { createRole, createUser, insertSession } = await import('../server/db/auth.repo.ts');
  const { hashSessionId, sessionCookie } = await import('../server/plugins/auth.ts');
  const roleId = await createRole(app.db, 'bench-recruiter', ['applications.read']);
  const userId = await createUser(app.db, { email: 'bench@example.org', passwordHash: 'x', roleId, mustChangePassword: false });
  const sid = randomBytes(32).toString('base64url');
  await insertSession(app.db, hashSessionId(sid), userId);
  const cookie = sessionCookie(app, sid);
  const headers = { cookie };
  const someId = Math.floor(APPLICATIONS / 2);

  const L = '/api/bind-job-applications';
  console.log(`\nGET ${L} (page size 20), ${RUNS} runs each after 5 warm-up runs:`);
  const results = [
    await time('first page, no filter', `${L}?search=&applicationid=0&pagenum=1&pagesize=20&startdate=&enddate=`, headers),
    await time('page 100', `${L}?pagenum=100&pagesize=20`, headers),
    await time('selective keyword "zacharias"', `${L}?search=zacharias`, headers),
    await time('keyword "asha menon"', `${L}?search=asha%20menon`, headers),
    await time('common keyword "example" (every email)', `${L}?search=example`, headers),
    await time('job title "copy editor"', `${L}?search=copy%20editor`, headers),
    await time('one month (startdate..enddate)', `${L}?startdate=2025-06-01&enddate=2025-06-30`, headers),
    await time('keyword + month + status', `${L}?search=nair&startdate=2025-03-01&enddate=2025-09-30&status=Interview`, headers),
    await time('one application (applicationid)', `${L}?applicationid=${someId}`, headers),
  ];
  const worst = (key) => Math.max(...results.map((r) => r[key])).toFixed(2);
  console.log(
    `\ntarget < 20 ms at the server for a filtered page: wall ${results.every((r) => r.median < 20) ? 'met' : 'NOT met'} ` +
      `(worst median ${worst('median')} ms, worst p95 ${worst('p95')} ms), CPU ${results.every((r) => r.cpu < 20) ? 'met' : 'NOT met'} ` +
      `(worst median ${worst('cpu')} ms, worst p95 ${worst('cpu95')} ms); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );

  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = app.server.address().port;
  console.log(`\nGET /api/admin/job-applications/export.csv (every row, over HTTP):`);
  await exportCsv(port, cookie, { collect: false }); // warm-up
  const e = await exportCsv(port, cookie, { collect: false });
  console.log(
    `rows ${e.rows.toLocaleString('en')}   ${mb(e.bytes)}   first byte ${e.firstByteMs.toFixed(0)} ms   total ${e.ms.toFixed(0)} ms   ` +
      `(${Math.round(e.rows / (e.ms / 1000)).toLocaleString('en')} rows/s)   server CPU ${e.cpuMs.toFixed(0)} ms`,
  );
  if (globalThis.gc) {
    // again, collecting before every sample, so the figure is what the export holds, not garbage
    const m = await exportCsv(port, cookie, { collect: true });
    console.log(
      `memory held while streaming (sampled every 20 ms after a collection): heap +${mb(m.heapGrowth)}, ` +
        `RSS +${mb(m.rssGrowth)} at peak (the CSV is ${mb(m.bytes)}; rows are read 500 at a time)`,
    );
  } else {
    console.log('memory: run with node --expose-gc to measure what the export holds');
  }
} finally {
  await app.close();
  await dropSchema();
  if (args.includes('--keep')) console.log(`kept ${dataDir}`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
}
