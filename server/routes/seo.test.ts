import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addSitemapSource, removeSitemapSource, sitemapXml } from '../lib/sitemap';
import { createTestApp } from '../testing';

const ROUTES = {
  '/': 'index',
  '/about': 'about',
  '/contact': 'contact',
  '/privacy-policy': 'privacy-policy',
  '/ComingSoon': 'ComingSoon',
  '/offline': 'offline',
};
/** Pages the build marked noindex: served, but not in the sitemap. */
const NOINDEX = ['/offline'];

let dist: string;
let app: FastifyInstance;

beforeAll(() => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-seo-dist-'));
  fs.mkdirSync(path.join(dist, 'pages', 'en'), { recursive: true });
  fs.writeFileSync(
    path.join(dist, 'pages', 'manifest.json'),
    JSON.stringify({
      routes: ROUTES,
      languages: ['en'],
      notFound: '404',
      shell: 'shell.html',
      noindex: NOINDEX,
    }),
  );
  for (const name of [...Object.values(ROUTES), '404'])
    fs.writeFileSync(path.join(dist, 'pages', 'en', `${name}.html`), '<p>x</p>');
  fs.writeFileSync(path.join(dist, 'pages', 'shell.html'), '<p>shell</p>');
});
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
afterEach(async () => {
  removeSitemapSource('test-posts');
  removeSitemapSource('test-broken');
  await app?.close();
});

const built = () => createTestApp({ DIST_DIR: dist, PUBLIC_URL: 'https://manna.example' });
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

describe('GET /sitemap.xml', () => {
  it("is the index of each language's sitemap", async () => {
    app = await built();
    const res = await app.inject({ url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.body).toMatch(/<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    // the build of this test has one language
    expect(locs(res.body)).toEqual(['https://manna.example/sitemap-en.xml']);
    expect((await app.inject({ url: '/sitemap-de.xml' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/sitemap-xx.xml' })).statusCode).toBe(404);
  });

  it('lists every indexable public route of the build at the public address, home first', async () => {
    app = await built();
    const res = await app.inject({ url: '/sitemap-en.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9" xmlns:xhtml="http:\/\/www.w3.org\/1999\/xhtml">/,
    );
    const listed = locs(res.body);
    expect(listed[0]).toBe('https://manna.example/');
    expect(listed.sort()).toEqual(
      Object.keys(ROUTES)
        .filter((r) => !NOINDEX.includes(r))
        .map((r) => `https://manna.example${r === '/' ? '/' : r}`)
        .sort(),
    );
    expect(res.body).not.toMatch(/admin/);
    expect(res.body).not.toMatch(/offline/);
  });

  it('adds the addresses of registered sources, and leaves out a source that fails', async () => {
    app = await built();
    addSitemapSource('test-posts', async (a) => {
      expect(a.db).toBeDefined();
      return [{ path: '/blog/first-post', lastmod: '2025-08-06' }, { path: '/blog/a & b' }];
    });
    addSitemapSource('test-broken', () => {
      throw new Error('database down');
    });
    const res = await app.inject({ url: '/sitemap-en.xml' });
    expect(res.statusCode).toBe(200);
    expect(locs(res.body)).toContain('https://manna.example/blog/first-post');
    expect(res.body).toContain('<lastmod>2025-08-06</lastmod>');
    expect(locs(res.body)).toContain('https://manna.example/blog/a%20&amp;%20b');
    expect(locs(res.body)).toContain('https://manna.example/about');
  });

  it('answers an empty sitemap without a build', async () => {
    app = await createTestApp();
    const res = await app.inject({ url: '/sitemap-en.xml' });
    expect(res.statusCode).toBe(200);
    expect(locs(res.body)).toEqual([]);
  });
});

describe('sitemapXml', () => {
  it("lists a language's addresses with the same page in every language and English as the default", () => {
    const xml = sitemapXml('https://m.example', [{ path: '/' }, { path: '/pricing' }], 'de', [
      'en',
      'de',
      'ml',
    ]);
    expect(locs(xml)).toEqual(['https://m.example/de', 'https://m.example/de/pricing']);
    const alternates = [
      ...xml.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g),
    ].map((m) => `${m[1]} ${m[2]}`);
    expect(alternates).toEqual([
      'en https://m.example/',
      'de https://m.example/de',
      'ml https://m.example/ml',
      'x-default https://m.example/',
      'en https://m.example/pricing',
      'de https://m.example/de/pricing',
      'ml https://m.example/ml/pricing',
      'x-default https://m.example/pricing',
    ]);
  });

  it('drops duplicates, foreign and protocol-relative addresses and invalid dates', () => {
    const xml = sitemapXml('https://m.example', [
      { path: '/a' },
      { path: '/a' },
      { path: 'https://evil.example/x' },
      { path: '//evil.example/x' },
      { path: '/b', lastmod: 'not a date' },
    ]);
    expect(locs(xml)).toEqual(['https://m.example/a', 'https://m.example/b']);
    expect(xml).not.toContain('lastmod');
  });
});

describe('GET /robots.txt', () => {
  it('allows the site, disallows /admin and points to the sitemap', async () => {
    app = await built();
    const res = await app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const lines = res.body.split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Disallow: /admin');
    expect(lines).toContain('Sitemap: https://manna.example/sitemap.xml');
  });
});

describe('GET /favicon.ico', () => {
  it('sends the browser to the SVG icon, so a PDF tab or an error page gets the icon and no 404', async () => {
    app = await built();
    const res = await app.inject({ url: '/favicon.ico' });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/favicon.svg');
  });
});
