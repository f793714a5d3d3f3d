import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import seedPricing from '../db/seed/10-pricing.seed';
import { fakeBuild } from '../lib/fake-build.testing';
import { createTestApp } from '../testing';

/**
 * /pricing rendered with the plans of the visitor's country (routes/pricing-page.ts), with the
 * stand-in build; the real page is in tests/e2e/pricing.spec.ts.
 */

let dist: string;
let app: FastifyInstance;

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'manna-fake-dist-'));
  await fakeBuild(dist);
  app = await createTestApp({ DIST_DIR: dist, GEO_COUNTRY_HEADER: 'CF-IPCountry', TRUST_PROXY: 'true' });
  await seedPricing(app.db, app.config);
});
afterAll(async () => {
  await app.close();
  await fs.rm(dist, { recursive: true, force: true });
});

const pageData = (html: string) =>
  JSON.parse(/id="page-data">(.*?)<\/script>/s.exec(html)![1]) as {
    pricingRows: { plan_name: string; price: string | number | null }[];
    pricingCountryId: number;
  };

/** What the browser used to ask for itself: the country's id, then its plans. */
async function plansThroughTheApi(code: string, name: string) {
  const [country] = (
    await app.inject(`/api/bind-country-by-code?countrycode=${code}&countryname=${encodeURIComponent(name)}`)
  ).json() as { country_id: number }[];
  const id = country?.country_id ?? 101;
  return {
    id,
    rows: (await app.inject(`/api/BindPlanDetails?countryid=${id}&moduleid=&subscriptiontypeid=0`)).json(),
  };
}

describe('/pricing in the first HTML', () => {
  it("carries the plans of the visitor's country, the same as the API's, and revalidates by ETag", async () => {
    const res = await app.inject({ url: '/pricing', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    const data = pageData(res.body);
    const india = await plansThroughTheApi('IN', 'India');
    expect(data.pricingCountryId).toBe(india.id);
    expect(data.pricingRows).toEqual(india.rows);
    expect(data.pricingRows.length).toBeGreaterThan(0);
    expect(res.body).toContain('<main class="pricing">');
    const etag = String(res.headers.etag);
    expect((await app.inject({ url: '/pricing', headers: { 'if-none-match': etag } })).statusCode).toBe(304);

    // another country (a trusted proxy's header): its own plans, or India's when it has none
    const german = await app.inject({ url: '/pricing', headers: { 'cf-ipcountry': 'DE' } });
    const germany = await plansThroughTheApi('DE', 'Germany');
    expect(pageData(german.body).pricingCountryId).toBe(germany.id);
    expect(pageData(german.body).pricingRows).toEqual(germany.rows);
  });

  it("gives the service worker's precache the prerendered copy, never one with a country's plans", async () => {
    const res = await app.inject({ url: '/pricing', headers: { 'x-manna-precache': '1' } });
    expect(res.body).toContain('<title>Pricing</title>');
    expect(res.body).not.toContain('page-data');
  });
});
