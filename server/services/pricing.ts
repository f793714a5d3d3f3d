import type { BindCountryByCodeQuery, BindPlanDetailsQuery } from '../../contract/pricing';
import * as repo from '../db/pricing.repo';
import type { ServiceContext } from './context';

/** Pricing: the countries list, plans by country and module, and one country by its ISO code. */
export const findCountries = (ctx: ServiceContext, q: BindCountryByCodeQuery) =>
  repo.findCountries(ctx.db, q);
export const planDetails = (ctx: ServiceContext, q: BindPlanDetailsQuery) => repo.planDetails(ctx.db, q);
export const countryByCode = (ctx: ServiceContext, code: string) => repo.countryByCode(ctx.db, code);
