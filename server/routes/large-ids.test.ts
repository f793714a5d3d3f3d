import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_MAX } from '../../contract/ids';
import { isClientValueError } from '../app';
import { signInAs } from '../lib/auth-testing';
import { multipart } from '../../tests/fixtures/multipart';
import { createTestApp } from '../testing';

/**
 * Ids past a 32-bit integer, on every id a client sends: 400 on both databases (PostgreSQL's
 * integer columns refuse them; before the contract capped them, that was a 500 there).
 */
describe('ids larger than the columns hold', () => {
  let app: FastifyInstance;
  let owner: Awaited<ReturnType<typeof signInAs>>;
  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '100000' });
    owner = await signInAs(app, { role: 'owner' });
  });
  afterAll(() => app?.close());

  const TOO_BIG = [String(ID_MAX + 1), '9999999999'];

  it('the admin routes answer 400 for them, and 404 for the largest valid id', async () => {
    for (const id of TOO_BIG) {
      const calls = [
        {
          method: 'POST' as const,
          url: `/api/admin/job-applications/${id}/status`,
          payload: { status: 'Reviewed' },
        },
        { method: 'DELETE' as const, url: `/api/admin/job-applications/${id}` },
        { method: 'PATCH' as const, url: `/api/admin/contact-messages/${id}`, payload: { handled: true } },
        { method: 'PATCH' as const, url: `/api/admin/users/${id}`, payload: { disabled: true } },
        { method: 'DELETE' as const, url: `/api/admin/roles/${id}` },
        { method: 'GET' as const, url: `/api/bind-job-applications?applicationid=${id}` },
      ];
      for (const call of calls) {
        const res = await app.inject({ ...call, headers: owner.headers });
        expect(res.statusCode, `${call.method} ${call.url}`).toBe(400);
      }
    }
    const largest = await app.inject({
      method: 'POST',
      url: `/api/admin/job-applications/${ID_MAX}/status`,
      headers: { ...owner.headers, 'if-match': '"1"' },
      payload: { status: 'Reviewed' },
    });
    expect(largest.statusCode).toBe(404);
  });

  it('the public apply form answers 400 for a job_id past the range', async () => {
    for (const jobId of TOO_BIG) {
      const form = multipart([
        { name: 'job_id', value: jobId },
        { name: 'full_name', value: 'Asha Menon' },
        { name: 'email', value: 'asha@example.com' },
        { name: 'contact_number', value: '9876543210' },
        { name: 'address', value: 'Kochi' },
        { name: 'consent', value: 'true' },
        { name: 'resume', filename: 'cv.pdf', type: 'application/pdf', data: '%PDF-1.4\n%%EOF\n' },
      ]);
      const res = await app.inject({
        method: 'POST',
        url: '/api/manage-job-applications',
        headers: { 'content-type': form.contentType },
        payload: form.body,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.job_id).toBe('Choose a job opening');
    }
    for (const q of ['jobid', 'blogid']) {
      const url =
        q === 'jobid'
          ? `/api/bind-job-openings?jobid=${TOO_BIG[0]}`
          : `/api/bind-company-blog?blogid=${TOO_BIG[0]}`;
      expect((await app.inject({ url })).statusCode, url).toBe(400);
    }
  });

  it("maps PostgreSQL's range and number-format errors to a client error, nothing else", () => {
    const error = (code: string) => Object.assign(new pg.DatabaseError('refused', 0, 'error'), { code });
    expect(isClientValueError(error('22003'))).toBe(true);
    expect(isClientValueError(error('22P02'))).toBe(true);
    expect(isClientValueError(error('23505'))).toBe(false);
    expect(isClientValueError(Object.assign(new Error('disk'), { code: '22003' }))).toBe(false);
  });
});
