import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../../tests/fixtures/multipart';
import { createTestApp } from '../testing';

/**
 * Property tests (fast-check) over the inputs of every public endpoint: whatever arrives, the
 * answer is never a 5xx, and no answer reflects markup from the input as HTML.
 */
let app: FastifyInstance;
beforeAll(async () => {
  app = await createTestApp({
    RATE_LIMIT_PUBLIC_PER_MIN: '1000000',
    RATE_LIMIT_LOGIN_FAILURES: '1000000',
    SEED_DEMO: 'true',
  });
});
afterAll(() => app?.close());

const RUNS = { numRuns: 60 };
const nasty = fc.constantFrom(
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  '../../../etc/passwd',
  '%00',
  '\u0000',
  '\uFFFF\uD800',
  'NaN',
  '-1',
  '1e309',
  '99999999999999999999',
  '2147483648',
  '9999999999',
  '*',
  'palimpsest" OR "',
  'a'.repeat(5000),
);
// ids just past a 32-bit integer: PostgreSQL refuses them where SQLite takes them
const bigId = fc.bigInt({ min: 2_147_483_646n, max: 99_999_999_999n }).map(String);
const value = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.integer().map(String), bigId, nasty);
const maybe = (arb: fc.Arbitrary<string>) => fc.option(arb, { nil: undefined });

function query(params: Record<string, string | undefined>) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return q.toString();
}

function expectSafe(res: LightMyRequestResponse, inputs: (string | undefined)[]) {
  expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
  const type = String(res.headers['content-type'] ?? '');
  if (type.startsWith('text/html')) {
    for (const input of inputs) if (input && input.includes('<')) expect(res.body).not.toContain(input);
  }
}

describe('public endpoints under arbitrary input', () => {
  it('GET bind-company-blog', async () => {
    await fc.assert(
      fc.asyncProperty(
        maybe(value),
        maybe(value),
        maybe(value),
        maybe(value),
        maybe(value),
        async (blogid, search, page, size, slug) => {
          const res = await app.inject({
            url: `/api/bind-company-blog?${query({ blogid, search, page_number: page, page_size: size, slug })}`,
          });
          expectSafe(res, [blogid, search, page, size, slug]);
        },
      ),
      RUNS,
    );
  });

  it('GET bind-job-openings and bind-job-types', async () => {
    await fc.assert(
      fc.asyncProperty(
        maybe(value),
        maybe(value),
        maybe(value),
        maybe(value),
        async (jobid, search, pagenum, pagesize) => {
          const res = await app.inject({
            url: `/api/bind-job-openings?${query({ jobid, search, pagenum, pagesize })}`,
          });
          expectSafe(res, [jobid, search, pagenum, pagesize]);
          expectSafe(await app.inject({ url: `/api/bind-job-types?${query({ x: search })}` }), [search]);
        },
      ),
      RUNS,
    );
  });

  it('GET BindPlanDetails, bind-country-by-code and geo', async () => {
    await fc.assert(
      fc.asyncProperty(
        maybe(value),
        maybe(value),
        maybe(value),
        value,
        async (countryid, moduleid, type, text) => {
          expectSafe(
            await app.inject({
              url: `/api/BindPlanDetails?${query({ countryid, moduleid, subscriptiontypeid: type })}`,
            }),
            [countryid, moduleid, type],
          );
          expectSafe(
            await app.inject({
              url: `/api/bind-country-by-code?${query({ countrycode: countryid, countryname: text })}`,
            }),
            [countryid, text],
          );
          expectSafe(
            await app.inject({
              url: '/api/geo',
              headers: { 'x-forwarded-for': text.replace(/[^\x20-\x7e]/g, '') },
            }),
            [text],
          );
        },
      ),
      RUNS,
    );
  });

  it('GET GetPresignedUrl', async () => {
    await fc.assert(
      fc.asyncProperty(value, async (key) => {
        expectSafe(await app.inject({ url: `/api/GetPresignedUrl?${query({ s3_key: key })}` }), [key]);
      }),
      RUNS,
    );
  });

  it('POST contact-messages and auth/login with any JSON', async () => {
    const json = fc.oneof(
      fc.record(
        { name: value, email: value, company: maybe(value), message: value, website: maybe(value) },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    await fc.assert(
      fc.asyncProperty(json, json, async (contact, login) => {
        const c = await app.inject({
          method: 'POST',
          url: '/api/contact-messages',
          payload: JSON.stringify(contact),
          headers: { 'content-type': 'application/json' },
        });
        expectSafe(c, [JSON.stringify(contact)]);
        const l = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: JSON.stringify(login),
          headers: { 'content-type': 'application/json', origin: new URL(app.config.PUBLIC_URL).origin },
        });
        expectSafe(l, [JSON.stringify(login)]);
      }),
      RUNS,
    );
  });

  it('POST manage-job-applications with any fields and file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom(
            'job_id',
            'full_name',
            'email',
            'contact_number',
            'address',
            'consent',
            'website',
            'other',
          ),
          value,
        ),
        fc.option(
          fc.record({
            filename: value,
            type: value.map((t) => t.replace(/[^\x20-\x7e]/g, '') || 'x/y'),
            data: fc.uint8Array({ maxLength: 2048 }),
          }),
        ),
        async (fields, file) => {
          const parts = Object.entries(fields).map(([name, v]) => ({ name, value: v }));
          const { body, contentType } = multipart(
            file
              ? [
                  ...parts,
                  {
                    name: 'resume',
                    filename: file.filename.replace(/["\r\n]/g, '') || 'a.pdf',
                    type: file.type,
                    data: Buffer.from(file.data),
                  },
                ]
              : parts,
          );
          const res = await app.inject({
            method: 'POST',
            url: '/api/manage-job-applications',
            payload: body,
            headers: { 'content-type': contentType },
          });
          expectSafe(res, Object.values(fields));
        },
      ),
      { numRuns: 40 },
    );
  });
});
