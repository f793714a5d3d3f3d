import { config } from '../config';
import { readCopy, saveCopy } from '../offline/cache';
import { fetchJson, toQuery } from './client';
import {
  ALL_SUBSCRIPTION_TYPES,
  CountryRows,
  GeoAnswer,
  PlanRows,
  type BindCountryByCodeQueryIn,
  type PlanRow,
} from './contract/pricing';

/** Step 1 of the pricing page load: the visitor's country (VITE_GEO_URL, our /api/geo by default). */
export const getGeo = () => fetchJson(GeoAnswer, config.geoUrl);

/** Step 2: the country id of a code and name; an empty array when nothing matches. */
export const findCountry = (q: { countrycode: string; countryname: string } & BindCountryByCodeQueryIn) =>
  fetchJson(CountryRows, `${config.adminApi}/bind-country-by-code?${toQuery(q)}`);

/** Step 3: the plan rows of a country (moduleid empty: every period). */
export const loadPlans = (countryid: number) =>
  fetchJson(
    PlanRows,
    `${config.adminApi}/BindPlanDetails?${toQuery({ countryid, moduleid: '', subscriptiontypeid: ALL_SUBSCRIPTION_TYPES })}`,
  );

/** Where the last plans shown are kept for a visit without network (src/offline). */
const KEPT = ['pricing', 'plans'] as const;

export interface KeptPlans {
  rows: PlanRow[];
  savedAt: string;
}

export const keepPlans = async (rows: PlanRow[]): Promise<void> => {
  await saveCopy(...KEPT, rows);
};

/** The kept plans, or null when none were kept or the copy no longer fits the contract. */
export async function keptPlans(): Promise<KeptPlans | null> {
  const copy = await readCopy(...KEPT);
  if (!copy) return null;
  const parsed = PlanRows.safeParse(copy.value);
  return parsed.success && parsed.data.length > 0 ? { rows: parsed.data, savedAt: copy.savedAt } : null;
}
