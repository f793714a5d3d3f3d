import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameOrigin, signInAs } from '../lib/auth-testing';
import { createTestApp, injectStart } from '../testing';

/**
 * Every response of every route carries the security headers (plugins/security.ts): the API
 * routes are read from the route table (so a new one is swept by itself), called signed out and
 * signed in as an owner, with no body and with a broken one; plus pages, files, feeds, unknown
 * addresses and a 413 and a 429.
 */
let app: FastifyInstance;
let owner: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '2' });
  owner = (await signInAs(app, { role: 'owner' })).headers;
});
afterAll(() => app?.close());

/** Pages, files and feeds get the page policy; API answers (JSON) one that lets nothing load or frame them. */
function expectSecurityHeaders(res: LightMyRequestResponse, what: string, url: string) {
  const csp = String(res.headers['content-security-policy'] ?? '');
  expect(csp, `${what}: CSP`).toMatch(/frame-ancestors 'none'/);
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  if (url.startsWith('/api/')) {
    expect(csp, `${what}: CSP`).toBe("default-src 'none'; frame-ancestors 'none'");
    return;
  }
  expect(csp, `${what}: CSP`).toMatch(/script-src 'self'/);
  expect(csp, `${what}: CSP`).toMatch(/object-src 'none'/);
  expect(res.headers['x-frame-options'], what).toBe('DENY');
}

const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, '1').replace(/\*/g, 'x');

describe('security headers on every response', () => {
  it('every API route, signed out and as an owner, with no body and a broken body', async () => {
    const routes = app.accessTable;
    expect(routes.length).toBeGreaterThan(30);
    const statuses = new Set<number>();
    for (const { method, url } of routes) {
      const attempts: InjectOptions[] = [
        { method: method as InjectOptions['method'], url: concrete(url) },
        { method: method as InjectOptions['method'], url: concrete(url), headers: owner },
      ];
      if (method !== 'GET') {
        attempts.push({
          method: method as InjectOptions['method'],
          url: concrete(url),
          headers: { ...owner, 'content-type': 'application/json' },
          payload: '{"broken":',
        });
      }
      for (const attempt of attempts) {
        const res = await injectStart(app, attempt);
        statuses.add(res.statusCode);
        expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
        expectSecurityHeaders(
          res,
          `${attempt.method} ${attempt.url} -> ${res.statusCode}`,
          String(attempt.url),
        );
      }
    }
    // the sweep met the error answers too, not only successes
    for (const status of [200, 400, 401, 404])
      expect(statuses.has(status), `status ${status} seen`).toBe(true);
  });

  it('pages, files, feeds, unknown addresses, a body too large and a rate-limited answer', async () => {
    const origin = sameOrigin(app);
    const requests: InjectOptions[] = [
      { url: '/' },
      { url: '/about' },
      { url: '/admin/books' },
      { url: '/no-such-page' },
      { url: '/api/no-such-endpoint' },
      { url: '/sitemap.xml' },
      { url: '/robots.txt' },
      { url: '/blog/rss.xml' },
      { url: '/media/blog/00000000-0000-4000-8000-000000000000.png' },
      { url: '/media/private/cv/00000000-0000-4000-8000-000000000000.pdf?expires=1&sig=x' },
      { url: '/api/health' },
      {
        method: 'POST',
        url: '/api/contact-messages',
        headers: { 'content-type': 'application/json', origin },
        payload: 'x'.repeat(1024 * 1024 + 10),
      },
    ];
    for (const r of requests) {
      const res = await app.inject(r);
      expectSecurityHeaders(res, `${r.method ?? 'GET'} ${r.url} -> ${res.statusCode}`, String(r.url));
    }
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/contact-messages',
        payload: { name: 'A', email: 'a@example.com', message: 'Hello there, a message.' },
      });
      statuses.push(res.statusCode);
      expectSecurityHeaders(res, `contact #${i + 1} -> ${res.statusCode}`, '/api/contact-messages');
    }
    expect(statuses).toContain(429);
  });
});
