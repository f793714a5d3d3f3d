import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CountryRows, PlanRows } from '../../contract/pricing';
import seedPricing from '../db/seed/10-pricing.seed';
import { createTestApp } from '../testing';
import { etagMatches } from '../lib/prepared-answer';
import { PRICING_TTL_MS } from '../plugins/public-reads';

let app: FastifyInstance;
beforeAll(async () => {
  app = await createTestApp();
  await seedPricing(app.db, app.config);
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

describe('GET /api/bind-country-by-code', () => {
  it('answers an array whose first item has country_id 101 for India', async () => {
    const res = await get('/api/bind-country-by-code?countrycode=IN&countryname=India');
    expect(res.statusCode).toBe(200);
    const rows = CountryRows.parse(res.json());
    expect(rows[0]).toEqual({ country_id: 101, country_name: 'India', country_code: 'IN' });
  });

  it('matches the code in any letter case, and the name when the code is unknown or empty', async () => {
    expect((await get('/api/bind-country-by-code?countrycode=us&countryname=')).json()[0].country_id).toBe(
      233,
    );
    expect(
      (await get('/api/bind-country-by-code?countrycode=QQ&countryname=%20united%20kingdom%20')).json()[0]
        .country_id,
    ).toBe(232);
    expect((await get('/api/bind-country-by-code?countryname=Germany')).json()[0].country_id).toBe(82);
  });

  it('answers an empty array when nothing matches', async () => {
    const res = await get('/api/bind-country-by-code?countrycode=QQ&countryname=Atlantis');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it.each([
    ['a three-letter code', '?countrycode=IND&countryname=India', 'countrycode'],
    ['a code with digits', '?countrycode=1N', 'countrycode'],
    ['a name over 100 characters', `?countryname=${'a'.repeat(101)}`, 'countryname'],
    ['neither code nor name', '?countrycode=&countryname=', 'countrycode'],
    ['no query at all', '', 'countrycode'],
  ])('answers 400 with a message for %s', async (_what, query, field) => {
    const res = await get(`/api/bind-country-by-code${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
    expect(res.json().errors[field]).toEqual(expect.any(String));
  });
});

describe('GET /api/BindPlanDetails', () => {
  it("answers India's plans as the spec's rows: period names, comma prices, journals and features", async () => {
    const res = await get('/api/BindPlanDetails?countryid=101&moduleid=&subscriptiontypeid=0');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const rows = PlanRows.parse(res.json());
    expect(rows.map((r) => `${r.plan_name} ${r.subscription_name} ${r.price}`)).toEqual([
      'Starter 3 months 12,000',
      'Starter 6 months 22,000',
      'Starter 1 year 40,000',
      'Professional 3 months 30,000',
      'Professional 6 months 55,000',
      'Professional 1 year 1,00,000',
      'Enterprise 6 months 1,20,000',
      'Enterprise 1 year 2,20,000',
    ]);
    const starter = rows[0];
    expect(starter).toMatchObject({
      no_of_journals: 2,
      currency: 'INR',
      country_id: 101,
      features:
        'Guided author submissions, Automatic format checks, Peer review automation, Built-in plagiarism check, Email support',
    });
    expect(starter.description).toMatch(/single journal/);
    expect(rows.find((r) => r.plan_name === 'Enterprise')?.no_of_journals).toBe('Unlimited');
    for (const r of rows) expect(r.subscription_name).toMatch(/3|6|year/);
  });

  it('uses the defaults of the spec when the query is empty (country 101, every period)', async () => {
    const rows = (await get('/api/BindPlanDetails')).json();
    expect(rows).toHaveLength(8);
    expect(rows.every((r: { country_id: number }) => r.country_id === 101)).toBe(true);
    expect((await get('/api/BindPlanDetails?countryid=&moduleid=&subscriptiontypeid=')).json()).toEqual(rows);
  });

  it("gives a country without prices India's plans (the fallback is on the server)", async () => {
    const us = (await get('/api/BindPlanDetails?countryid=233&moduleid=&subscriptiontypeid=0')).json();
    const india = (await get('/api/BindPlanDetails?countryid=101&moduleid=&subscriptiontypeid=0')).json();
    expect(us).toEqual(india);
    // an id that is no country at all is treated the same way
    expect((await get('/api/BindPlanDetails?countryid=999999')).json()).toEqual(india);
  });

  it('filters by period and by module', async () => {
    const annual = (await get('/api/BindPlanDetails?countryid=101&subscriptiontypeid=3')).json();
    expect(annual.map((r: { price: string }) => r.price)).toEqual(['40,000', '1,00,000', '2,20,000']);
    expect((await get('/api/BindPlanDetails?moduleid=1')).json()).toHaveLength(8);
    expect((await get('/api/BindPlanDetails?moduleid=2')).json()).toEqual([]);
  });

  it.each([
    ['a country id that is not a number', '?countryid=india', 'countryid'],
    ['a negative country id', '?countryid=-1', 'countryid'],
    ['a fractional country id', '?countryid=10.5', 'countryid'],
    ['a country id too large', '?countryid=99999999999', 'countryid'],
    ['a module id that is not a number', '?moduleid=abc', 'moduleid'],
    ['an unknown subscription type', '?subscriptiontypeid=4', 'subscriptiontypeid'],
    ['a repeated parameter', '?countryid=1&countryid=2', 'countryid'],
  ])('answers 400 with a message for %s', async (_what, query, field) => {
    const res = await get(`/api/BindPlanDetails${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Invalid request', errors: { [field]: expect.any(String) } });
  });
});

describe('caching of the pricing answers', () => {
  it('sends an ETag and Cache-Control, and 304 without a body when the ETag is sent back', async () => {
    const first = await get('/api/BindPlanDetails?countryid=101');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=300');

    const again = await get('/api/BindPlanDetails?countryid=101', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(
      (await get('/api/BindPlanDetails?countryid=101', { 'if-none-match': etag.replace(/^W\//, '') }))
        .statusCode,
    ).toBe(304);
    expect((await get('/api/BindPlanDetails?countryid=101', { 'if-none-match': '"other"' })).statusCode).toBe(
      200,
    );

    const country = await get('/api/bind-country-by-code?countrycode=IN&countryname=India');
    expect(country.headers.etag).toEqual(expect.any(String));
    expect(
      (
        await get('/api/bind-country-by-code?countrycode=IN&countryname=India', {
          'if-none-match': country.headers.etag as string,
        })
      ).statusCode,
    ).toBe(304);
  });

  it('answers a repeated query from memory, and a changed price changes the answer and its ETag', async () => {
    const url = '/api/BindPlanDetails?countryid=101&subscriptiontypeid=1';
    const before = await get(url);
    const selects = vi.spyOn(app.db, 'selectFrom');
    expect((await get(url)).body).toBe(before.body);
    expect(selects).not.toHaveBeenCalled();

    const starter = await app.db
      .selectFrom('plan')
      .select('plan_id')
      .where('plan_name', '=', 'Starter')
      .executeTakeFirstOrThrow();
    await app.db
      .updateTable('plan_price')
      .set({ amount_minor: 12_500_00 })
      .where('plan_id', '=', starter.plan_id)
      .where('country_id', '=', 101)
      .where('subscription_type_id', '=', 1)
      .execute();
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + PRICING_TTL_MS + 1);
    const after = await get(url);
    expect(after.json()[0].price).toBe('12,500');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await get(url, { 'if-none-match': before.headers.etag as string })).statusCode).toBe(200);
  });
});

describe('compression of the pricing answers', () => {
  it('sends brotli or gzip when the client takes it, the same JSON, with Vary: Accept-Encoding', async () => {
    const plain = await get('/api/BindPlanDetails?countryid=101', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);

    const br = await get('/api/BindPlanDetails?countryid=101', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.etag).toBe(plain.headers.etag);

    const gz = await get('/api/BindPlanDetails?countryid=101', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });

  it('sends a small answer as it is', async () => {
    const res = await get('/api/bind-country-by-code?countrycode=IN', { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()[0].country_id).toBe(101);
  });
});

describe('etagMatches', () => {
  it('accepts the tag, its weak or strong form, a list and *', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('"b", "a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });
});
