import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteSearchAnswer } from '../../contract/site-search';
import { createPost } from '../db/blog.repo';
import { fakeBuild } from '../lib/fake-build.testing';
import { syncRecords } from '../services/site-search';
import { createTestApp } from '../testing';

/**
 * /search?q= rendered on the server with its answer (routes/search-page.ts,
 * docs/decisions/040-site-search-screens.md), with the stand-in build, on SQLite and, with
 * TEST_DATABASE_URL, PostgreSQL; the real page is in tests/e2e/site-search.spec.ts.
 */

let dist: string;
let app: FastifyInstance;

const pageData = (html: string) => {
  const json = /id="page-data">(.*?)<\/script>/s.exec(html)?.[1];
  return json ? SiteSearchAnswer.parse((JSON.parse(json) as { siteSearch: unknown }).siteSearch) : null;
};

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'manna-fake-dist-'));
  await fakeBuild(dist);
  app = await createTestApp({ DIST_DIR: dist, LOG_LEVEL: 'error', RATE_LIMIT_PAGE_RENDERS_PER_MIN: '10000' });
  await createPost(app.db, {
    title: 'Kingfishers & <b>herons</b>',
    excerpt: 'Birds by the river.',
    content: '<p>Kingfishers dive for fish.</p>',
    publication_date: 'August 7, 2025',
    publication_day: '2025-08-07',
    read_time: '1 min read',
    featured_image_url: 'https://images.example.org/k.png',
    status: 'Published',
    slug: 'kingfishers',
  });
  await syncRecords(app.services());
});
afterAll(async () => {
  await app.close();
  await fs.rm(dist, { recursive: true, force: true });
});

describe('/search in the first HTML', () => {
  it('carries the answer of the words asked, escaped, never indexed, and revalidates by ETag', async () => {
    const res = await app.inject('/search?q=kingfish');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    const answer = pageData(res.body)!;
    expect(answer.q).toBe('kingfish');
    expect(answer.lang).toBe('en');
    expect(answer.groups.map((g) => g.kind)).toEqual(['post']);
    expect(answer.groups[0]!.results[0]!.url).toBe('/blog/kingfishers');
    // the title as text: its markup is not the page's
    expect(res.body).toContain('Kingfishers &#38; &#60;b&#62;herons&#60;/b&#62;');
    expect(res.body).not.toContain('<b>herons</b>');
    const again = await app.inject({
      url: '/search?q=kingfish',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('is the prerendered page without words, and the same answer as the API in the language asked', async () => {
    const empty = await app.inject('/search?q=%20%20');
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['x-robots-tag']).toBe('noindex');
    expect(pageData(empty.body)).toBeNull();
    expect(empty.body).toContain('<title>Search</title>');

    const page = pageData((await app.inject({ url: '/search?q=kingfishers&lang=ml' })).body)!;
    const api = (await app.inject({ url: '/api/search', query: { q: 'kingfishers', lang: 'ml' } })).json();
    expect(page).toEqual(api);
    expect(page.lang).toBe('ml');
    expect(page.elsewhere).toEqual([{ lang: 'en', matches: 1 }]);
    // a language the site does not have: the page's own
    expect(pageData((await app.inject('/search?q=kingfishers&lang=xx')).body)!.lang).toBe('en');
  });

  it('answers hostile words with a page, not an error: query syntax, SQL, markup and a very long text', async () => {
    for (const q of [
      '"NEAR(a b)" OR *',
      "'; DROP TABLE site_search; --",
      '<script>alert(1)</script>',
      'kingfish'.repeat(500),
    ]) {
      const res = await app.inject({ url: '/search', query: { q } });
      expect(res.statusCode, q.slice(0, 40)).toBe(200);
      expect(res.body).not.toContain('<script>alert(1)</script>');
      const answer = pageData(res.body)!;
      // the text is cut as the search box cuts it
      expect(answer.q.length).toBeLessThanOrEqual(200);
    }
    // the index is still there
    expect(pageData((await app.inject('/search?q=kingfish')).body)!.groups).toHaveLength(1);
  });
});
