import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isbot } from 'isbot';
import { VIEW_BODY_LIMIT, ViewBeacon } from '../../contract/insights';
import { createGeoLookup } from '../lib/geo-lookup';
import { createViewCounter } from '../services/insights';

/**
 * POST /api/views: a page view, sent by the page's beacon (navigator.sendBeacon) once it is shown
 * (docs/decisions/028-visit-figures.md). Always 204 and no body, counted or not, so the answer
 * tells a client nothing. Not counted: `DNT: 1` or `Sec-GPC: 1`, a known bot's user agent (isbot),
 * the back office and the API, a body that is not the contract's. Views wait in memory and are
 * written in batches (services/insights.ts createViewCounter); the counter writes what waits when
 * the server closes. Rate limit: ANALYTICS_VIEWS_PER_MIN per client.
 */
const views: FastifyPluginAsyncZod = async (app) => {
  const countryOfIp = createGeoLookup(undefined, (err) =>
    app.log.warn({ err }, 'GeoIP data could not be loaded: page views have no country'),
  );
  const counter = createViewCounter(app.services(), countryOfIp);
  app.addHook('onClose', async () => counter.close());
  // sendBeacon with a string sends text/plain; ours sends a JSON Blob, but take either
  app.addContentTypeParser(
    'text/plain',
    { parseAs: 'string', bodyLimit: VIEW_BODY_LIMIT },
    (_req, body, done) => {
      try {
        done(null, JSON.parse(String(body)));
      } catch {
        done(null, null);
      }
    },
  );

  app.post(
    '/views',
    {
      bodyLimit: VIEW_BODY_LIMIT,
      config: { rateLimit: { max: app.config.ANALYTICS_VIEWS_PER_MIN, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const refused = request.headers.dnt === '1' || request.headers['sec-gpc'] === '1';
      const userAgent = String(request.headers['user-agent'] ?? '');
      const beacon = ViewBeacon.safeParse(request.body);
      if (!refused && userAgent && !isbot(userAgent) && beacon.success) {
        await counter.count(beacon.data, { ip: request.ip, userAgent, host: request.host });
      }
      return reply.code(204).send();
    },
  );
};

export default views;
