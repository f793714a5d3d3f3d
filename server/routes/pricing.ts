import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BindCountryByCodeQuery,
  BindPlanDetailsQuery,
  CountryRows,
  PlanRows,
} from '../../src/api/contract/pricing';
import { HttpError } from '../http-error';
import { findCountries, planDetails } from '../db/pricing.repo';
import { Memo } from '../lib/memo';
import { prepareAnswer, sendPrepared, type PreparedAnswer } from '../lib/prepared-answer';

/**
 * The public pricing reads (country lookup and plans): the most visited calls of the site.
 * Each answer is prepared once per distinct query (lib/prepared-answer.ts) and kept for
 * MEMO_TTL_MS; browsers and shared caches may keep it for CACHE_CONTROL and revalidate with
 * If-None-Match (304).
 */
export const CACHE_CONTROL = 'public, max-age=300';
export const MEMO_TTL_MS = 60_000;
const MEMO_MAX_ENTRIES = 1000;

const pricing: FastifyPluginAsyncZod = async (app) => {
  const memo = new Memo<PreparedAnswer>(MEMO_TTL_MS, MEMO_MAX_ENTRIES);
  const send = (request: FastifyRequest, reply: FastifyReply, answer: PreparedAnswer) =>
    sendPrepared(request, reply, answer, CACHE_CONTROL);

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
      return send(
        request,
        reply,
        await memo.get(key, async () => prepareAnswer(await findCountries(app.db, q), 9)),
      );
    },
  );

  app.get(
    '/BindPlanDetails',
    { schema: { querystring: BindPlanDetailsQuery, response: { 200: PlanRows } } },
    async (request, reply) => {
      const q = request.query;
      const key = `plans|${q.countryid}|${q.moduleid}|${q.subscriptiontypeid}`;
      return send(
        request,
        reply,
        await memo.get(key, async () => prepareAnswer(await planDetails(app.db, q), 9)),
      );
    },
  );
};

export default pricing;
