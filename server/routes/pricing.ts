import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BindCountryByCodeQuery,
  BindPlanDetailsQuery,
  CountryRows,
  PlanRows,
} from '../../contract/pricing';
import { HttpError } from '../http-error';
import { findCountries, planDetails } from '../services/pricing';

/**
 * The public pricing reads (country lookup and plans): the most visited calls of the site.
 * Each answer is prepared once per distinct query and kept a minute (plugins/public-reads.ts);
 * browsers and shared caches may keep it for CACHE_CONTROL and revalidate with If-None-Match (304).
 */
export const CACHE_CONTROL = 'public, max-age=300';

const pricing: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/bind-country-by-code',
    { schema: { querystring: BindCountryByCodeQuery, response: { 200: CountryRows } } },
    async (request, reply) => {
      const q = request.query;
      if (!q.countrycode && !q.countryname) {
        throw new HttpError(400, 'countrycode or countryname is required', {
          countrycode: 'give a two-letter country code or a country name',
        });
      }
      const key = `country|${q.countrycode.toUpperCase()}|${q.countryname.toLowerCase()}`;
      return app.publicReads.answer(request, reply, {
        area: 'pricing',
        key,
        rows: () => findCountries(app.services(request), q),
        cacheControl: CACHE_CONTROL,
      });
    },
  );

  app.get(
    '/BindPlanDetails',
    { schema: { querystring: BindPlanDetailsQuery, response: { 200: PlanRows } } },
    async (request, reply) => {
      const q = request.query;
      const key = `plans|${q.countryid}|${q.moduleid}|${q.subscriptiontypeid}`;
      return app.publicReads.answer(request, reply, {
        area: 'pricing',
        key,
        rows: () => planDetails(app.services(request), q),
        cacheControl: CACHE_CONTROL,
      });
    },
  );
};

export default pricing;
