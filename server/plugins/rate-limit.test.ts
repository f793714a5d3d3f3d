import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../testing';

describe('public rate limit', () => {
  let app: FastifyInstance;
  afterEach(() => app.close());

  async function appWithRoute(env = {}) {
    app = await createTestApp(env);
    app.post('/limited', { config: { rateLimit: app.publicRateLimit } }, async () => ({ ok: true }));
    return app;
  }

  it('allows 30 posts a minute per client by default and answers the 31st with 429', async () => {
    await appWithRoute();
    for (let i = 0; i < 30; i++) {
      expect(
        (await app.inject({ method: 'POST', url: '/limited', remoteAddress: '203.0.113.7' })).statusCode,
      ).toBe(200);
    }
    const limited = await app.inject({ method: 'POST', url: '/limited', remoteAddress: '203.0.113.7' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Too many requests/);
    // Another client is not affected.
    expect(
      (await app.inject({ method: 'POST', url: '/limited', remoteAddress: '203.0.113.8' })).statusCode,
    ).toBe(200);
  });

  it('follows RATE_LIMIT_PUBLIC_PER_MIN', async () => {
    await appWithRoute({ RATE_LIMIT_PUBLIC_PER_MIN: '2' });
    await app.inject({ method: 'POST', url: '/limited' });
    await app.inject({ method: 'POST', url: '/limited' });
    expect((await app.inject({ method: 'POST', url: '/limited' })).statusCode).toBe(429);
  });
});
