/**
 * Pricing constants, apart from the zod schemas of ./pricing so that the pricing
 * page and its machine can use them without loading zod before hydration (the schemas load with
 * the API module, when the first call is made).
 */

/** Default country id: India, in the countries list the server uses. */
export const DEFAULT_COUNTRY_ID = 101;
/** subscriptiontypeid 0: every period. */
export const ALL_SUBSCRIPTION_TYPES = 0;
/** The plan marked 'Most Popular'. */
export const POPULAR_PLAN = 'Professional';
