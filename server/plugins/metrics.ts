import { timingSafeEqual, createHash } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { poolUse } from '../db/database';
import { allTaskStates } from '../db/scheduled-task.repo';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Prometheus metrics of this process (undefined when METRICS_TOKEN is not set). */
    metrics: Registry | undefined;
    /** Counts one answered request (the onResponse hook's, and the front door's). */
    countRequest: (method: string, route: string, status: number, seconds: number) => void;
    /** Counts one connection refused past MAX_CONNECTIONS (lib/connection-limits.ts). */
    countRefusedConnection: (kind: 'closed' | 'reserve' | 'client') => void;
  }
}

/** The route of a request as registered ('/api/admin/users/:id'), never its address. */
const routeOf = (request: { routeOptions: { url?: string } }) => request.routeOptions.url ?? 'unmatched';

const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/**
 * GET /metrics in the Prometheus text format (prom-client), only when METRICS_TOKEN is set, and
 * then only with `Authorization: Bearer <METRICS_TOKEN>` (404 without the setting, 401 without the
 * token): it is for the operator's Prometheus, never public. It shows
 *
 * - http_requests_total and http_request_duration_seconds by method, route pattern and status;
 * - manna_connections_refused_total{kind} (past MAX_CONNECTIONS: closed, or 503 from the reserve);
 * - manna_db_pool_connections{state} (PostgreSQL's pool: total, idle, waiting);
 * - manna_scheduled_task_last_run_timestamp_seconds and manna_scheduled_task_last_run_ok by task
 *   (the daily retention purge; every task of the scheduled_task table);
 * - Node's process metrics (CPU, memory, event loop lag, handles, GC).
 *
 * Each process has its own registry: behind a load balancer, Prometheus scrapes each process.
 */
export const metrics = fp<{ token?: string }>(
  async (app, { token }) => {
    if (!token) {
      app.decorate('metrics', undefined);
      app.decorate('countRequest', () => {});
      app.decorate('countRefusedConnection', () => {});
      // not a page either: the address simply does not exist here
      app.get('/metrics', async (_request, reply) => reply.code(404).send({ message: 'Not found' }));
      return;
    }
    const registry = new Registry();
    app.decorate('metrics', registry);
    collectDefaultMetrics({ register: registry });

    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const countRequest = (method: string, route: string, status: number, seconds: number) => {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    };
    app.decorate('countRequest', countRequest);
    const refused = new Counter({
      name: 'manna_connections_refused_total',
      help: 'Connections refused: past MAX_CONNECTIONS (closed at once, or 503 from the health-check reserve), or past MAX_CONNECTIONS_PER_CLIENT (client)',
      labelNames: ['kind'] as const,
      registers: [registry],
    });
    app.decorate('countRefusedConnection', (kind: 'closed' | 'reserve' | 'client') => refused.inc({ kind }));
    app.addHook('onResponse', async (request, reply) => {
      countRequest(request.method, routeOf(request), reply.statusCode, reply.elapsedTime / 1000);
    });

    new Gauge({
      name: 'manna_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on SQLite',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const use = poolUse(app.db);
        if (!use) return;
        this.set({ state: 'total' }, use.total);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'waiting' }, use.waiting);
      },
    });

    // One query per scrape, shared by the two task gauges.
    let tasks: Promise<{ name: string; last_run_at: string | null; last_result: string | null }[]> | null =
      null;
    const readTasks = () =>
      (tasks ??= allTaskStates(app.db).finally(() => setImmediate(() => (tasks = null))));
    new Gauge({
      name: 'manna_scheduled_task_last_run_timestamp_seconds',
      help: 'When each scheduled task (retention purge) last ran, in Unix seconds',
      labelNames: ['task'] as const,
      registers: [registry],
      async collect() {
        for (const t of await readTasks()) {
          if (t.last_run_at) this.set({ task: t.name }, Date.parse(t.last_run_at) / 1000);
        }
      },
    });
    new Gauge({
      name: 'manna_scheduled_task_last_run_ok',
      help: 'Whether the last run of each scheduled task succeeded (1) or failed (0)',
      labelNames: ['task'] as const,
      registers: [registry],
      async collect() {
        for (const t of await readTasks()) {
          if (t.last_result !== null) this.set({ task: t.name }, t.last_result.startsWith('failed') ? 0 : 1);
        }
      },
    });

    app.get('/metrics', async (request, reply) => {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      reply.header('cache-control', 'no-store');
      if (!given || !sameSecret(given, token)) {
        return reply.code(401).header('www-authenticate', 'Bearer').send({ message: 'Unauthorized' });
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'metrics', decorators: { fastify: ['db'] } },
);
