import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing';
import { formatPrice, planDetails, savePlan } from './pricing.repo';
import seedPricing, { readCountries } from './seed/10-pricing.seed';

describe('formatPrice', () => {
  it.each([
    [12_000_00, 'INR', '12,000'],
    [1_20_000_00, 'INR', '1,20,000'],
    [12_00_000_00, 'INR', '12,00,000'],
    [999_00, 'INR', '999'],
    [12_000_50, 'INR', '12,000.50'],
    [120_000_00, 'USD', '120,000'],
    [49_99, 'USD', '49.99'],
  ])('writes %i minor units of %s as %s', (amount, currency, text) => {
    expect(formatPrice(amount, currency)).toBe(text);
  });

  it('writes a string that the spec parses back to the number by removing the commas', () => {
    for (const amount of [1_00, 12_345_678_00, 7_00_00_000_00]) {
      expect(Number(formatPrice(amount, 'INR').replaceAll(',', ''))).toBe(amount / 100);
    }
  });
});

describe('the countries list', () => {
  it('is the widely used list: about 250 countries, India 101, unique ids and codes, every field set', async () => {
    const list = await readCountries();
    expect(list.length).toBe(250);
    expect(list.find((c) => c.id === 101)).toEqual({ id: 101, name: 'India', iso2: 'IN', currency: 'INR' });
    expect(list.find((c) => c.id === 1)?.name).toBe('Afghanistan');
    expect(list.find((c) => c.id === 233)).toMatchObject({
      name: 'United States',
      iso2: 'US',
      currency: 'USD',
    });
    expect(new Set(list.map((c) => c.id)).size).toBe(list.length);
    expect(new Set(list.map((c) => c.iso2)).size).toBe(list.length);
  });
});

describe('the pricing seeder', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const counts = async () => ({
    countries: (
      await app.db
        .selectFrom('country')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
    plans: (
      await app.db
        .selectFrom('plan')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
    prices: (
      await app.db
        .selectFrom('plan_price')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
    periods: (
      await app.db.selectFrom('subscription_type').selectAll().orderBy('subscription_type_id').execute()
    ).map((p) => p.subscription_name),
  });

  it('seeds 250 countries, three periods, three plans with INR prices for India, and is idempotent', async () => {
    await seedPricing(app.db, app.config);
    const first = await counts();
    expect(first).toEqual({
      countries: 250,
      plans: 3,
      prices: 8,
      periods: ['3 months', '6 months', '1 year'],
    });
    await seedPricing(app.db, app.config);
    expect(await counts()).toEqual(first);
    const plans = await app.db.selectFrom('plan').select('plan_name').orderBy('sort_order').execute();
    expect(plans.map((p) => p.plan_name)).toEqual(['Starter', 'Professional', 'Enterprise']);
  });

  it('savePlan refuses a feature with a comma, which would split it in two', async () => {
    await expect(
      savePlan(app.db, {
        plan_name: 'Broken',
        description: 'x',
        no_of_journals: 1,
        features: ['Reports, exports'],
        sort_order: 9,
        prices: {},
      }),
    ).rejects.toThrow(/comma/);
  });

  it('answers the prices of a country that has its own, not India', async () => {
    await seedPricing(app.db, app.config);
    await savePlan(app.db, {
      plan_name: 'Starter',
      description: 'For a single journal moving its editorial workflow online.',
      no_of_journals: 2,
      features: ['Guided author submissions'],
      sort_order: 1,
      prices: { 233: { 3: 450_00 } },
    });
    const us = await planDetails(app.db, { countryid: 233, moduleid: 0, subscriptiontypeid: 0 });
    expect(us).toEqual([
      expect.objectContaining({ plan_name: 'Starter', price: '450', currency: 'USD', country_id: 233 }),
    ]);
    // India keeps its prices
    expect((await planDetails(app.db, { countryid: 101, moduleid: 0, subscriptiontypeid: 0 })).length).toBe(
      8,
    );
  });
});
