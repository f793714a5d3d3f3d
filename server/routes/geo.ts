import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GeoAnswer } from '../../src/api/contract/pricing';
import { createGeoLookup } from '../lib/geo-lookup';
import { createVisitorGeo, INDIA } from '../lib/visitor-geo';
import { countryByCode } from '../services/pricing';

export { INDIA };

/**
 * GET /api/geo: `{ country_name, country_code }` of the visitor, for the pricing page (spec
 * section 7, step 1), as lib/visitor-geo.ts finds it (a trusted proxy's country header, the
 * GeoLite2 database on the client address, else India).
 */
const geo: FastifyPluginAsyncZod = async (app) => {
  const visitorGeo = createVisitorGeo({
    header: app.config.TRUST_PROXY ? app.config.GEO_COUNTRY_HEADER : undefined,
    listedCountry: (code) => countryByCode(app.services(), code),
    warn: (err) => app.log.warn({ err }, 'GeoIP data could not be loaded: visitors are taken to be in India'),
  });
  if (app.config.GEO_COUNTRY_HEADER && !app.config.TRUST_PROXY) {
    app.log.warn('GEO_COUNTRY_HEADER is ignored: it is read only when TRUST_PROXY is on');
  }
  // Read the GeoIP data once the server is up, so the first visitor does not wait for it (tests
  // skip this: most of them never ask for a country).
  if (app.config.NODE_ENV !== 'test') {
    app.addHook('onReady', async () => {
      setTimeout(() => void createGeoLookup()('127.0.0.1'), 0).unref();
    });
  }

  app.get('/geo', { schema: { response: { 200: GeoAnswer } } }, async (request, reply) => {
    // The answer depends on the caller's address: browsers may keep it, shared caches may not.
    reply.header('cache-control', 'private, max-age=3600');
    return visitorGeo(request);
  });
};

export default geo;
