import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ALL_SUBSCRIPTION_TYPES, DEFAULT_COUNTRY_ID } from '../../contract/pricing';
import { createPageRenderer, HtmlEntry, Lru, sendDataPage } from '../lib/page-render';
import { findCountries, planDetails } from '../services/pricing';

/**
 * `/pricing` rendered on request with the plans of the visitor's country (
 * docs/decisions/029-final-at-first-paint.md): the steps the page took in the browser (geo, the
 * country's id, its plans, India's when it has none) taken here with the same services, so the
 * cards are in the first HTML and hydration changes nothing. Kept per build, language, country
 * and a hash of the plans, with an ETag of the same parts. The page's machine starts `loaded`
 * with these rows (machines/pricing.machine.ts); the service worker's precache still gets the
 * prerendered copy (plugins/web.ts).
 */
export const prefix = '';

const PAGE_CACHE_ENTRIES = 100;

const pricingPage: FastifyPluginAsyncZod = async (app) => {
  const renderer = await createPageRenderer(app.config.DIST_DIR, app.config.PUBLIC_URL);
  const cache = new Lru<HtmlEntry>(PAGE_CACHE_ENTRIES);

  app.addHook('onReady', async () => {
    app.pages.renderOnRequest('/pricing', async (request, reply) => {
      if (!renderer) return undefined;
      const ctx = app.services(request);
      const geo = await app.visitorGeo(request);
      const [country] = await findCountries(ctx, {
        countrycode: geo.country_code,
        countryname: geo.country_name,
      });
      const countryId = country?.country_id || DEFAULT_COUNTRY_ID;
      const rows = await planDetails(ctx, {
        countryid: countryId,
        moduleid: 0,
        subscriptiontypeid: ALL_SUBSCRIPTION_TYPES,
      });
      // no plans at all (a fresh database): the prerendered page, which asks again in the browser
      if (rows.length === 0) return undefined;
      return sendDataPage(request, reply, {
        renderer,
        cache,
        lang: app.pages.languageOf(request),
        page: {
          url: '/pricing',
          moduleKey: 'src/routes/pricing.tsx',
          ns: ['pricing'],
          data: { pricingRows: rows, pricingCountryId: countryId },
        },
        fallback: () => app.pages.notFound(request, reply),
      });
    });
  });
};

export default pricingPage;
