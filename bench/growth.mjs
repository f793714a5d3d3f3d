#!/usr/bin/env node
// Growth: the same calls with 1,000 and with 1,000,000 blog posts and job applications, and the
// ratio between the two. Target: the unfiltered first page and a search for a selective
// term grow less than 2x over 1000x data. Time measured around app.inject (routing, validation, the
// queries, serialisation; no network; the public read cache off), median of repeated requests after
// a warm-up. Figures, not assertions.
//
//   node bench/growth.mjs                                   # SQLite, 1,000 and 1,000,000
//   node bench/growth.mjs --sizes 1000,100000
//   node bench/growth.mjs --postgres postgres://postgres@127.0.0.1:5432/test
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { throwAwayApp } from './lib/app.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const SIZES = arg('sizes', '1000,1000000').split(',').map(Number);
const RUNS = Number(arg('runs', '40'));
const postgresUrl = arg('postgres', undefined);

const { migrateToLatest } = await import('../server/db/migrate.ts');
const { createRole, createUser, insertSession } = await import('../server/db/auth.repo.ts');
const { hashSessionId, sessionCookie } = await import('../server/plugins/auth.ts');
const { sql } = await import('kysely');

const COMMON = ['archive', 'letter', 'draft', 'history', 'research', 'writing', 'source', 'record', 'chapter', 'editor'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const FIRST = ['Asha', 'Ravi', 'Meera', 'Joseph', 'Lakshmi', 'Arjun', 'Fatima', 'Thomas', 'Priya', 'Kiran'];
const LAST = ['Menon', 'Kumar', 'Nair', 'Pillai', 'Iyer', 'Khan', 'George', 'Varma', 'Das', 'Rao'];
/** Rows with the selective term: the same 3 at every size (a search must find something). */
const RARE_EVERY = (size) => Math.floor(size / 3);

async function freshApp() {
  const fresh = await throwAwayApp({ postgresUrl, prefix: 'growth', env: { PUBLIC_READ_CACHE_MS: '0' } });
  await migrateToLatest(fresh.app.db);
  return fresh;
}

async function fill(app, size) {
  const started = performance.now();
  const rareEvery = RARE_EVERY(size);
  const batch = 500;
  for (let i = 0; i < size; i += batch) {
    const rows = [];
    for (let j = i; j < Math.min(size, i + batch); j++) {
      const day = new Date(Date.UTC(2010, 0, 1) + (j % 5000) * 86400000);
      const words = Array.from({ length: 40 }, (_, k) => COMMON[(j * 7 + k * 3) % COMMON.length]);
      if (j % rareEvery === 7) words.push('palimpsest');
      const text = words.join(' ');
      const at = new Date(Date.UTC(2024, 0, 1) + j * 1000).toISOString();
      rows.push({
        company_id: 2,
        title: `Post ${j}: ${COMMON[j % COMMON.length]}`,
        slug: `post-${j}`,
        excerpt: `An excerpt about ${COMMON[(j + 5) % COMMON.length]} number ${j}.`,
        content: `<p>${text}</p>`,
        search_text: text,
        publication_date: `${MONTHS[day.getUTCMonth()]} ${day.getUTCDate()}, ${day.getUTCFullYear()}`,
        publication_day: day.toISOString().slice(0, 10),
        read_time: '4 min read',
        featured_image_url: `https://images.example.org/${j}.png`,
        status: j % 10 === 0 ? 'Draft' : 'Published',
        created_at: at,
        updated_at: at,
      });
    }
    await app.db.transaction().execute((trx) => trx.insertInto('blog_post').values(rows).execute());
  }
  const now = new Date().toISOString();
  const type = await app.db.insertInto('job_type').values({ job_type_name: 'Full-time', created_at: now }).returning('job_type_id').executeTakeFirstOrThrow();
  const job = await app.db
    .insertInto('job_opening')
    .values({
      job_title: 'Copy Editor', department: 'Editorial', location: 'Kochi', job_type_id: type.job_type_id,
      description: '<p>d</p>', requirement: '<p>r</p>', about_role: '<p>a</p>', responsibility: '<p>s</p>',
      search_text: '', created_at: now, updated_at: now,
    })
    .returning('job_id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < size; i += batch) {
    const files = [];
    const apps = [];
    for (let j = i; j < Math.min(size, i + batch); j++) {
      const key = `cv/${randomUUID()}.pdf`;
      const at = new Date(Date.UTC(2025, 0, 1) + j * 1000).toISOString();
      const first = FIRST[j % FIRST.length];
      files.push({ file_key: key, kind: 'cv', content_type: 'application/pdf', byte_size: 1000, original_name: 'cv.pdf', created_at: at });
      apps.push({
        job_id: job.job_id,
        full_name: j % rareEvery === 7 ? `${first} Zacharias` : `${first} ${LAST[Math.floor(j / 10) % LAST.length]}`,
        email: `${first}.${j}@example.com`.toLowerCase(),
        contact_number: String(9000000000 + (j % 999999999)),
        address: `${j} MG Road, Kochi`,
        resume: key,
        status: 'New',
        is_duplicate: 0,
        consent_at: at,
        created_at: at,
      });
    }
    await app.db.transaction().execute(async (trx) => {
      await trx.insertInto('stored_file').values(files).execute();
      await trx.insertInto('job_application').values(apps).execute();
    });
  }
  await (app.dialect === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(app.db);
  return (performance.now() - started) / 1000;
}

async function median(app, url, headers = {}) {
  const once = async () => {
    const t = performance.now();
    const res = await app.inject({ url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return { ms: performance.now() - t, rows: res.json().length };
  };
  for (let i = 0; i < 5; i++) await once();
  const times = [];
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await once();
    times.push(r.ms);
    rows = r.rows;
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], rows };
}

const CALLS = [
  ['blog: first page', '/api/bind-company-blog?page_number=1&page_size=10', false],
  ['blog: selective search "palimpsest"', '/api/bind-company-blog?search=palimpsest', false],
  ['applications: first page', '/api/bind-job-applications?search=&applicationid=0&pagenum=1&pagesize=20&startdate=&enddate=', true],
  ['applications: selective search "zacharias"', '/api/bind-job-applications?search=zacharias&pagenum=1&pagesize=20', true],
];

const bySize = {};
for (const size of SIZES) {
  const { app, close } = await freshApp();
  try {
    const seconds = await fill(app, size);
    const roleId = await createRole(app.db, 'bench', ['applications.read', 'blog.manage']);
    const userId = await createUser(app.db, { email: 'bench@example.org', passwordHash: 'x', roleId, mustChangePassword: false });
    const sid = randomBytes(32).toString('base64url');
    await insertSession(app.db, hashSessionId(sid), userId);
    const cookie = sessionCookie(app, sid);
    console.log(`\n${size.toLocaleString('en')} posts and applications (${app.dialect}), filled in ${seconds.toFixed(1)} s`);
    bySize[size] = {};
    for (const [name, url, admin] of CALLS) {
      const r = await median(app, url, admin ? { cookie } : {});
      bySize[size][name] = r.ms;
      console.log(`  ${name.padEnd(44)} median ${r.ms.toFixed(2).padStart(7)} ms   rows ${r.rows}`);
    }
  } finally {
    await close();
  }
}

const [small, large] = [SIZES[0], SIZES[SIZES.length - 1]];
console.log(`\nGrowth from ${small.toLocaleString('en')} to ${large.toLocaleString('en')} (target: < 2x), ${os.availableParallelism()} cores:`);
for (const [name] of CALLS) {
  const ratio = bySize[large][name] / bySize[small][name];
  console.log(`  ${name.padEnd(44)} ${bySize[small][name].toFixed(2).padStart(7)} ms -> ${bySize[large][name].toFixed(2).padStart(7)} ms   x${ratio.toFixed(2)}   ${ratio < 2 ? 'meets' : 'MISSES'}`);
}
