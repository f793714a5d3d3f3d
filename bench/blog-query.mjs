#!/usr/bin/env node
// Blog list at scale: fills a throw-away database with 100,000 posts (90% published) and prints
// the server-side time of GET /api/bind-company-blog for the first page, a later page, a
// selective full-text search, a common-word search, and the admin list with drafts. The time is
// measured around app.inject (routing, validation, the queries, serialisation; no network), median
// and 95th percentile of repeated requests after a warm-up. Target: < 20 ms for the
// first page and a selective search.
//
//   node bench/blog-query.mjs                      # SQLite, 100,000 posts
//   node bench/blog-query.mjs --posts 20000        # fewer posts
//   node bench/blog-query.mjs --postgres postgres://postgres@127.0.0.1:5432/test
//
// On PostgreSQL the posts go into a new schema that is dropped afterwards.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { throwAwayApp } from './lib/app.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const POSTS = Number(arg('posts', '100000'));
const RUNS = Number(arg('runs', '60'));
const postgresUrl = arg('postgres', undefined);

const { migrateToLatest } = await import('../server/db/migrate.ts');
const { sql } = await import('kysely');

const { app, close } = await throwAwayApp({ postgresUrl, prefix: 'bench-blog' });

// Vocabulary: common words appear everywhere; each "rare" word appears in about 1 post in 20,000.
const COMMON = ['archive', 'letter', 'draft', 'history', 'research', 'writing', 'source', 'record', 'chapter', 'editor'];
const RARE = ['palimpsest', 'marginalia', 'incunabula', 'colophon', 'vellum'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function postAt(i) {
  const day = new Date(Date.UTC(2010, 0, 1) + (i % 5000) * 86400000);
  const words = Array.from({ length: 60 }, (_, k) => COMMON[(i * 7 + k * 3) % COMMON.length]);
  if (i % 20000 === 1234) words.push(RARE[Math.floor(i / 20000) % RARE.length]);
  const text = words.join(' ');
  const at = new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString();
  return {
    company_id: 2,
    title: `Post ${i}: ${COMMON[i % COMMON.length]} and ${COMMON[(i + 3) % COMMON.length]}`,
    slug: `post-${i}`,
    excerpt: `An excerpt about ${COMMON[(i + 5) % COMMON.length]} number ${i}.`,
    content: `<p>${text}</p>`,
    search_text: text,
    publication_date: `${MONTHS[day.getUTCMonth()]} ${day.getUTCDate()}, ${day.getUTCFullYear()}`,
    publication_day: day.toISOString().slice(0, 10),
    read_time: `${1 + (i % 12)} min read`,
    featured_image_url: `https://images.example.org/${i}.png`,
    status: i % 10 === 0 ? 'Draft' : 'Published',
    created_at: at,
    updated_at: at,
  };
}

async function fill() {
  await migrateToLatest(app.db);
  const started = performance.now();
  const batch = 400;
  for (let i = 0; i < POSTS; i += batch) {
    const rows = Array.from({ length: Math.min(batch, POSTS - i) }, (_, k) => postAt(i + k));
    await app.db.transaction().execute((trx) => trx.insertInto('blog_post').values(rows).execute());
  }
  // fresh statistics and visibility map, as autovacuum would have them on a live database
  await (app.dialect === 'postgres' ? sql`vacuum analyze blog_post` : sql`analyze`).execute(app.db);
  console.log(`filled ${POSTS.toLocaleString('en')} posts in ${((performance.now() - started) / 1000).toFixed(1)} s (${app.dialect})`);
}

async function time(label, url, headers = {}) {
  const once = async () => {
    const t = performance.now();
    const res = await app.inject({ url, headers });
    const ms = performance.now() - t;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return { ms, rows: res.json() };
  };
  for (let i = 0; i < 5; i++) await once(); // warm-up: statement caches, page cache
  const times = [];
  let rows = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await once();
    times.push(r.ms);
    rows = r.rows;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const p95 = times[Math.floor(times.length * 0.95)];
  console.log(
    `${label.padEnd(44)} median ${median.toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms   ` +
      `rows ${String(rows.length).padStart(3)}   total_count ${rows[0]?.total_count ?? '-'}`,
  );
  return { label, median, p95 };
}

try {
  await fill();
  // a signed-in editor for the admin list
  const { createRole, createUser, insertSession } = await import('../server/db/auth.repo.ts');
  const { hashSessionId, sessionCookie } = await import('../server/plugins/auth.ts');
  const roleId = await createRole(app.db, 'bench-editor', ['blog.manage']);
  const userId = await createUser(app.db, { email: 'bench@example.org', passwordHash: 'x', roleId, mustChangePassword: false });
  const sid = randomBytes(32).toString('base64url');
  await insertSession(app.db, hashSessionId(sid), userId);
  const cookie = sessionCookie(app, sid);

  console.log(`\nGET /api/bind-company-blog, ${RUNS} runs each after 5 warm-up runs:`);
  const results = [
    await time('first page (10 newest published)', '/api/bind-company-blog?page_number=1&page_size=10'),
    await time('page 50', '/api/bind-company-blog?page_number=50&page_size=10'),
    await time('selective search "palimpsest"', '/api/bind-company-blog?search=palimpsest'),
    await time('selective search "marginalia"', '/api/bind-company-blog?search=marginalia'),
    await time('common-word search "archive" (most posts)', '/api/bind-company-blog?search=archive'),
    await time('admin list, drafts included, first page', '/api/admin/blog-posts?page_number=1', { cookie }),
  ];
  const target = results.filter((r) => r.label.startsWith('first page') || r.label.startsWith('selective'));
  console.log(
    `\ntarget < 20 ms (first page, selective search): ${target.every((r) => r.median < 20) ? 'met' : 'NOT met'} ` +
      `(worst median ${Math.max(...target.map((r) => r.median)).toFixed(2)} ms)`,
  );
} finally {
  await close();
}
