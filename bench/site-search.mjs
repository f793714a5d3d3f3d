#!/usr/bin/env node
// The site search at scale (docs/decisions/039-site-search.md): fills a throw-away database with
// 10,000 published posts of about 300 words (and 1,000 drafts that must never be found), lets the
// server index them at start as it would after an upgrade, and prints the server-side time of
// GET /api/search for a rare word, a word every post has, two words, a word's first letters as
// typed, and a search with no result, median and 95th percentile after a warm-up, measured around
// app.inject (routing, validation, the queries, the snippets, serialisation; no network).
// Target: p95 < 50 ms for every search.
//
//   node bench/site-search.mjs                       # SQLite, 10,000 posts
//   node bench/site-search.mjs --posts 50000
//   node bench/site-search.mjs --postgres postgres://postgres@127.0.0.1:5432/test
//
// On PostgreSQL the posts go into a new schema that is dropped afterwards.
import { performance } from 'node:perf_hooks';
import { throwAwayApp, timeRuns } from './lib/app.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const POSTS = Number(arg('posts', '10000'));
const RUNS = Number(arg('runs', '60'));

const { migrateToLatest } = await import('../server/db/migrate.ts');
const { sql } = await import('kysely');
const { app, close } = await throwAwayApp({
  postgresUrl: arg('postgres', undefined),
  prefix: 'bench-search',
  env: { RATE_LIMIT_PUBLIC_PER_MIN: '1000000' },
});

// Vocabulary: common words in every post; each rare word in about 1 post in 2,000.
const COMMON = [
  'manuscript',
  'journal',
  'review',
  'editor',
  'author',
  'submission',
  'workflow',
  'publisher',
  'typesetting',
  'archive',
  'research',
  'letter',
];
const FILLER = ['the', 'of', 'and', 'a', 'to', 'in', 'for', 'with', 'each', 'their'];
const RARE = ['palimpsest', 'marginalia', 'incunabula', 'colophon', 'vellum'];

function postAt(i) {
  const words = Array.from({ length: 300 }, (_, k) =>
    k % 3 === 0 ? FILLER[(i + k) % FILLER.length] : COMMON[(i * 7 + k * 5) % COMMON.length],
  );
  if (i % 2000 === 123) words.splice(150, 0, RARE[Math.floor(i / 2000) % RARE.length]);
  const text = words.join(' ');
  const at = new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString();
  const day = at.slice(0, 10);
  return {
    company_id: 2,
    title: `Post ${i}: ${COMMON[i % COMMON.length]} and ${COMMON[(i + 3) % COMMON.length]}`,
    slug: `post-${i}`,
    excerpt: `An excerpt about ${COMMON[(i + 5) % COMMON.length]} number ${i}.`,
    content: `<p>${text}</p>`,
    search_text: text,
    publication_date: day,
    publication_day: day,
    read_time: `${1 + (i % 12)} min read`,
    featured_image_url: `https://images.example.org/${i}.png`,
    status: i % 11 === 10 ? 'Draft' : 'Published',
    created_at: at,
    updated_at: at,
  };
}

async function fill() {
  await migrateToLatest(app.db);
  const total = Math.round(POSTS * 1.1);
  const batch = 200;
  for (let i = 0; i < total; i += batch) {
    const rows = Array.from({ length: Math.min(batch, total - i) }, (_, k) => postAt(i + k));
    await app.db.transaction().execute((trx) => trx.insertInto('blog_post').values(rows).execute());
  }
  const published = await app.db
    .selectFrom('blog_post')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'Published')
    .executeTakeFirstOrThrow();
  console.log(
    `filled ${Number(published.n).toLocaleString('en')} published posts and ${(total - Number(published.n)).toLocaleString('en')} drafts (${app.dialect})`,
  );
}

async function time(label, q) {
  const url = `/api/search?q=${encodeURIComponent(q)}&lang=en`;
  const { median, p95, last } = await timeRuns(
    async () => {
      const res = await app.inject({ url });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.json();
    },
    { runs: RUNS },
  );
  const posts = last.groups.find((g) => g.kind === 'post');
  console.log(
    `${label.padEnd(40)} median ${median.toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms   ` +
      `matches ${String(posts?.matches ?? 0).padStart(6)}   shown ${posts?.results.length ?? 0}`,
  );
  return { label, median, p95 };
}

try {
  await fill();
  const started = performance.now();
  await app.ready();
  await app.siteSearch.started();
  const indexed = await app.db
    .selectFrom('site_search')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  console.log(
    `indexed ${Number(indexed.n).toLocaleString('en')} documents at start in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await (app.dialect === 'postgres' ? sql`vacuum analyze site_search` : sql`analyze`).execute(app.db);

  console.log(`\nGET /api/search, ${RUNS} runs each after 5 warm-up runs:`);
  const results = [
    await time('rare word "palimpsest"', 'palimpsest'),
    await time('word in every post "manuscript"', 'manuscript'),
    await time('two words "journal workflow"', 'journal workflow'),
    await time('first letters as typed "typese"', 'typese'),
    await time('no result "zeppelin"', 'zeppelin'),
  ];
  const worst = Math.max(...results.map((r) => r.p95));
  console.log(`\ntarget p95 < 50 ms: ${worst < 50 ? 'met' : 'NOT met'} (worst p95 ${worst.toFixed(2)} ms)`);
} finally {
  await close();
}
