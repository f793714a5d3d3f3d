import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addApplication, addOpening } from '../db/application-list.testing';
import { signInAs } from '../lib/auth-testing';
import { createTestApp, injectStart } from '../testing';

/** The smaller findings of the outside security review, each as an attacker or auditor would see it. */
describe('security review findings', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    app = await createTestApp();
  });
  afterEach(() => app.close());

  /** A reader of applications, an application with a CV, and the CV's address as made for that reader. */
  async function cvAddress(opening: string, name: string) {
    const reader = await signInAs(app, { permissions: ['applications.read'] });
    const jobId = await addOpening(app, opening);
    const sample = await addApplication(app, {
      jobId,
      name,
      email: `${name.toLowerCase()}@example.com`,
      at: new Date(),
    });
    const res = await app.inject({
      url: `/api/GetPresignedUrl?s3_key=${encodeURIComponent(sample.key)}`,
      headers: reader.headers,
    });
    expect(res.statusCode).toBe(200);
    return { reader, sample, url: res.json<{ url: string }>().url };
  }

  it('request logs carry no signature or other query secret of a signed CV address', async () => {
    await app.close();
    const lines: string[] = [];
    app = await createTestApp({ LOG_LEVEL: 'info' }, { write: (line) => void lines.push(line) });
    const { reader, url } = await cvAddress('Indexer', 'Asha');
    const signature =
      new URL(url, 'http://x').searchParams.get('signature') ??
      new URL(url, 'http://x').searchParams.get('sig');
    expect(signature).toBeTruthy();
    expect((await app.inject({ url, headers: reader.headers })).statusCode).toBe(200);
    await app.inject({ url: '/api/health?token=abc123secret&X-Amz-Signature=deadbeefcafe' });
    const logged = lines.join('\n');
    expect(logged).toContain('/media/'); // the request was logged
    expect(logged).not.toContain(signature!);
    expect(logged).not.toContain('abc123secret');
    expect(logged).not.toContain('deadbeefcafe');
    expect(logged).toContain('[redacted]');
  });

  it('every admin read answers Cache-Control: no-store', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const reads = app.accessTable.filter(
      (r) => r.method === 'GET' && r.permission !== null && !r.url.includes(':'),
    );
    expect(reads.length).toBeGreaterThan(5);
    for (const route of reads) {
      const res = await injectStart(app, { url: route.url, headers: owner.headers });
      expect(res.statusCode, route.url).toBe(200);
      expect(res.headers['cache-control'], route.url).toMatch(/no-store/);
    }
  });

  it('every CV read is an audit row naming its reader and the application; making the address is none', async () => {
    const { reader, sample, url } = await cvAddress('Indexer', 'Asha');
    const reads = () =>
      app.db
        .selectFrom('audit_log')
        .select(['actor_email', 'entity', 'entity_id'])
        .where('action', 'in', ['cv_read', 'cv_link'])
        .execute();
    expect(await reads()).toEqual([]);
    // read without a session: the address says whose read it is
    expect((await app.inject({ url })).statusCode).toBe(200);
    expect(await reads()).toEqual([
      { actor_email: reader.email, entity: 'job_application', entity_id: String(sample.application_id) },
    ]);
  });

  it('a CV address stops working for a reader who may no longer read applications', async () => {
    const { reader, url } = await cvAddress('Proofreader', 'Ravi');
    await app.db
      .updateTable('admin_user')
      .set({ disabled: 1 })
      .where('user_id', '=', reader.userId)
      .execute();
    expect((await app.inject({ url })).statusCode).toBe(404);
    expect(
      await app.db
        .selectFrom('audit_log')
        .select('action')
        .where('action', '=', 'cv_read')
        .where('actor_email', '=', reader.email)
        .execute(),
    ).toEqual([]);
  });
});
