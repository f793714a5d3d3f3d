import fs from 'node:fs/promises';
import { z } from 'zod';
import { saveCountries, savePlan, saveSubscriptionTypes, type PlanInput } from '../pricing.repo';
import type { Seeder } from './index';

/**
 * Countries, subscription periods and the demo plans with INR prices for India (country 101).
 * Idempotent: countries are upserted by id, periods by id, plans by name with their India prices
 * replaced, so a second run changes nothing and an edited seed updates the rows.
 */

export const countriesFile = new URL('./countries.json', import.meta.url);

const CountryList = z
  .array(
    z.object({
      id: z.number().int().positive(),
      name: z.string().min(1).max(100),
      iso2: z.string().regex(/^[A-Z]{2}$/),
      currency: z.string().regex(/^[A-Z]{3}$/),
    }),
  )
  .min(1);

export async function readCountries() {
  return CountryList.parse(JSON.parse(await fs.readFile(countriesFile, 'utf8')));
}

const INDIA = 101;
const QUARTERLY = 1;
const HALF_YEARLY = 2;
const ANNUAL = 3;

/** subscription_name contains 3, 6 or 'year'. */
export const SUBSCRIPTION_TYPES = [
  { subscription_type_id: QUARTERLY, subscription_name: '3 months', months: 3 },
  { subscription_type_id: HALF_YEARLY, subscription_name: '6 months', months: 6 },
  { subscription_type_id: ANNUAL, subscription_name: '1 year', months: 12 },
];

const rupees = (amount: number) => amount * 100;

export const DEMO_PLANS: PlanInput[] = [
  {
    plan_name: 'Starter',
    sort_order: 1,
    description: 'For a single journal moving its editorial workflow online.',
    no_of_journals: 2,
    features: [
      'Guided author submissions',
      'Automatic format checks',
      'Peer review automation',
      'Built-in plagiarism check',
      'Email support',
    ],
    prices: {
      [INDIA]: { [QUARTERLY]: rupees(12_000), [HALF_YEARLY]: rupees(22_000), [ANNUAL]: rupees(40_000) },
    },
  },
  {
    plan_name: 'Professional',
    sort_order: 2,
    description: 'For publishers running several journals with AI checks at every stage.',
    no_of_journals: 10,
    features: [
      'Everything in Starter',
      'AI relevancy check',
      'References verification',
      'Automated DOI allocation',
      'JATS XML conversion and export',
      'Priority support',
    ],
    prices: {
      [INDIA]: { [QUARTERLY]: rupees(30_000), [HALF_YEARLY]: rupees(55_000), [ANNUAL]: rupees(1_00_000) },
    },
  },
  {
    plan_name: 'Enterprise',
    sort_order: 3,
    description: 'For publishing houses that need every journal, role and report in one place.',
    no_of_journals: null,
    features: [
      'Everything in Professional',
      'Content distribution to indexing services',
      'Performance reports',
      'Custom roles and access levels',
      'Dedicated success manager',
    ],
    // Sold half-yearly and annually only: the Quarterly card shows '-'.
    prices: { [INDIA]: { [HALF_YEARLY]: rupees(1_20_000), [ANNUAL]: rupees(2_20_000) } },
  },
];

const seedPricing: Seeder = async (db) => {
  await saveCountries(db, await readCountries());
  await saveSubscriptionTypes(db, SUBSCRIPTION_TYPES);
  for (const plan of DEMO_PLANS) await savePlan(db, plan);
};

export default seedPricing;
