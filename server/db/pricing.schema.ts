import type { Generated } from 'kysely';

/**
 * Tables of the pricing area (migrations 0100-0199): countries, subscription periods, plans and
 * their prices. `Database` in schema.ts extends this interface.
 */
export interface CountryTable {
  /** The id of the widely used countries list (India is 101). */
  country_id: number;
  country_name: string;
  /** ISO 3166-1 alpha-2, upper case. */
  iso2: string;
  /** ISO 4217 code of the country's currency. */
  currency: string;
}

export interface SubscriptionTypeTable {
  /** 1 quarterly, 2 half-yearly, 3 annual. */
  subscription_type_id: number;
  /** Contains 3, 6 or 'year', e.g. '3 months'. */
  subscription_name: string;
  months: number;
}

export interface PlanTable {
  plan_id: Generated<number>;
  /** The product module the plan belongs to (1: manuscript management). */
  module_id: Generated<number>;
  plan_name: string;
  description: string;
  /** null means Unlimited. */
  no_of_journals: number | null;
  /** Comma-separated; a feature never contains a comma. */
  features: string;
  sort_order: Generated<number>;
}

export interface PlanPriceTable {
  plan_id: number;
  country_id: number;
  subscription_type_id: number;
  /** Whole minor units (paise for INR) of the country's currency. */
  amount_minor: number;
}

export interface PricingTables {
  country: CountryTable;
  subscription_type: SubscriptionTypeTable;
  plan: PlanTable;
  plan_price: PlanPriceTable;
}
