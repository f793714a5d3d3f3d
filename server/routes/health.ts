import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { databaseAnswers, migrationsPending, storageAnswers } from '../services/health';

const Healthy = z.object({ status: z.literal('ok'), database: z.literal('ok') });
const Unhealthy = z.object({
  status: z.literal('error'),
  database: z.literal('unavailable'),
  message: z.string(),
});
const Check = z.enum(['ok', 'unavailable', 'behind']);
const Readiness = z.object({
  status: z.enum(['ok', 'error']),
  database: Check,
  migrations: Check,
  storage: Check,
});

/** A dependency that does not answer within this time counts as down. */
const DATABASE_TIMEOUT_MS = 2000;

/** `work` within the timeout, or a rejection naming the timeout. */
async function within<T>(work: Promise<T>, ms = DATABASE_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/health (liveness: the process answers and a real query succeeds) and GET /api/ready
 * (readiness: the database answers, every migration has run, and the file store answers). A load
 * balancer polls /api/ready; an orchestrator restarts on /api/health.
 */
const health: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { schema: { response: { 200: Healthy, 503: Unhealthy } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await within(databaseAnswers(app.services(request)));
      return { status: 'ok' as const, database: 'ok' as const };
    } catch (err) {
      request.log.error({ err }, 'Health check: the database query failed');
      return reply
        .code(503)
        .send({ status: 'error', database: 'unavailable', message: 'The database is not answering' });
    }
  });

  app.get('/ready', { schema: { response: { 200: Readiness, 503: Readiness } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const answer: z.infer<typeof Readiness> = {
      status: 'ok',
      database: 'ok',
      migrations: 'ok',
      storage: 'ok',
    };
    const ctx = app.services(request);
    try {
      await within(databaseAnswers(ctx));
      const pending = await within(migrationsPending(ctx));
      if (pending.length > 0) {
        answer.migrations = 'behind';
        request.log.warn({ pending }, 'Readiness: migrations have not run');
      }
    } catch (err) {
      answer.database = 'unavailable';
      answer.migrations = 'unavailable';
      request.log.error({ err }, 'Readiness: the database query failed');
    }
    try {
      await within(storageAnswers(ctx));
    } catch (err) {
      answer.storage = 'unavailable';
      request.log.error({ err }, 'Readiness: the file store is not answering');
    }
    const ready = answer.database === 'ok' && answer.migrations === 'ok' && answer.storage === 'ok';
    if (!ready) answer.status = 'error';
    return reply.code(ready ? 200 : 503).send(answer);
  });
};

export default health;
