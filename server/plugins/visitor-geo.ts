import type { GeoAnswer } from '../../contract/pricing';
import { createGeoLookup } from '../lib/geo-lookup';
import { createVisitorGeo } from '../lib/visitor-geo';
import { countryByCode } from '../services/pricing';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The visitor's country (lib/visitor-geo.ts: a trusted proxy's country header, the GeoLite2
     * database on the client address, else India), for GET /api/geo and the pricing page the
     * server renders with that country's plans: one lookup and one memo of our countries list.
     */
    visitorGeo(request: FastifyRequest): Promise<GeoAnswer>;
  }
}

export const visitorGeo = fp(
  async (app) => {
    const { TRUST_PROXY, GEO_COUNTRY_HEADER, NODE_ENV } = app.config;
    if (GEO_COUNTRY_HEADER && !TRUST_PROXY) {
      app.log.warn('GEO_COUNTRY_HEADER is ignored: it is read only when TRUST_PROXY is on');
    }
    app.decorate(
      'visitorGeo',
      createVisitorGeo({
        // the header is the proxy's word: without a trusted proxy any client could write it
        header: TRUST_PROXY ? GEO_COUNTRY_HEADER : undefined,
        listedCountry: (code) => countryByCode(app.services(), code),
        warn: (err) =>
          app.log.warn({ err }, 'GeoIP data could not be loaded: visitors are taken to be in India'),
      }),
    );
    // Read the GeoIP data once the server is up, so the first visitor does not wait for it (tests
    // skip this: most of them never ask for a country).
    if (NODE_ENV !== 'test') {
      app.addHook('onReady', async () => {
        setTimeout(() => void createGeoLookup()('127.0.0.1'), 0).unref();
      });
    }
  },
  { name: 'visitor-geo', dependencies: ['services'], decorators: { fastify: ['config'] } },
);
