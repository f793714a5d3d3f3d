import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import fp from 'fastify-plugin';
import { clientKey } from '../lib/client-key';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Per-client limit for public writes (contact messages, job applications):
     * `app.post(url, { config: { rateLimit: app.publicRateLimit } }, handler)`.
     */
    publicRateLimit: RateLimitOptions;
    /** Per-client limit for pages rendered on request (blog permalinks). */
    pageRenderRateLimit: RateLimitOptions;
  }
}

/**
 * Rate limits are opt-in per route (`global: false`) and keyed by the client address (which
 * honours TRUST_PROXY). Counters live in memory; with REDIS_URL they live in Redis, so that every
 * process of the site counts against the same limit.
 *
 * Redis unreachable: the limit is skipped (`skipOnError`) and a warning logged, so a Redis outage
 * never takes the contact form or the applications down; the login throttle does not depend on it
 * (it is kept in the database, server/db/auth.repo.ts).
 */
export const rateLimits = fp<{
  perMinute: number;
  pageRendersPerMinute?: number;
  redisUrl?: string;
  redisKeyPrefix?: string;
}>(
  async (app, { perMinute, pageRendersPerMinute = 120, redisUrl, redisKeyPrefix = 'manna:' }) => {
    let redis: Redis | undefined;
    if (redisUrl) {
      redis = new Redis(redisUrl, {
        // answer quickly when Redis is away instead of queueing requests behind reconnects
        connectTimeout: 1000,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        lazyConnect: false,
      });
      let warned = false;
      redis.on('error', (err: Error) => {
        if (!warned)
          app.log.warn(
            { err: err.message },
            'Redis unavailable: rate limits are not counted until it is back',
          );
        warned = true;
      });
      redis.on('ready', () => {
        if (warned) app.log.info('Redis is back: rate limits are counted again');
        warned = false;
      });
      app.addHook('onClose', async () => {
        await redis?.quit().catch(() => redis?.disconnect());
      });
      // start counting from the first request: wait (briefly) for the connection
      const connecting = redis;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        connecting.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, nameSpace: `${redisKeyPrefix}rate-limit:`, skipOnError: true } : {}),
      keyGenerator: (request) => clientKey(request.ip), // an IPv6 client by its /64
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message: `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      }),
    });
    app.decorate('publicRateLimit', { max: perMinute, timeWindow: 60_000 });
    app.decorate('pageRenderRateLimit', { max: pageRendersPerMinute, timeWindow: 60_000 });
  },
  { name: 'rate-limit' },
);
