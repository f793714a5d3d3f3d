import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { signInAs } from '../lib/auth-testing';
import { createTestApp, createTestOpening } from '../testing';

const LIST = '/api/bind-job-openings?jobid=0&search=&pagenum=1&pagesize=20';

describe('public list answers reused for PUBLIC_READ_CACHE_MS', () => {
  let app: FastifyInstance;
  afterEach(() => app.close());

  const opening = (title: string) => createTestOpening(app, title);
  const titles = async () =>
    (await app.inject({ url: LIST })).json().map((r: { job_title: string }) => r.job_title);

  it('a change made elsewhere (another process) shows within the reuse time, not before', async () => {
    app = await createTestApp({ PUBLIC_READ_CACHE_MS: '300' });
    await opening('Copy Editor');
    expect(await titles()).toEqual(['Copy Editor']);
    await opening('Proofreader'); // straight into the database, as another process would
    expect(await titles()).toEqual(['Copy Editor']);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await titles()).toEqual(['Proofreader', 'Copy Editor']);
  });

  it('a save through the admin of this process shows at once', async () => {
    app = await createTestApp({ PUBLIC_READ_CACHE_MS: '60000' });
    const { headers } = await signInAs(app, { role: 'recruiter' });
    const first = await opening('Copy Editor');
    expect(await titles()).toEqual(['Copy Editor']);
    const res = await app.inject({
      method: 'POST',
      url: '/api/manage-job-openings',
      headers,
      payload: { mode: 3, job_id: first.job_id },
    });
    expect(res.statusCode).toBe(200);
    expect(await titles()).toEqual([]);
  });

  it('answers with an ETag and 304 on a repeat, compressed when asked', async () => {
    app = await createTestApp({ PUBLIC_READ_CACHE_MS: '60000' });
    for (let i = 0; i < 6; i++) await opening(`Editor ${i}`);
    const res = await app.inject({ url: LIST, headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    const again = await app.inject({ url: LIST, headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('public list answers across processes (needs TEST_REDIS_URL)', () => {
  it('a save through the admin of one process shows at once in another', async () => {
    const prefix = `test-${Math.random().toString(36).slice(2)}:`;
    const env = {
      PUBLIC_READ_CACHE_MS: '60000',
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
    };
    const a = await createTestApp(env);
    // the second process on the same database
    const shared = a.config.database;
    const b = await createTestApp({
      ...env,
      DATA_DIR: a.config.DATA_DIR,
      ...(shared.dialect === 'postgres' ? { DATABASE_URL: shared.url } : {}),
    });
    try {
      const row = await createTestOpening(a, 'Copy Editor');
      const titlesOf = async (app: FastifyInstance) =>
        (await app.inject({ url: LIST })).json().map((r: { job_title: string }) => r.job_title);
      expect(await titlesOf(b)).toEqual(['Copy Editor']);
      const { headers } = await signInAs(a, { role: 'recruiter' });
      const res = await a.inject({
        method: 'POST',
        url: '/api/manage-job-openings',
        headers,
        payload: { mode: 3, job_id: row.job_id },
      });
      expect(res.statusCode).toBe(200);
      await expect.poll(() => titlesOf(b), { timeout: 2000, interval: 20 }).toEqual([]);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
