import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditRows } from '../../contract/auth';
import { recordAudit } from '../db/audit.repo';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

/** The Activity log's filters: person, kind of record, action, days; and a change's old and new values. */

let app: FastifyInstance;
let auditor: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp();
  auditor = (await signInAs(app, { permissions: ['audit.read'] })).headers;
  const asha = { user_id: 1, email: 'Asha.Menon@example.com' };
  const ravi = { user_id: 2, email: 'ravi_k@example.com' };
  const at = (day: string) => new Date(`${day}T12:00:00.000Z`);
  await recordAudit(
    app.db,
    { actor: asha, action: 'update', entity: 'job_opening', entityId: 1 },
    at('2026-11-01'),
  );
  await recordAudit(
    app.db,
    { actor: asha, action: 'delete', entity: 'blog_post', entityId: 2 },
    at('2026-11-02'),
  );
  await recordAudit(
    app.db,
    { actor: ravi, action: 'update', entity: 'blog_post', entityId: 3 },
    at('2026-11-03'),
  );
  await recordAudit(
    app.db,
    { actor: null, action: 'retention_purge', entity: 'job_application' },
    at('2026-11-04'),
  );
});
afterAll(() => app.close());

const entries = async (query: string) => {
  const res = await app.inject({ url: `/api/admin/audit?pagesize=100&${query}`, headers: auditor });
  expect(res.statusCode, res.body).toBe(200);
  return AuditRows.parse(res.json()).filter((r) => r.at.startsWith('2026-11-0'));
};
const ids = (rows: { entity: string; entity_id: string | null }[]) =>
  rows.map((r) => `${r.entity}#${r.entity_id}`);

describe('the Activity log filters', () => {
  it('by person (the start of the email, any case), kind, action and days', async () => {
    expect(ids(await entries('actor=asha'))).toEqual(['blog_post#2', 'job_opening#1']);
    expect(ids(await entries('actor=ASHA.MENON@'))).toEqual(['blog_post#2', 'job_opening#1']);
    // % and _ are themselves, not wildcards
    expect(ids(await entries('actor=ravi_'))).toEqual(['blog_post#3']);
    expect(await entries('actor=%25')).toEqual([]);
    expect(ids(await entries('entity=blog_post'))).toEqual(['blog_post#3', 'blog_post#2']);
    expect(ids(await entries('action=update&entity=blog_post'))).toEqual(['blog_post#3']);
    expect(ids(await entries('from=2026-11-02&to=2026-11-03'))).toEqual(['blog_post#3', 'blog_post#2']);
    expect(ids(await entries('to=2026-11-01'))).toEqual(['job_opening#1']);
    const [first] = await entries('entity=blog_post');
    expect(first.total_count).toBe(2);
  });

  it('refuses a day that does not exist or a malformed filter with 400', async () => {
    for (const query of [
      'from=2026-02-30',
      'to=2026-13-01',
      'from=yesterday',
      'entity=Blog Post',
      'action=%27',
    ]) {
      const res = await app.inject({ url: `/api/admin/audit?${query}`, headers: auditor });
      expect(res.statusCode, query).toBe(400);
    }
  });
});
