import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Memo } from '../lib/memo';
import { global } from './global';
import { prepareAnswer, sendPrepared, type PreparedAnswer } from '../lib/prepared-answer';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public list reads (blog, openings), kept briefly as ready-to-send answers. */
    publicReads: PublicReads;
  }
}

export type PublicArea = 'blog' | 'jobs';

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
