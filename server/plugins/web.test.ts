// @vitest-environment node
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing';
import { preferredEncoding } from '../lib/encoding';

const LANGUAGES = ['en', 'ml', 'fr', 'de', 'es'];
const HASH = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';
const APP_JS = 'console.log("hello from a hashed asset");\n'.repeat(50);

let dist: string;
let app: FastifyInstance;

/** A tiny build, shaped like the output of `npm run build`. */
beforeAll(() => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-dist-'));
  const write = (file: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    fs.writeFileSync(path.join(dist, file), content);
  };
  write('client/assets/app-3f2a1b.js', APP_JS);
  write('client/assets/app-3f2a1b.js.br', zlib.brotliCompressSync(APP_JS));
  write('client/assets/app-3f2a1b.js.gz', zlib.gzipSync(APP_JS));
  write('client/sw.js', 'self.addEventListener("install", () => {});');
  write('client/icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write('client/about.html', '<p>precache copy</p>');
  write('client/.vite/manifest.json', '{"src/main.tsx":{"file":"assets/app-3f2a1b.js"}}');
  write(
    'pages/manifest.json',
    JSON.stringify({
      routes: { '/': 'index', '/about': 'about', '/ComingSoon': 'ComingSoon' },
      languages: LANGUAGES,
      notFound: '404',
      shell: 'shell.html',
      cspHashes: [HASH],
      connectSrc: ['https://api.example.com'],
    }),
  );
  for (const lang of LANGUAGES) {
    for (const name of ['index', 'about', 'ComingSoon', '404']) {
      write(
        `pages/${lang}/${name}.html`,
        `<!doctype html><html lang="${lang}"><title>${name} ${lang}</title><link rel="canonical" href="%PUBLIC_URL%/${name}">${'<p>filler</p>'.repeat(100)}</html>`,
      );
    }
  }
  write('pages/shell.html', '<!doctype html><html><title>admin shell</title></html>');
});
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
afterEach(() => app?.close());

const built = () => createTestApp({ DIST_DIR: dist, PUBLIC_URL: 'https://manna.example/' });

describe('pages', () => {
  it('sends the page of the address in the language of the address (docs/decisions/041-language-addresses.md)', async () => {
    app = await built();
    const res = await app.inject({ url: '/ml/about' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>about ml</title>');
    expect(res.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-language': 'ml',
      'cache-control': 'no-cache',
      vary: 'Accept-Encoding',
    });
    expect((await app.inject('/ml')).body).toContain('<title>index ml</title>');
    expect((await app.inject('/ml/about/?ref=x')).body).toContain('<title>about ml</title>');
  });

  it("never the cookie's: an unprefixed address is English; an unknown language is no address", async () => {
    app = await built();
    expect((await app.inject('/about')).body).toContain('<title>about en</title>');
    const res = await app.inject({ url: '/about', headers: { cookie: 'lang=ml' } });
    expect(res.body).toContain('<title>about en</title>');
    expect(res.headers['content-language']).toBe('en');
    expect((await app.inject('/xx/about')).statusCode).toBe(404);
    // English has no prefix
    const en = await app.inject('/en/about?ref=x');
    expect(en.statusCode).toBe(301);
    expect(en.headers.location).toBe('/about?ref=x');
    // the API, the back office and files never carry a language
    expect((await app.inject('/ml/api/health')).statusCode).toBe(404);
    expect((await app.inject('/ml/assets/app-3f2a1b.js')).statusCode).toBe(404);
  });

  it('sends / to the home of the language a visitor chose, else of the browser, and says it varies', async () => {
    app = await built();
    const chosen = await app.inject({ url: '/', headers: { cookie: 'lang=de', 'accept-language': 'fr' } });
    expect(chosen.statusCode).toBe(302);
    expect(chosen.headers.location).toBe('/de');
    expect(chosen.headers.vary).toBe('Cookie, Accept-Language, Accept-Encoding');
    const browser = await app.inject({
      url: '/',
      headers: { 'accept-language': 'xx-YY, es-ES;q=0.9, en;q=0.8' },
    });
    expect(browser.headers.location).toBe('/es');
    // English chosen, or asked first, or nothing asked (a crawler): the English home
    for (const headers of [
      { cookie: 'lang=en', 'accept-language': 'de' },
      { 'accept-language': 'en-GB, de;q=0.9' },
      {},
    ]) {
      const home = await app.inject({ url: '/', headers });
      expect(home.statusCode).toBe(200);
      expect(home.body).toContain('<title>index en</title>');
      expect(home.headers.vary).toBe('Cookie, Accept-Language, Accept-Encoding');
    }
    // a language's own address is never sent elsewhere
    const german = await app.inject({ url: '/ml', headers: { cookie: 'lang=de' } });
    expect(german.statusCode).toBe(200);
    expect(german.body).toContain('<title>index ml</title>');
  });

  it('matches the home page, trailing slashes and other letter cases', async () => {
    app = await built();
    expect((await app.inject('/')).body).toContain('<title>index en</title>');
    expect((await app.inject('/about/')).body).toContain('<title>about en</title>');
    expect((await app.inject('/comingsoon?ref=x')).body).toContain('<title>ComingSoon en</title>');
  });

  it('puts the public address in place of %PUBLIC_URL%', async () => {
    app = await built();
    expect((await app.inject('/about')).body).toContain(
      '<link rel="canonical" href="https://manna.example/about">',
    );
  });

  it('answers an unknown address with the 404 page and status 404', async () => {
    app = await built();
    const res = await app.inject({ url: '/fr/no/such/page' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<title>404 fr</title>');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-language']).toBe('fr');
  });

  it('sends the client-rendered shell for /admin and every address under it', async () => {
    app = await built();
    for (const url of ['/admin', '/admin/', '/admin/jobs/12']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('admin shell');
    }
  });

  it('keeps JSON 404s for unknown /api addresses', async () => {
    app = await built();
    const res = await app.inject('/api/unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it('never serves the precache copies of pages from client/ directly', async () => {
    app = await built();
    const res = await app.inject('/about.html');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('precache copy');
  });

  it('compresses pages with brotli or gzip as the browser accepts', async () => {
    app = await built();
    const plain = (await app.inject('/about')).body;
    const br = await app.inject({ url: '/about', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(plain));
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gz = await app.inject({ url: '/about', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain);
  });

  it('answers a repeat visit with 304 when the page is unchanged', async () => {
    app = await built();
    const first = await app.inject('/about');
    const again = await app.inject({
      url: '/about',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers HEAD like GET without a body', async () => {
    app = await built();
    const res = await app.inject({ method: 'HEAD', url: '/about' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  it('sends a CSP with the build hashes, its API origins and frame-ancestors none', async () => {
    app = await built();
    const csp = String((await app.inject('/about')).headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' '${HASH}'`);
    expect(csp).toContain("connect-src 'self' https://api.example.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-inline'; script");
    // the same policy on files and feeds; API answers get the JSON policy (plugins/security.ts)
    expect((await app.inject('/feed.xml')).headers['content-security-policy']).toBe(csp);
    expect((await app.inject('/api/health')).headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });
});

describe('app.pages for other routes', () => {
  it('sends a page or the 404 page from a route of a later issue', async () => {
    app = await built();
    app.get('/blog/:slug', (request, reply) =>
      request.params && (request.params as { slug: string }).slug === 'known'
        ? app.pages.send(reply, 'about', app.pages.languageOf(request))
        : app.pages.notFound(request, reply),
    );
    const known = await app.inject({ url: '/de/blog/known' });
    expect(known.statusCode).toBe(200);
    expect(known.body).toContain('<title>about de</title>');
    const missing = await app.inject({ url: '/es/blog/missing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<title>404 es</title>');
  });

  it('refuses to build on a broken manifest, naming the file', async () => {
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-dist-'));
    fs.mkdirSync(path.join(broken, 'pages'));
    fs.writeFileSync(
      path.join(broken, 'pages', 'manifest.json'),
      JSON.stringify({ routes: { about: 'about' } }),
    );
    await expect(createTestApp({ DIST_DIR: broken })).rejects.toThrow(
      /pages\/manifest\.json is not a valid pages manifest/,
    );
    fs.rmSync(broken, { recursive: true, force: true });
  });
});

describe('static files', () => {
  it('sends a hashed asset precompressed with brotli and cached for a year', async () => {
    app = await built();
    const res = await app.inject({
      url: '/assets/app-3f2a1b.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(APP_JS);
  });

  it('sends gzip or the plain file to browsers without brotli', async () => {
    app = await built();
    const gz = await app.inject({ url: '/assets/app-3f2a1b.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({
      url: '/assets/app-3f2a1b.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(APP_JS);
  });

  it('revalidates files that are not content-hashed', async () => {
    app = await built();
    for (const url of ['/sw.js', '/icon.svg']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('lists no directories and serves no compressed twins directly', async () => {
    app = await built();
    for (const url of [
      '/assets',
      '/assets/',
      '/assets/app-3f2a1b.js.br',
      // the build's own bookkeeping (and any dotfile) is not the site's
      '/.vite/manifest.json',
      '/%2Evite/manifest.json',
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('<title>404 en</title>');
    }
  });
});

describe('preferredEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0, identity', 'identity'],
    [undefined, 'identity'],
  ])('chooses %s -> %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});
