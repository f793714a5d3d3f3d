import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import proxyAddr from '@fastify/proxy-addr';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyPluginAsync,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Config } from './config';
import { createDatabase, dialectOf, type Dialect } from './db/database';
import type { Database } from './db/schema';
import { HttpError } from './http-error';
import { FrontDoor, type TrustFunction } from './lib/front-door';
import { rewriteLanguageAddress } from './lib/language-address';
import { limitConnections, serverOptions } from './lib/connection-limits';
import { logDestination } from './lib/log-destination';
import { requestLogFields } from './lib/log-redaction';
import { listeners } from './events/listeners';
import { auth } from './plugins/auth';
import { events } from './plugins/events';
import { mail } from './plugins/mail';
import { metrics } from './plugins/metrics';
import { rateLimits } from './plugins/rate-limit';
import { publicReads } from './plugins/public-reads';
import { unavailableMessage } from './lib/dependency-errors';
import { versionTag } from './lib/versions';
import { apiSecurityHeaders, security } from './plugins/security';
import { scheduledTasks } from './plugins/scheduled-tasks';
import { services } from './plugins/services';
import { staffStream } from './plugins/staff-stream';
import { webhooks } from './plugins/webhooks';
import { siteSearch } from './plugins/site-search';
import { visitorGeo } from './plugins/visitor-geo';
import { storage } from './plugins/storage';
import { readBuild, web } from './plugins/web';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Kysely<Database>;
    /** 'sqlite' or 'postgres', for the few queries that differ (full-text search). */
    dialect: Dialect;
    /** Answers repeated public reads before Fastify sees them (lib/front-door.ts). */
    frontDoor: FrontDoor;
  }
}

export type BuildOptions = {
  /** false silences logs (tests); default: pino at config.LOG_LEVEL. */
  logger?: boolean;
  /** Where logs go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** Use this database instead of opening the one of the settings; the app still destroys it on close. */
  db?: Kysely<Database>;
};

export const routesDir = fileURLToPath(new URL('./routes', import.meta.url));

/**
 * A route module: `server/routes/<area>.ts` (`.js` in the container image's compiled server, see
 * scripts/container-server.mjs) default-exports a FastifyPluginAsyncZod. Its routes
 * live under `/api` unless the module also exports `prefix` (for example `'/media'`, or `''` for
 * addresses at the root such as `/feed.xml`).
 */
type RouteModule = { default?: unknown; prefix?: unknown };

async function loadRouteModules(dir: string) {
  const files = (await fs.readdir(dir))
    .filter((f) => /\.[tj]s$/.test(f) && !/\.(test|d)\.ts$/.test(f))
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const module = (await import(pathToFileURL(path.join(dir, file)).href)) as RouteModule;
      if (typeof module.default !== 'function')
        throw new Error(`Route module ${file} has no default export plugin`);
      if (module.prefix !== undefined && typeof module.prefix !== 'string')
        throw new Error(`Route module ${file}: prefix must be a string`);
      return { file, plugin: module.default as FastifyPluginAsync, prefix: module.prefix ?? '/api' };
    }),
  );
}

/** Turns a validation error into `{ field: message }` (field paths joined with "."). */
function fieldErrors(error: FastifyError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.validation ?? []) {
    const field =
      issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'request';
    errors[field] ??= issue.message ?? 'Invalid value';
  }
  return errors;
}

/**
 * TRUST_PROXY as the one function Fastify and the front door ask (undefined: no proxy is trusted).
 * Fastify ignores a bare hop count (it cannot check the nearest peer), so hops become the
 * equivalent function: trust the socket peer and the next hops-1 forwarded addresses.
 */
function trustProxy(setting: Config['TRUST_PROXY']): TrustFunction | undefined {
  if (setting === false) return undefined;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}

/**
 * The id of a request: the X-Request-Id a trusted proxy sent (letters, digits and `-_.:`, at most
 * 100), so a request can be followed from the proxy's log to ours; a new UUID otherwise.
 */
export function requestIdOf(header: string | string[] | undefined, trusted: boolean): string {
  const given = Array.isArray(header) ? header[0] : header;
  return trusted && given && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
}

/** PostgreSQL's "numeric value out of range" and "invalid text representation" (SQLSTATE). */
export const isClientValueError = (error: unknown) =>
  error instanceof pg.DatabaseError && (error.code === '22003' || error.code === '22P02');

/** The one request line (onResponse and the front door): never a cookie, a body or a search. */
function logAnswer(
  log: FastifyBaseLogger,
  reqId: string | undefined,
  req: Parameters<typeof requestLogFields>[0],
  route: string | null,
  status: number,
  ms: number,
  user: number | null,
) {
  log.info({ ...(reqId !== undefined && { reqId }), req, route, status, ms, user }, 'request');
}

const isApiPath = (url: string) => /^\/(api|media)(\/|\?|$)/.test(url);

/** Builds the whole server (API, pages, files) for the settings; `listen` is the caller's. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const trust = trustProxy(config.TRUST_PROXY);
  const requestId = (request: http.IncomingMessage) =>
    requestIdOf(request.headers['x-request-id'], trust !== undefined);
  const frontDoor = new FrontDoor({
    headers: apiSecurityHeaders({ isHttps: config.isHttps }),
    trust,
    requestId,
    report: (answer) => {
      logAnswer(app.log, answer.id, answer, answer.route, answer.status, answer.ms, null);
      app.countRequest(answer.method, answer.route, answer.status, answer.ms / 1000);
    },
  });
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            serializers: { req: requestLogFields },
            ...(options.logStream
              ? { stream: options.logStream }
              : process.stdout.isTTY
                ? // a person at a terminal reads lines, not JSON; a service manager or pipe gets JSON
                  {
                    transport: {
                      target: 'pino-pretty',
                      options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
                    },
                  }
                : // asynchronous, in batches, never more than 16 MB waiting (lib/log-destination.ts)
                  { stream: logDestination() }),
          },
    trustProxy: trust ?? false,
    // Fastify's own HTTP server, with the front door before Fastify's handler
    serverFactory: (handler) => {
      // the time a client may take and the connections a process holds (lib/connection-limits.ts)
      const limits = {
        requestTimeoutMs: config.REQUEST_TIMEOUT_SECONDS * 1000,
        headersTimeoutMs: config.HEADERS_TIMEOUT_SECONDS * 1000,
        keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
        maxConnections: config.MAX_CONNECTIONS,
        maxPerClient: config.MAX_CONNECTIONS_PER_CLIENT,
        isProxy: trust && ((address: string) => trust(address, 0)),
      };
      let admit: ReturnType<typeof limitConnections> = () => true;
      const server = http.createServer(serverOptions(limits), (request, response) => {
        if (admit(request, response) && !frontDoor.serve(request, response)) handler(request, response);
      });
      admit = limitConnections(server, limits, (kind) => app.countRefusedConnection(kind));
      return server;
    },
    // one log line per request, written when it is answered (below), instead of Fastify's two
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    genReqId: requestId,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // a page's language is in its address: `/de/pricing` is routed as `/pricing` in German
    // (lib/language-address.ts, docs/decisions/041-language-addresses.md)
    rewriteUrl: rewriteLanguageAddress,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = options.db ?? createDatabase(config.database, app.log);
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('dialect', dialectOf(db));
  app.decorate('frontDoor', frontDoor);
  app.addHook('onClose', async () => {
    await db.destroy();
  });

  // Graceful shutdown: close() refuses new requests (503) and waits for in-flight ones. Answers
  // sent while closing carry `Connection: close`, so a keep-alive socket does not hold the
  // shutdown open until its idle timeout.
  // The request log: method, address (secrets, emails and searches redacted), route pattern,
  // status, duration, request id and the signed-in user's id; never a cookie or a body.
  app.addHook('onResponse', async (request, reply) => {
    logAnswer(
      request.log,
      undefined, // the request's logger carries its id
      request,
      request.routeOptions.url ?? null,
      reply.statusCode,
      Math.round(reply.elapsedTime * 10) / 10,
      request.user?.user_id ?? null,
    );
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });
  // a versioned record in an answer says its version as an ETag too (docs/decisions/022)
  app.addHook('preSerialization', async (_request, reply, payload) => {
    const tag = reply.hasHeader('etag') ? null : versionTag(payload);
    if (tag) reply.header('etag', tag);
    return payload;
  });

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    frontDoor.closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    // a rate-limited request is answered before its body is read: closing frees its connection
    // at once instead of holding it until the request time runs out
    if (closing || reply.statusCode === 429) reply.header('connection', 'close');
    return payload;
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      return reply.code(400).send({ message: 'Invalid request', errors: fieldErrors(error) });
    }
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) request.log.warn({ err: error }, error.message);
      const { message, errors, codes, more } = error;
      if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
      return reply
        .code(error.statusCode)
        .send({ message, ...(errors && { errors }), ...(codes && { codes }), ...more });
    }
    if (isClientValueError(error)) {
      // a backstop: a value the contract let through but the database refuses (PostgreSQL's
      // integer range, 22003; a malformed number, 22P02) is the client's, never a 500
      request.log.warn({ err: error }, 'A value the database refuses reached it');
      return reply.code(400).send({ message: 'Invalid request' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, body too large, wrong content type, rate limited...
      return reply.code(status).send({ message: error.message });
    }
    const unavailable = unavailableMessage(error);
    if (unavailable) {
      // the disk, the file store or the database is away: say so, and come back by itself
      request.log.error({ err: error }, 'A dependency is unavailable');
      return reply.code(503).header('retry-after', '30').send({ message: unavailable });
    }
    request.log.error({ err: error }, 'Request failed');
    return reply.code(500).send({ message: 'Internal error' });
  });

  try {
    const build = await readBuild(config.DIST_DIR);
    await app.register(security, {
      isHttps: config.isHttps,
      cspHashes: build?.manifest.cspHashes ?? [],
      connectSrc: build?.manifest.connectSrc ?? [],
    });
    await app.register(metrics, { token: config.METRICS_TOKEN });
    await app.register(fastifyCookie, { secret: config.SECRET });
    await app.register(auth, { isHttps: config.isHttps, publicUrl: config.PUBLIC_URL });
    await app.register(rateLimits, {
      perMinute: config.RATE_LIMIT_PUBLIC_PER_MIN,
      pageRendersPerMinute: config.RATE_LIMIT_PAGE_RENDERS_PER_MIN,
      redisUrl: config.REDIS_URL,
      redisKeyPrefix: config.REDIS_KEY_PREFIX,
    });
    await app.register(publicReads, {
      ttlMs: config.PUBLIC_READ_CACHE_MS,
      redisUrl: config.REDIS_URL,
      redisKeyPrefix: config.REDIS_KEY_PREFIX,
    });
    await app.register(storage, { dataDir: config.DATA_DIR, s3: config.s3 });
    await app.register(events);
    await app.register(mail, { config });
    await app.register(services);
    await app.register(visitorGeo);
    await app.register(scheduledTasks);
    await app.register(staffStream, { redisUrl: config.REDIS_URL, redisKeyPrefix: config.REDIS_KEY_PREFIX });
    await app.register(webhooks);
    await app.register(siteSearch);
    await app.register(listeners);

    for (const { plugin, prefix } of await loadRouteModules(routesDir)) {
      await app.register(plugin, { prefix });
    }

    await app.register(web, { build, publicUrl: config.PUBLIC_URL });

    app.setNotFoundHandler((request, reply) => {
      if ((request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url)) {
        return app.pages.handle(request, reply);
      }
      return reply.code(404).send({ message: 'Not found' });
    });
  } catch (err) {
    await app.close(); // closes the database opened above
    throw err;
  }

  return app;
}
