import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteSearchAnswer } from '../../contract/site-search';
import { multipart } from '../../tests/fixtures/multipart';
import { createPost } from '../db/blog.repo';
import { ensureJobType } from '../db/jobs.repo';
import { signInAs } from '../lib/auth-testing';
import { syncRecords } from '../services/site-search';
import { createTestApp } from '../testing';

/**
 * The site search (docs/decisions/039-site-search.md) against the real database: SQLite, and
 * PostgreSQL with TEST_DATABASE_URL. Pages come from a small build of three pages in three
 * languages; posts and openings are changed through the admin API, as staff change them.
 */

const page = (title: string, main: string) =>
  `<!doctype html><html><head><title>${title} | Manna</title></head><body><header>Menu Pricing</header>` +
  `<main id="main"><h1>${title}</h1>${main}<script>var hidden = "scriptword";</script></main>` +
  `<footer>Footer words</footer></body></html>`;

const PAGES: Record<string, Record<string, string>> = {
  en: {
    index: page(
      'Manuscript automation for journals',
      '<p>Peer review, JATS and typesetting in one place.</p>',
    ),
    pricing: page('Pricing', '<p>Plans for every journal. Publications grow with you.</p>'),
    offline: page('Offline', '<p>You are offline.</p>'),
  },
  de: {
    index: page('Manuskriptautomatisierung für Zeitschriften', '<p>Begutachtung und Satz an einem Ort.</p>'),
    pricing: page('Preise', '<p>Tarife für jede Zeitschrift. Die Preise wachsen mit Ihnen.</p>'),
    offline: page('Offline', '<p>Sie sind offline.</p>'),
  },
  ml: {
    index: page(
      'ജേണലുകൾക്കുള്ള കൈയെഴുത്തുപ്രതി ഓട്ടോമേഷൻ',
      '<p>പിയർ റിവ്യൂവും പ്രസിദ്ധീകരണവും ഒരിടത്ത്. കൈയെഴുത്തുപ്രതികൾ വേഗത്തിൽ.</p>',
    ),
    pricing: page('വിലനിർണ്ണയം', '<p>എല്ലാ ജേണലുകൾക്കും പ്ലാനുകൾ.</p>'),
    offline: page('ഓഫ്‌ലൈൻ', '<p>നിങ്ങൾ ഓഫ്‌ലൈനാണ്.</p>'),
  },
};

let app: FastifyInstance;
let dist: string;
let editor: Record<string, string>;
let recruiter: Record<string, string>;

const search = async (q: string, lang = 'en') => {
  const res = await app.inject({ url: '/api/search', query: { q, lang } });
  expect(res.statusCode, res.body).toBe(200);
  return SiteSearchAnswer.parse(res.json());
};
const titles = (answer: SiteSearchAnswer, kind?: string) =>
  answer.groups.filter((g) => !kind || g.kind === kind).flatMap((g) => g.results.map((r) => r.title));

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'manna-search-dist-'));
  for (const [lang, pages] of Object.entries(PAGES))
    for (const [name, html] of Object.entries(pages)) {
      await fs.mkdir(path.join(dist, 'pages', lang), { recursive: true });
      await fs.writeFile(path.join(dist, 'pages', lang, `${name}.html`), html);
    }
  await fs.writeFile(
    path.join(dist, 'pages', 'manifest.json'),
    JSON.stringify({
      routes: { '/': 'index', '/pricing': 'pricing', '/offline': 'offline' },
      languages: ['en', 'de', 'ml'],
      notFound: '404',
      shell: 'shell.html',
      noindex: ['/offline'],
    }),
  );
  app = await createTestApp(
    { DIST_DIR: dist, RATE_LIMIT_PUBLIC_PER_MIN: '10000', LOG_LEVEL: 'error' },
    { write: (line: string) => void process.stderr.write(line) },
  );
  await app.ready();
  await app.siteSearch.started();
  ({ headers: editor } = await signInAs(app, { role: 'editor' }));
  ({ headers: recruiter } = await signInAs(app, { role: 'recruiter' }));
});
afterAll(async () => {
  await app.close();
  await fs.rm(dist, { recursive: true, force: true });
});

const savePost = async (fields: Record<string, string>, version?: number) => {
  const { body, contentType } = multipart(Object.entries(fields).map(([name, value]) => ({ name, value })));
  const res = await app.inject({
    method: 'POST',
    url: '/api/manage-company-blog',
    headers: { ...editor, 'content-type': contentType, ...(version && { 'if-match': `"${version}"` }) },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  await app.events.settled();
  return res.json().row as { blog_id: number; version: number; slug: string };
};
const POST = {
  company_id: '2',
  blog_id: '0',
  excerpt: 'How a small society journal moved its peer review online.',
  content: '<p>The editors of the <strong>Ornithology Letters</strong> replaced email with a workflow.</p>',
  publication_date: 'August 6, 2025',
  read_time: '5 min read',
  featured_image_url: 'https://images.example.org/birds.png',
  cover_alt: 'A heron',
  tags: 'Case study, Societies',
};

describe('GET /api/search: pages', () => {
  it("finds a page by the words of its <main> and its title, in the asked language, with the site's name left off", async () => {
    const answer = await search('typesetting');
    expect(answer.groups).toHaveLength(1);
    expect(answer.groups[0]).toMatchObject({ kind: 'page', matches: 1 });
    expect(answer.groups[0]!.results[0]).toMatchObject({
      title: 'Manuscript automation for journals',
      url: '/',
      lang: 'en',
    });
    const snippet = answer.groups[0]!.results[0]!.snippet;
    expect(snippet.filter((p) => p.hit).map((p) => p.text.toLowerCase())).toEqual(['typesetting']);
    expect(snippet.map((p) => p.text).join('')).toContain('JATS and typesetting in one place');
  });

  it('never finds the header, footer, scripts or a page that asks not to be indexed', async () => {
    for (const q of ['footer', 'scriptword', 'offline']) expect((await search(q)).groups).toEqual([]);
  });

  it("stems each language's words where the database has a stemmer, and matches a word's beginning as it is typed", async () => {
    expect(titles(await search('publication'))).toEqual(['Pricing']); // "Publications"
    expect(titles(await search('typese'))).toEqual(['Manuscript automation for journals']);
    expect(titles(await search('preise', 'de'))).toEqual(['Preise']);
  });

  it('weights the title above the text', async () => {
    // "Zeitschrift..." is in one page's title and in the other's text
    const answer = await search('zeitschrift', 'de');
    expect(titles(answer)).toEqual(['Manuskriptautomatisierung für Zeitschriften', 'Preise']);
  });

  it('says which other languages have results', async () => {
    const answer = await search('offline manuskript', 'en');
    expect(answer.groups).toEqual([]);
    const journals = await search('pricing', 'de');
    expect(journals.groups).toEqual([]);
    expect(journals.elsewhere).toEqual([{ lang: 'en', matches: 1 }]);
  });

  it('keeps a Malayalam word whole, its vowel signs inside it', async () => {
    // കൈയെഴുത്തുപ്രതി "manuscript": the whole word, and its beginning as typed
    for (const q of ['കൈയെഴുത്തുപ്രതി', 'കൈയെഴു']) {
      const answer = await search(q, 'ml');
      expect(titles(answer)).toEqual(['ജേണലുകൾക്കുള്ള കൈയെഴുത്തുപ്രതി ഓട്ടോമേഷൻ']);
    }
    // a piece from inside the word is not a word of the page
    expect((await search('എഴുത്തുപ്രതി', 'ml')).groups).toEqual([]);
    const snippet = (await search('പ്രസിദ്ധീകരണവും', 'ml')).groups[0]!.results[0]!.snippet;
    expect(snippet.filter((p) => p.hit).map((p) => p.text)).toEqual(['പ്രസിദ്ധീകരണവും']);
  });
});

describe('GET /api/search: posts', () => {
  it('finds a published post by its title, text, tags and author; never a draft; an unpublished one is gone at once', async () => {
    const draft = await savePost({ ...POST, mode: '1', title: 'Herons and peer review', status: 'Draft' });
    expect((await search('ornithology')).groups).toEqual([]);
    const published = await savePost(
      { mode: '2', blog_id: String(draft.blog_id), status: 'Published' },
      draft.version,
    );
    for (const q of ['herons', 'ornithology letters', 'societies', 'society journal']) {
      const posts = (await search(q)).groups.find((g) => g.kind === 'post');
      expect(
        posts?.results.map((r) => [r.title, r.url]),
        q,
      ).toEqual([['Herons and peer review', `/blog/${published.slug}`]]);
    }
    await savePost({ mode: '2', blog_id: String(draft.blog_id), status: 'Draft' }, published.version);
    expect((await search('ornithology')).groups).toEqual([]);
  });

  it('catches up at start with a post published while nobody listened', async () => {
    await createPost(app.db, {
      title: 'Written straight into the database',
      excerpt: 'Kingfishers.',
      content: '<p>Kingfishers dive.</p>',
      publication_date: 'August 7, 2025',
      publication_day: '2025-08-07',
      read_time: '1 min read',
      featured_image_url: 'https://images.example.org/k.png',
      status: 'Published',
    });
    expect((await search('kingfishers')).groups).toEqual([]);
    expect(await syncRecords(app.services())).toBeGreaterThanOrEqual(1);
    expect(titles(await search('kingfishers'), 'post')).toEqual(['Written straight into the database']);
    expect(await syncRecords(app.services())).toBe(0); // in step: nothing more to do
  });
});

describe('GET /api/search: openings', () => {
  it('finds an open opening by its title, department, location and texts; never a draft or a closed one', async () => {
    const jobTypeId = (await ensureJobType(app.db, 'Full-time')).job_type_id;
    const created = await app.inject({
      method: 'POST',
      url: '/api/manage-job-openings',
      headers: recruiter,
      payload: {
        mode: 1,
        job_id: 0,
        job_title: 'Production Editor (C#)',
        department: 'Typesetting',
        location: "Abidjan, Côte d'Ivoire",
        job_type_id: jobTypeId,
        work_type: 'onsite',
        country: 'CI',
        locality: 'Abidjan',
        description: '<p>Prepare XML for archival.</p>',
        requirement: '<ul><li>LaTeX and proof checking</li></ul>',
        about_role: '<p>Work with our editors.</p>',
        responsibility: '<ul><li>Check proofs</li></ul>',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const row = created.json().row as { job_id: number; version: number };
    await app.events.settled();
    expect((await search('latex')).groups).toEqual([]); // a draft
    const setStatus = async (status: string, version: number) => {
      const res = await app.inject({
        method: 'PATCH',
        url: `/api/admin/job-openings/${row.job_id}`,
        headers: { ...recruiter, 'if-match': `"${version}"` },
        payload: { status },
      });
      expect(res.statusCode, res.body).toBe(200);
      await app.events.settled();
      return res.json().row.version as number;
    };
    const open = await setStatus('Open', row.version);
    for (const q of ['latex', 'production editor', 'côte', 'cote ivoire', 'abidjan', 'proofs']) {
      const openings = (await search(q)).groups.find((g) => g.kind === 'opening');
      expect(
        openings?.results.map((r) => r.title),
        q,
      ).toEqual(['Production Editor (C#)']);
      expect(openings?.results[0]!.url).toMatch(new RegExp(`^/careers/${row.job_id}-`));
    }
    await setStatus('Closed', open);
    expect((await search('latex')).groups).toEqual([]);
  });
});

describe('GET /api/search: hostile input', () => {
  it('reads query syntax and SQL as words, and answers an empty search with nothing', async () => {
    for (const q of [
      '"',
      '*',
      'NEAR(pricing',
      'pricing OR',
      "'; drop table site_search; --",
      'title:pricing',
      '\u0000pricing',
      '\uE000pricing\uE001',
      '(((',
      '',
      '   ',
    ]) {
      const answer = await search(q);
      for (const group of answer.groups) for (const r of group.results) expect(r.title).toBe('Pricing');
    }
    expect(titles(await search("'; drop table site_search; -- pricing"))).toEqual([]); // every word must match
    expect(titles(await search('pricing'))).toEqual(['Pricing']); // the table is still there
  });

  it('refuses a search longer than 200 characters and an unknown language', async () => {
    expect((await app.inject({ url: '/api/search', query: { q: 'a'.repeat(201) } })).statusCode).toBe(400);
    expect((await app.inject({ url: '/api/search', query: { q: 'a', lang: 'xx' } })).statusCode).toBe(400);
    expect((await app.inject({ url: '/api/search', query: { q: 'word '.repeat(40) } })).statusCode).toBe(200);
  });
});
