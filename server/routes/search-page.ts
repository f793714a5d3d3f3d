import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isLang } from '../../contract/languages';
import { SEARCH_QUERY_MAX } from '../../contract/site-search';
import { createPageRenderer, HtmlEntry, Lru, sendDataPage } from '../lib/page-render';
import { searchSite } from '../services/site-search';

/**
 * `/search?q=` (docs/decisions/040-site-search-screens.md): the site's search as a page rendered on
 * request with its answer, so a search can be shared and works without JavaScript; the header's
 * search is an enhancement of it. Without words it is the prerendered page (the service worker
 * keeps it). `?lang=` searches that language first. Never indexed (the page says noindex, and so
 * does its header). Kept per build, language and a hash of the answer, as the lists are.
 */
export const prefix = '';

const PAGE_CACHE_ENTRIES = 100;

const searchPage: FastifyPluginAsyncZod = async (app) => {
  const renderer = await createPageRenderer(app.config.DIST_DIR, app.config.PUBLIC_URL);
  const cache = new Lru<HtmlEntry>(PAGE_CACHE_ENTRIES);

  app.addHook('onReady', async () => {
    app.pages.renderOnRequest('/search', async (request, reply) => {
      reply.header('x-robots-tag', 'noindex');
      if (!renderer) return undefined;
      const address = new URL(request.url, 'http://x');
      // what the form sends, as typed: a longer text is cut as the field cuts it
      const q = (address.searchParams.get('q') ?? '').slice(0, SEARCH_QUERY_MAX);
      if (q.trim() === '') return undefined;
      const pageLang = app.pages.languageOf(request);
      const asked = address.searchParams.get('lang');
      const lang = isLang(asked) ? asked : isLang(pageLang) ? pageLang : 'en';
      const answer = await searchSite(app.services(request), { q, lang });
      return sendDataPage(request, reply, {
        renderer,
        cache,
        lang: pageLang,
        page: {
          url: `/search${address.search}`,
          moduleKey: 'src/routes/search.tsx',
          ns: ['search'],
          data: { siteSearch: answer },
        },
        fallback: () => app.pages.notFound(request, reply),
      });
    });
  });
};

export default searchPage;
