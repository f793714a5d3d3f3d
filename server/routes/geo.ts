import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GeoAnswer } from '../../contract/pricing';
import { INDIA } from '../lib/visitor-geo';

export { INDIA };

/**
 * GET /api/geo: `{ country_name, country_code }` of the visitor, for the pricing page (spec
 * section 7, step 1), as `app.visitorGeo` finds it (plugins/visitor-geo.ts: a trusted proxy's
 * country header, the GeoLite2 database on the client address, else India).
 */
const geo: FastifyPluginAsyncZod = async (app) => {
  app.get('/geo', { schema: { response: { 200: GeoAnswer } } }, async (request, reply) => {
    // The answer depends on the caller's address: browsers may keep it, shared caches may not.
    reply.header('cache-control', 'private, max-age=3600');
    return app.visitorGeo(request);
  });
};

export default geo;
