import { z } from 'zod/mini';
import { ID_MAX } from './ids';
import { ALL_SUBSCRIPTION_TYPES, DEFAULT_COUNTRY_ID } from './pricing-constants';

/**
 * The pricing page's calls (country lookup, plans) and their rows. Shared by
 * the server (request validation) and the browser (answer checks). A customer's backend with the
 * spec's contract may leave out our additions (plan_id, subscription_type_id, currency,
 * country_id) and may send a price as a number or leave it empty.
 */

export { ALL_SUBSCRIPTION_TYPES, DEFAULT_COUNTRY_ID, POPULAR_PLAN } from './pricing-constants';

/** GET geo: the visitor's country, from our server or an external IP-geolocation service. */
export const GeoAnswer = z.object({
  country_name: z.string(),
  country_code: z.string(),
});
export type GeoAnswer = z.infer<typeof GeoAnswer>;

/** GET bind-country-by-code: an array whose first item has country_id (empty when nothing matches). */
export const CountryRow = z.object({
  country_id: z.number().check(z.int()),
  country_name: z.optional(z.string()),
  country_code: z.optional(z.string()),
});
export type CountryRow = z.infer<typeof CountryRow>;
export const CountryRows = z.array(CountryRow);

export const BindCountryByCodeQuery = z.object({
  /** ISO 3166-1 alpha-2 code, any letter case; empty to match by name only. */
  countrycode: z._default(
    z.string().check(z.trim(), z.regex(/^([A-Za-z]{2})?$/, { error: 'must be a two-letter country code' })),
    '',
  ),
  countryname: z._default(
    z.string().check(z.trim(), z.maxLength(100, { error: 'must be at most 100 characters' })),
    '',
  ),
});
export type BindCountryByCodeQuery = z.output<typeof BindCountryByCodeQuery>;
export type BindCountryByCodeQueryIn = z.input<typeof BindCountryByCodeQuery>;

/**
 * One plan in one period. `subscription_name` contains 3 (quarterly), 6 (half-yearly) or 'year'
 * (annual); `price` is a string with thousands commas (this server groups INR the Indian way:
 * '1,20,000'); `no_of_journals` is a number or 'Unlimited'; `features` is comma-separated.
 */
export const PlanRow = z.object({
  plan_name: z.string(),
  subscription_name: z.string(),
  price: z.nullish(z.union([z.string(), z.number()])),
  description: z.string(),
  no_of_journals: z.union([z.number(), z.string()]),
  features: z.string(),
  plan_id: z.optional(z.number().check(z.int())),
  subscription_type_id: z.optional(z.number().check(z.int())),
  /** ISO 4217 code of the price; INR when absent. */
  currency: z.optional(z.string()),
  /** The country whose prices these are (101 when the asked country has none). */
  country_id: z.optional(z.number().check(z.int())),
});
export type PlanRow = z.infer<typeof PlanRow>;
export const PlanRows = z.array(PlanRow);

const whole = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce
    .number({ error })
    .check(z.int({ error }), z.minimum(min, { error }), z.maximum(max, { error }));
};

/**
 * GET BindPlanDetails. countryid: 101 when empty or 0. moduleid: empty or 0 for every module.
 * subscriptiontypeid: 0 for every period, else 1 quarterly, 2 half-yearly, 3 annual.
 */
export const BindPlanDetailsQuery = z.object({
  countryid: z._default(whole(0, ID_MAX), DEFAULT_COUNTRY_ID),
  moduleid: z._default(whole(0, ID_MAX), 0),
  subscriptiontypeid: z._default(whole(0, 3), ALL_SUBSCRIPTION_TYPES),
});
export type BindPlanDetailsQuery = z.output<typeof BindPlanDetailsQuery>;
