import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Memo } from '../lib/memo';
import { global } from './global';
import { preferredEncoding } from './web';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public list reads (blog, openings), kept briefly as ready-to-send answers. */
    publicReads: PublicReads;
  }
}

export type PublicArea = 'blog' | 'jobs';

export interface PreparedAnswer {
  body: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
  etag: string;
}

export interface PublicReads {
  /** The answer for `key` in `area`: computed by `rows` on a miss, then kept for the TTL. */
  get(area: PublicArea, key: string, rows: () => Promise<unknown>): Promise<PreparedAnswer>;
  /** Forgets an area's answers (after a write in this process). */
  invalidate(area: PublicArea): void;
  /** Sends a prepared answer: ETag (304 on a match), compressed as the client accepts. */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    answer: PreparedAnswer,
    cacheControl: string,
  ): FastifyReply;
}

/** Answers smaller than this are sent as they are: compressing them saves nothing. */
const COMPRESS_FROM_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export async function prepareAnswer(rows: unknown): Promise<PreparedAnswer> {
  const body = Buffer.from(JSON.stringify(rows));
  const large = body.length >= COMPRESS_FROM_BYTES;
  const [br, gz] = large
    ? await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          },
        }),
        gzip(body, { level: 6 }),
      ])
    : [null, null];
  return { body, br, gzip: gz, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** If-None-Match holds this ETag (compared weakly, as RFC 9110 says for If-None-Match), or '*'. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: PreparedAnswer,
  cacheControl: string,
) {
  reply.header('cache-control', cacheControl).header('etag', answer.etag).header('vary', 'Accept-Encoding');
  if (etagMatches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  const encoded = encoding === 'br' ? answer.br : encoding === 'gzip' ? answer.gzip : null;
  if (encoded) return reply.header('content-encoding', encoding).send(encoded);
  return reply.send(answer.body);
}

/**
 * The public lists (GET bind-company-blog, bind-job-openings, bind-job-types) are the site's most
 * read calls and change rarely. Each distinct query's answer is kept `ttlMs` (default 1 s) as its
 * JSON, brotli and gzip bytes and an ETag, so a busy page costs one query a second instead of one
 * per visitor. A write in this process (an admin saving a post or an opening) forgets the area at
 * once. With REDIS_URL the other processes of the site are told on a Redis channel and forget it
 * too; without Redis they see it within the TTL (README "Running at scale").
 */
export const publicReads = global<{ ttlMs: number; redisUrl?: string; redisKeyPrefix?: string }>(
  async (app, { ttlMs, redisUrl, redisKeyPrefix = 'manna:' }) => {
    const memos: Record<PublicArea, Memo<PreparedAnswer>> = {
      blog: new Memo(ttlMs, 2000),
      jobs: new Memo(ttlMs, 2000),
    };
    const isArea = (value: string): value is PublicArea => value === 'blog' || value === 'jobs';
    let announce: (area: PublicArea) => void = () => {};
    if (redisUrl && ttlMs > 0) {
      const channel = `${redisKeyPrefix}public-reads`;
      const me = randomUUID();
      const options = { connectTimeout: 1000, maxRetriesPerRequest: 1 } as const;
      const publisher = new Redis(redisUrl, { ...options, enableOfflineQueue: false });
      const subscriber = new Redis(redisUrl, options);
      // unreachable: answers still expire after the TTL; the rate-limit plugin logs the outage
      publisher.on('error', () => {});
      subscriber.on('error', () => {});
      subscriber.on('message', (_channel: string, message: string) => {
        const [from, area] = message.split(' ');
        if (from !== me && area && isArea(area)) memos[area].clear();
      });
      await Promise.race([
        subscriber.subscribe(channel).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]);
      await Promise.race([
        new Promise((resolve) =>
          publisher.status === 'ready' ? resolve(undefined) : publisher.once('ready', resolve),
        ),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]);
      announce = (area) => void publisher.publish(channel, `${me} ${area}`).catch(() => undefined);
      app.addHook('onClose', async () => {
        await Promise.all([
          publisher.quit().catch(() => publisher.disconnect()),
          subscriber.quit().catch(() => subscriber.disconnect()),
        ]);
      });
    }
    app.decorate('publicReads', {
      get: (area, key, rows) =>
        ttlMs > 0
          ? memos[area].get(key, async () => prepareAnswer(await rows()))
          : rows().then(prepareAnswer),
      invalidate: (area) => {
        memos[area].clear();
        announce(area);
      },
      send: sendPrepared,
    } satisfies PublicReads);
  },
);
