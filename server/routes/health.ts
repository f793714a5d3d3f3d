import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const Healthy = z.object({ status: z.literal('ok'), database: z.literal('ok') });
const Unhealthy = z.object({
  status: z.literal('error'),
  database: z.literal('unavailable'),
  message: z.string(),
});

/** A database that does not answer within this time counts as down. */
const DATABASE_TIMEOUT_MS = 2000;

/** GET /api/health: 200 when a real query succeeds, 503 when the database does not answer. */
const health: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { schema: { response: { 200: Healthy, 503: Unhealthy } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        sql`select 1`.execute(app.db),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`)),
            DATABASE_TIMEOUT_MS,
          );
        }),
      ]);
      return { status: 'ok' as const, database: 'ok' as const };
    } catch (err) {
      request.log.error({ err }, 'Health check: the database query failed');
      return reply
        .code(503)
        .send({ status: 'error', database: 'unavailable', message: 'The database is not answering' });
    } finally {
      clearTimeout(timer);
    }
  });
};

export default health;
