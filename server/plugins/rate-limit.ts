import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { global } from './global';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Per-client limit for public writes (contact messages, job applications):
     * `app.post(url, { config: { rateLimit: app.publicRateLimit } }, handler)`.
     */
    publicRateLimit: RateLimitOptions;
  }
}

/**
 * Rate limits are opt-in per route (`global: false`) and keyed by the client address (which
 * honours TRUST_PROXY). Counters live in memory; with REDIS_URL they move to Redis so that
 * several processes share them (issue 10).
 */
export const rateLimits = global<{ perMinute: number }>(async (app, { perMinute }) => {
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });
  app.decorate('publicRateLimit', { max: perMinute, timeWindow: 60_000 });
});
