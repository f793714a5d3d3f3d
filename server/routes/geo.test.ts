import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GeoAnswer } from '../../contract/pricing';
import seedPricing from '../db/seed/10-pricing.seed';
import type { Env } from '../config';
import { createTestApp } from '../testing';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(env: Env = {}) {
  app = await createTestApp(env);
  await seedPricing(app.db, app.config);
  return app;
}

const geo = (a: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}) =>
  a.inject({ method: 'GET', url: '/api/geo', remoteAddress, headers });

describe('GET /api/geo with the default settings', () => {
  let a: FastifyInstance;
  beforeAll(async () => {
    a = await createTestApp();
    await seedPricing(a.db, a.config);
  });
  afterAll(() => a.close());

  it('answers the country of a public address from the GeoLite2 database, named as in our list', async () => {
    const res = await geo(a, '8.8.8.8');
    expect(res.statusCode).toBe(200);
    expect(GeoAnswer.parse(res.json())).toEqual({ country_name: 'United States', country_code: 'US' });
    expect((await geo(a, '81.2.69.142')).json()).toEqual({
      country_name: 'United Kingdom',
      country_code: 'GB',
    });
    expect((await geo(a, '2001:4860:4860::8888')).json().country_code).toBe('US');
    expect(res.headers['cache-control']).toBe('private, max-age=3600');
  });

  it.each(['127.0.0.1', '10.1.2.3', '192.168.0.10', '::1', 'fe80::1'])(
    'answers India for the private address %s',
    async (ip) => {
      expect((await geo(a, ip)).json()).toEqual({ country_name: 'India', country_code: 'IN' });
    },
  );

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    expect((await geo(a, '127.0.0.1', { 'x-forwarded-for': '8.8.8.8' })).json().country_code).toBe('IN');
  });

  it('does not read a country header when GEO_COUNTRY_HEADER is unset', async () => {
    expect((await geo(a, '127.0.0.1', { 'cf-ipcountry': 'DE' })).json().country_code).toBe('IN');
  });
});

describe('GET /api/geo behind a proxy or a CDN', () => {
  it('ignores GEO_COUNTRY_HEADER without TRUST_PROXY: a client cannot choose its country', async () => {
    const a = await start({ GEO_COUNTRY_HEADER: 'CF-IPCountry' });
    expect((await geo(a, '127.0.0.1', { 'cf-ipcountry': 'de' })).json().country_code).toBe('IN');
  });

  it('uses the forwarded client address behind a trusted proxy', async () => {
    const a = await start({ TRUST_PROXY: '127.0.0.1' });
    expect((await geo(a, '127.0.0.1', { 'x-forwarded-for': '81.2.69.142' })).json().country_code).toBe('GB');
    // a peer that is not the trusted proxy cannot choose its address
    expect((await geo(a, '10.9.9.9', { 'x-forwarded-for': '81.2.69.142' })).json().country_code).toBe('IN');
  });

  it("uses the CDN's country header when GEO_COUNTRY_HEADER names it, and the address when it says nothing useful", async () => {
    const a = await start({ GEO_COUNTRY_HEADER: 'CF-IPCountry', TRUST_PROXY: 'true' });
    expect((await geo(a, '127.0.0.1', { 'cf-ipcountry': 'de' })).json()).toEqual({
      country_name: 'Germany',
      country_code: 'DE',
    });
    // XX (unknown) and T1 (Tor) are not countries: the address decides
    expect((await geo(a, '8.8.8.8', { 'cf-ipcountry': 'XX' })).json().country_code).toBe('US');
    expect((await geo(a, '127.0.0.1', { 'cf-ipcountry': 'T1' })).json().country_code).toBe('IN');
  });
});
