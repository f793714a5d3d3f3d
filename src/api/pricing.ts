import { config } from '../config';
import { fetchJson, toQuery } from './client';
import {
  ALL_SUBSCRIPTION_TYPES,
  CountryRows,
  GeoAnswer,
  PlanRows,
  type BindCountryByCodeQueryIn,
} from '../../contract/pricing';

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
