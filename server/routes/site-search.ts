import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SiteSearchAnswer, SiteSearchQuery } from '../../contract/site-search';
import { searchSite } from '../services/site-search';

/**
 * GET /api/search?q=&lang=: the site's one search (docs/decisions/039-site-search.md) over every
 * public page, published post and open opening, best results of each kind in `lang` (the page's
 * language), and the other languages that have results. Only what a public page shows is ever
 * indexed, so the answer is the same for everyone; it changes as soon as a post or opening does,
 * so no cache keeps it.
 */
const siteSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/search',
    { schema: { querystring: SiteSearchQuery, response: { 200: SiteSearchAnswer } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-cache').header('x-robots-tag', 'noindex');
      return searchSite(app.services(request), request.query);
    },
  );
};

export default siteSearchRoutes;
