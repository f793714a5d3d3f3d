import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
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
import { preferredEncoding } from '../plugins/web';

/**
 * The public pricing reads (country lookup and plans): the most visited calls of the site.
 * Each answer is computed once per distinct query and kept for MEMO_TTL_MS as its JSON text, its
 * brotli and gzip copies, and a weak ETag (a hash of the text, so changed data means a changed
 * ETag; weak because the compressed copies are the same answer in other bytes); browsers and
 * shared caches may keep it for CACHE_CONTROL and revalidate with If-None-Match (304).
 */
export const CACHE_CONTROL = 'public, max-age=300';
export const MEMO_TTL_MS = 60_000;
const MEMO_MAX_ENTRIES = 1000;

/** Answers smaller than this are sent as they are: compressing them saves nothing. */
const COMPRESS_FROM_BYTES = 1024;

interface Prepared {
  body: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
  etag: string;
}

function prepare(rows: unknown): Prepared {
  const body = Buffer.from(JSON.stringify(rows));
  const large = body.length >= COMPRESS_FROM_BYTES;
  return {
    body,
    br: large
      ? zlib.brotliCompressSync(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          },
        })
      : null,
    gzip: large ? zlib.gzipSync(body, { level: 9 }) : null,
    etag: `W/"${createHash('sha1').update(body).digest('base64url')}"`,
  };
}

/** If-None-Match holds this ETag (compared weakly, as RFC 9110 says for If-None-Match), or '*'. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

function send(request: FastifyRequest, reply: FastifyReply, answer: Prepared) {
  reply.header('cache-control', CACHE_CONTROL).header('etag', answer.etag).header('vary', 'Accept-Encoding');
  if (etagMatches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  const encoded = encoding === 'br' ? answer.br : encoding === 'gzip' ? answer.gzip : null;
  if (encoded) return reply.header('content-encoding', encoding).send(encoded);
  return reply.send(answer.body);
}

const pricing: FastifyPluginAsyncZod = async (app) => {
  const memo = new Memo<Prepared>(MEMO_TTL_MS, MEMO_MAX_ENTRIES);

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
      return send(request, reply, await memo.get(key, async () => prepare(await findCountries(app.db, q))));
    },
  );

  app.get(
    '/BindPlanDetails',
    { schema: { querystring: BindPlanDetailsQuery, response: { 200: PlanRows } } },
    async (request, reply) => {
      const q = request.query;
      const key = `plans|${q.countryid}|${q.moduleid}|${q.subscriptiontypeid}`;
      return send(request, reply, await memo.get(key, async () => prepare(await planDetails(app.db, q))));
    },
  );
};

export default pricing;
