// @vitest-environment node
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from './http-error';
import { createTestApp } from './testing';

let app: FastifyInstance;
afterEach(() => app?.close());

describe('GET /api/health', () => {
  it('answers ok after a real database query', async () => {
    app = await createTestApp();
    const res = await app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 when the database is unavailable', async () => {
    app = await createTestApp();
    await app.db.destroy();
    const res = await app.inject('/api/health');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 'error',
      database: 'unavailable',
      message: 'The database is not answering',
    });
  });
});

describe('errors', () => {
  it('answers an unknown /api address with a JSON 404, for every method', async () => {
    app = await createTestApp();
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await app.inject({ method, url: '/api/no-such-call?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'Not found' });
    }
  });

  it('sets nosniff, a CSP and the other security headers on API answers', async () => {
    app = await createTestApp();
    const res = await app.inject('/api/health');
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      // JSON is never a document: it may load nothing and be framed by nobody
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
    // the document-only headers stay on pages (plugins/web.test.ts)
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect((await app.inject('/api/nothing')).headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends HSTS when the public address is https', async () => {
    app = await createTestApp({ PUBLIC_URL: 'https://manna.example' });
    expect((await app.inject('/api/health')).headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('answers 503 JSON for pages while the web app is not built, and keeps the API working', async () => {
    app = await createTestApp();
    const page = await app.inject('/about');
    expect(page.statusCode).toBe(503);
    expect(page.json()).toEqual({ message: 'The web app is not built; run npm run build' });
    expect((await app.inject('/api/health')).statusCode).toBe(200);
  });

  describe('with test routes', () => {
    const withRoutes = async () => {
      app = await createTestApp();
      app.post(
        '/api/test/echo',
        {
          schema: {
            body: z.object({
              email: z.email(),
              age: z.number().int(),
              address: z.object({ city: z.string() }),
            }),
          },
        },
        async (req) => req.body,
      );
      app.get('/api/test/conflict', async () => {
        throw new HttpError(409, 'That email is taken', { email: 'Already used' });
      });
      app.get('/api/test/crash', async () => {
        throw new Error('secret internals');
      });
    };

    it('answers a body that fails validation with 400 and a message per field', async () => {
      await withRoutes();
      const res = await app.inject({
        method: 'POST',
        url: '/api/test/echo',
        payload: { email: 'nope', age: 'old', address: {} },
      });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.message).toBe('Invalid request');
      expect(Object.keys(body.errors).sort()).toEqual(['address.city', 'age', 'email']);
      expect(typeof body.errors.email).toBe('string');
    });

    it('answers malformed JSON with 400 and an oversized body with 413, never 500', async () => {
      await withRoutes();
      const bad = await app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toHaveProperty('message');
      const big = await app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'x'.repeat(1024 * 1024) }),
      });
      expect(big.statusCode).toBe(413);
      const type = await app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: { 'content-type': 'application/x-unknown' },
        payload: 'x',
      });
      expect(type.statusCode).toBe(415);
    });

    it('sends an HttpError as its status, message and field errors', async () => {
      await withRoutes();
      const res = await app.inject('/api/test/conflict');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: 'That email is taken', errors: { email: 'Already used' } });
    });

    it('hides an unexpected error behind a 500 "Internal error"', async () => {
      await withRoutes();
      const res = await app.inject('/api/test/crash');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Internal error' });
    });
  });

  it('exposes the database dialect and the settings to routes', async () => {
    app = await createTestApp();
    expect(app.dialect).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');
    expect(app.config.PUBLIC_URL).toBe('http://localhost:8080');
  });
});
