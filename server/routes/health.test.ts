import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

describe('GET /api/ready and /api/health', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  it('is ready when the database answers, every migration has run and the file store answers', async () => {
    app = await createTestApp();
    const res = await app.inject('/api/ready');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', migrations: 'ok', storage: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is not ready (503) while a migration has not run, and says which part is behind', async () => {
    app = await createTestApp();
    const [newest] = await app.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never, 'desc')
      .limit(1)
      .execute();
    await app.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', (newest as { name: string }).name as never)
      .execute();
    const res = await app.inject('/api/ready');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'error', database: 'ok', migrations: 'behind', storage: 'ok' });
    // alive all the same: the process answers and the database too
    expect((await app.inject('/api/health')).statusCode).toBe(200);
  });

  it('is not ready (503) when the file store cannot be written', async () => {
    app = await createTestApp();
    // the local store's folder vanishes (a volume that was unmounted)
    await fs.rm(path.join(app.config.DATA_DIR, 'files'), { recursive: true, force: true });
    const res = await app.inject('/api/ready');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'error', database: 'ok', storage: 'unavailable' });
  });
});

describe('the request log', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  const logged = async (env: Record<string, string> = {}) => {
    const lines: string[] = [];
    app = await createTestApp({ LOG_LEVEL: 'info', ...env }, { write: (line) => void lines.push(line) });
    const entries = () =>
      lines
        .map((l) => JSON.parse(l) as Record<string, unknown> & { msg: string })
        .filter((e) => e.msg === 'request');
    return { lines, entries };
  };

  it('is one line per request: method, route pattern, status, duration, request id and user id; no personal data', async () => {
    const { lines, entries } = await logged();
    const reader = await signInAs(app, { permissions: ['applications.read'] });
    const before = entries().length;
    const res = await app.inject({
      url: '/api/bind-job-applications?search=asha.menon%40example.com&pagenum=1&pagesize=10',
      headers: reader.headers,
    });
    expect(res.statusCode).toBe(200);
    const mine = entries().slice(before);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      req: { method: 'GET', url: expect.stringContaining('/api/bind-job-applications?search=[redacted]') },
      route: '/api/bind-job-applications',
      status: 200,
      user: reader.userId,
      reqId: res.headers['x-request-id'],
    });
    expect(typeof mine[0].ms).toBe('number');
    const all = lines.join('\n');
    expect(all).not.toContain('asha.menon');
    expect(all).not.toContain(reader.cookie.split('=')[1]);
    expect(all).not.toMatch(/"cookie"|"authorization"/i);
  });

  it('takes X-Request-Id only from a trusted proxy, and echoes the id it used', async () => {
    const direct = await logged();
    const ignored = await app.inject({
      url: '/api/health',
      headers: { 'x-request-id': 'from-the-client-1' },
    });
    expect(ignored.headers['x-request-id']).not.toBe('from-the-client-1');
    expect(ignored.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(direct.entries().at(-1)?.reqId).toBe(ignored.headers['x-request-id']);
    await app.close();

    const proxied = await logged({ TRUST_PROXY: 'true' });
    const kept = await app.inject({ url: '/api/health', headers: { 'x-request-id': 'lb-7f3a.2' } });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.2');
    expect(proxied.entries().at(-1)?.reqId).toBe('lb-7f3a.2');
    // a value that could break a log line is replaced
    const odd = await app.inject({ url: '/api/health', headers: { 'x-request-id': 'a b\u0007c' } });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
