import type { Kysely } from 'kysely';
import {
  DEFAULT_COUNTRY_ID,
  type BindCountryByCodeQuery,
  type BindPlanDetailsQuery,
  type CountryRow,
  type PlanRow,
} from '../../contract/pricing';
import type { Database } from './schema';

/**
 * Countries, plans and prices. Plain functions taking `db` first; they work inside a transaction
 * too. The answers keep the spec's row shapes.
 */

type Db = Kysely<Database>;

/** What no_of_journals says for a plan without a limit. */
export const UNLIMITED = 'Unlimited';

/**
 * A price in whole minor units as the spec's string with thousands commas. INR is grouped the
 * Indian way (lakh, crore: 12,000 / 1,20,000 / 12,00,000), every other currency in threes; paise
 * or cents show only when there are any ('12,000.50').
 */
export function formatPrice(amountMinor: number, currency: string): string {
  const fraction = amountMinor % 100 !== 0;
  return new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', {
    minimumFractionDigits: fraction ? 2 : 0,
    maximumFractionDigits: 2,
    useGrouping: true,
  }).format(amountMinor / 100);
}

/** The country with this ISO code (any letter case), for the geolocation answer. */
export async function countryByCode(db: Db, code: string) {
  return db
    .selectFrom('country')
    .select(['country_id', 'country_name', 'iso2'])
    .where('iso2', '=', code.toUpperCase())
    .executeTakeFirst();
}

/**
 * bind-country-by-code: the country with the ISO code, else the one with exactly that name
 * (letter case and surrounding spaces ignored); an empty array when neither matches.
 */
export async function findCountries(db: Db, q: BindCountryByCodeQuery): Promise<CountryRow[]> {
  const columns = ['country_id', 'country_name', 'iso2 as country_code'] as const;
  if (q.countrycode) {
    const byCode = await db
      .selectFrom('country')
      .select(columns)
      .where('iso2', '=', q.countrycode.toUpperCase())
      .execute();
    if (byCode.length > 0) return byCode;
  }
  if (q.countryname) {
    return db
      .selectFrom('country')
      .select(columns)
      .where((eb) => eb(eb.fn('lower', ['country_name']), '=', q.countryname.toLowerCase()))
      .orderBy('country_id')
      .limit(1)
      .execute();
  }
  return [];
}

function planRowsOf(db: Db, countryId: number, q: BindPlanDetailsQuery) {
  let query = db
    .selectFrom('plan_price')
    .innerJoin('plan', 'plan.plan_id', 'plan_price.plan_id')
    .innerJoin(
      'subscription_type',
      'subscription_type.subscription_type_id',
      'plan_price.subscription_type_id',
    )
    .innerJoin('country', 'country.country_id', 'plan_price.country_id')
    .select([
      'plan.plan_id',
      'plan.plan_name',
      'plan.description',
      'plan.no_of_journals',
      'plan.features',
      'plan_price.subscription_type_id',
      'subscription_type.subscription_name',
      'plan_price.amount_minor',
      'plan_price.country_id',
      'country.currency',
    ])
    .where('plan_price.country_id', '=', countryId);
  if (q.moduleid) query = query.where('plan.module_id', '=', q.moduleid);
  if (q.subscriptiontypeid) query = query.where('plan_price.subscription_type_id', '=', q.subscriptiontypeid);
  return query
    .orderBy('plan.sort_order')
    .orderBy('plan.plan_id')
    .orderBy('subscription_type.months')
    .execute();
}

/**
 * BindPlanDetails: one row per plan and period for the country, ordered by plan and period. A
 * country with no prices (for the asked module and period) gets India's plans; countryid 0 means
 * India.
 */
export async function planDetails(db: Db, q: BindPlanDetailsQuery): Promise<PlanRow[]> {
  const asked = q.countryid || DEFAULT_COUNTRY_ID;
  let rows = await planRowsOf(db, asked, q);
  if (rows.length === 0 && asked !== DEFAULT_COUNTRY_ID) rows = await planRowsOf(db, DEFAULT_COUNTRY_ID, q);
  return rows.map((r) => ({
    plan_id: r.plan_id,
    plan_name: r.plan_name,
    subscription_type_id: r.subscription_type_id,
    subscription_name: r.subscription_name,
    price: formatPrice(r.amount_minor, r.currency),
    currency: r.currency,
    country_id: r.country_id,
    description: r.description,
    no_of_journals: r.no_of_journals ?? UNLIMITED,
    features: r.features,
  }));
}

// ---- writes (seeders; a future admin screen)

export interface CountryInput {
  id: number;
  name: string;
  iso2: string;
  currency: string;
}

/** Inserts or updates countries by id, in one statement. */
export async function saveCountries(db: Db, countries: CountryInput[]): Promise<void> {
  if (countries.length === 0) return;
  await db
    .insertInto('country')
    .values(
      countries.map((c) => ({
        country_id: c.id,
        country_name: c.name.trim(),
        iso2: c.iso2.toUpperCase(),
        currency: c.currency.toUpperCase(),
      })),
    )
    .onConflict((oc) =>
      oc.column('country_id').doUpdateSet((eb) => ({
        country_name: eb.ref('excluded.country_name'),
        iso2: eb.ref('excluded.iso2'),
        currency: eb.ref('excluded.currency'),
      })),
    )
    .execute();
}

export interface SubscriptionTypeInput {
  subscription_type_id: number;
  subscription_name: string;
  months: number;
}

export async function saveSubscriptionTypes(db: Db, types: SubscriptionTypeInput[]): Promise<void> {
  for (const t of types) {
    await db
      .insertInto('subscription_type')
      .values(t)
      .onConflict((oc) =>
        oc
          .column('subscription_type_id')
          .doUpdateSet({ subscription_name: t.subscription_name, months: t.months }),
      )
      .execute();
  }
}

export interface PlanInput {
  plan_name: string;
  module_id?: number;
  description: string;
  /** null: Unlimited. */
  no_of_journals: number | null;
  features: string[];
  sort_order: number;
  /** Whole minor units per country id and subscription type id: { 101: { 1: 1_200_000 } }. */
  prices: Record<number, Partial<Record<number, number>>>;
}

/**
 * Inserts or updates a plan by name and replaces its prices for the countries given. A feature
 * may not contain a comma, since the answer joins them with commas.
 */
export async function savePlan(db: Db, plan: PlanInput): Promise<number> {
  const bad = plan.features.find((f) => f.includes(',') || f.trim() === '');
  if (bad !== undefined) throw new Error(`Plan ${plan.plan_name}: feature "${bad}" is empty or has a comma`);
  return db.transaction().execute(async (trx) => {
    const row = {
      module_id: plan.module_id ?? 1,
      description: plan.description,
      no_of_journals: plan.no_of_journals,
      features: plan.features.map((f) => f.trim()).join(', '),
      sort_order: plan.sort_order,
    };
    const { plan_id } = await trx
      .insertInto('plan')
      .values({ plan_name: plan.plan_name, ...row })
      .onConflict((oc) => oc.column('plan_name').doUpdateSet(row))
      .returning('plan_id')
      .executeTakeFirstOrThrow();
    for (const [countryId, byType] of Object.entries(plan.prices)) {
      await trx
        .deleteFrom('plan_price')
        .where('plan_id', '=', plan_id)
        .where('country_id', '=', Number(countryId))
        .execute();
      const values = Object.entries(byType)
        .filter((entry): entry is [string, number] => entry[1] !== undefined)
        .map(([typeId, amount]) => ({
          plan_id,
          country_id: Number(countryId),
          subscription_type_id: Number(typeId),
          amount_minor: amount,
        }));
      if (values.length > 0) await trx.insertInto('plan_price').values(values).execute();
    }
    return plan_id;
  });
}
