import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../testing';

// Runs when TEST_REDIS_URL is set (CI's second run, .ci/run); skipped otherwise.
const REDIS = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS)('public rate limit shared through Redis (needs TEST_REDIS_URL)', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  async function process(env: Record<string, string>) {
    const app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '3', ...env });
    app.post('/limited', { config: { rateLimit: app.publicRateLimit } }, async () => ({ ok: true }));
    apps.push(app);
    return app;
  }
  const post = (app: FastifyInstance, ip = '203.0.113.9') =>
    app.inject({ method: 'POST', url: '/limited', remoteAddress: ip }).then((r) => r.statusCode);

  it('two processes on one Redis count against the same limit, per client', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}:`;
    const a = await process({ REDIS_URL: REDIS!, REDIS_KEY_PREFIX: prefix });
    const b = await process({ REDIS_URL: REDIS!, REDIS_KEY_PREFIX: prefix });
    expect([await post(a), await post(b), await post(a)]).toEqual([200, 200, 200]);
    expect(await post(b)).toBe(429);
    expect(await post(a)).toBe(429);
    expect(await post(b, '203.0.113.10')).toBe(200);
  });

  it('without a shared Redis each process counts alone (the difference Redis makes)', async () => {
    const a = await process({});
    const b = await process({});
    for (let i = 0; i < 3; i++) expect(await post(a)).toBe(200);
    expect(await post(b)).toBe(200);
  });

  it('when Redis cannot be reached, requests are served (not counted) and nothing fails', async () => {
    // a port with nothing listening
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const a = await process({ REDIS_URL: `redis://127.0.0.1:${port}` });
    for (let i = 0; i < 5; i++) expect(await post(a)).toBe(200);
  });
});
