import type { FastifyReply, FastifyRequest } from 'fastify';
import { Memo } from '../lib/memo';
import { openRedisChannel } from '../lib/redis-channel';
import fp from 'fastify-plugin';
import { prepareAnswer, sendPrepared, type PreparedAnswer } from '../lib/prepared-answer';

declare module 'fastify' {
  interface FastifyInstance {
    /** The much-read public answers (blog, openings, pricing), kept briefly as ready-to-send bytes. */
    publicReads: PublicReads;
  }
}

/** blog and jobs are kept PUBLIC_READ_CACHE_MS and forgotten on a write; pricing a minute. */
export type PublicArea = 'blog' | 'jobs' | 'pricing';

/** How long pricing answers are kept: plans change only with a release. */
export const PRICING_TTL_MS = 60_000;

export interface PublicRead {
  area: PublicArea;
  /** The distinct query, from the validated request (not its raw address). */
  key: string;
  /** The rows, on a miss. */
  rows: () => Promise<unknown>;
  cacheControl: string;
}

export interface PublicReads {
  /**
   * Answers a public read: from the area's kept answers, or computed by `rows` and kept; sent with
   * an ETag (304 on a match) and compressed as the client accepts. The front door (lib/front-door.ts)
   * may then answer the same address itself while the answer is kept.
   */
  answer(request: FastifyRequest, reply: FastifyReply, read: PublicRead): Promise<FastifyReply>;
  /** Forgets an area's answers (after a write in this process). */
  invalidate(area: 'blog' | 'jobs'): void;
}

/**
 * The public lists (GET bind-company-blog, bind-job-openings, bind-job-types) are the site's most
 * read calls and change rarely. Each distinct query's answer is kept `ttlMs` (default 1 s) as its
 * JSON, brotli and gzip bytes and an ETag, so a busy page costs one query a second instead of one
 * per visitor. A write in this process (an admin saving a post or an opening) forgets the area at
 * once. With REDIS_URL the other processes of the site are told on a Redis channel and forget it
 * too; without Redis they see it within the TTL (README "Running at scale"). Pricing (countries
 * and plans) is kept a minute, compressed harder, and never written through the site.
 */
export const publicReads = fp<{ ttlMs: number; redisUrl?: string; redisKeyPrefix?: string }>(
  async (app, { ttlMs, redisUrl, redisKeyPrefix = 'manna:' }) => {
    const memos: Record<PublicArea, Memo<PreparedAnswer>> = {
      blog: new Memo(ttlMs, 2000),
      jobs: new Memo(ttlMs, 2000),
      pricing: new Memo(PRICING_TTL_MS, 1000),
    };
    // brotli quality: 6 for answers kept a second, 9 for those kept a minute
    const quality: Record<PublicArea, number> = { blog: 6, jobs: 6, pricing: 9 };
    const kept = (area: PublicArea) => area === 'pricing' || ttlMs > 0;
    const isArea = (value: string): value is 'blog' | 'jobs' => value === 'blog' || value === 'jobs';
    let announce: (area: 'blog' | 'jobs') => void = () => {};
    if (redisUrl && ttlMs > 0) {
      const channel = await openRedisChannel(redisUrl, `${redisKeyPrefix}public-reads`, (area) => {
        if (isArea(area)) memos[area].clear();
      });
      announce = (area) => channel.publish(area);
      app.addHook('onClose', () => channel.close());
    }
    app.decorate('publicReads', {
      async answer(request, reply, { area, key, rows, cacheControl }) {
        if (!kept(area)) return sendPrepared(request, reply, await rows().then(prepareAnswer), cacheControl);
        const memo = memos[area];
        const pending = memo.get(key, async () => prepareAnswer(await rows(), quality[area]));
        const answer = await pending;
        if (request.method === 'GET' && request.routeOptions.url) {
          app.frontDoor.keep(request.url, {
            answer,
            cacheControl,
            route: request.routeOptions.url,
            fresh: () => memo.holds(key, pending),
          });
        }
        return sendPrepared(request, reply, answer, cacheControl);
      },
      invalidate: (area) => {
        memos[area].clear();
        announce(area);
      },
    } satisfies PublicReads);
  },
  { name: 'public-reads', decorators: { fastify: ['frontDoor'] } },
);
