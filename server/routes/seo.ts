import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isLang } from '../../contract/languages';
import { sitemapIndexXml, sitemapSources, sitemapXml, type SitemapEntry } from '../lib/sitemap';

/** Addresses at the site root, not under /api. */
export const prefix = '';

/**
 * GET /sitemap.xml: the index of one sitemap per language; GET /sitemap-{lang}.xml: every
 * indexable public page of the build (the pages manifest's routes, the same addresses the page
 * handler serves) plus the addresses of the registered sources (server/lib/sitemap.ts; the blog
 * adds its published posts), at that language's addresses with the others as alternates
 * (docs/decisions/041-language-addresses.md). GET /robots.txt: everything may be crawled
 * except the back office and the API, and it points to the sitemap. Both use PUBLIC_URL.
 * GET /favicon.ico: browsers ask for it wherever a document names no icon (a PDF opened in the
 * browser's viewer, an error page); it sends them to the site's SVG icon.
 */
const seo: FastifyPluginAsyncZod = async (app) => {
  const languages = () => (app.pages?.manifest?.languages ?? ['en']).filter(isLang);
  app.get('/sitemap.xml', async (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=600')
      .send(sitemapIndexXml(app.config.PUBLIC_URL, languages())),
  );

  app.get('/sitemap-:lang.xml', async (request, reply) => {
    const { lang } = request.params as { lang: string };
    if (!isLang(lang) || !languages().includes(lang))
      return reply.code(404).send({ message: 'No such sitemap' });
    const hidden = new Set(app.pages?.manifest?.noindex ?? []);
    const entries: SitemapEntry[] = Object.keys(app.pages?.manifest?.routes ?? {})
      .filter((path) => !hidden.has(path))
      .sort((a, b) => (a === '/' ? -1 : b === '/' ? 1 : a.localeCompare(b)))
      .map((path) => ({ path }));
    for (const [name, source] of sitemapSources()) {
      try {
        entries.push(...(await source(app)));
      } catch (err) {
        request.log.error({ err, source: name }, 'A sitemap source failed; its addresses are left out');
      }
    }
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=600')
      .send(sitemapXml(app.config.PUBLIC_URL, entries, lang, languages()));
  });

  app.get('/robots.txt', async (_request, reply) => {
    const body = [
      'User-agent: *',
      'Allow: /',
      'Disallow: /admin',
      'Disallow: /api/',
      'Disallow: /blog/preview/',
      // the same in every language's addresses (docs/decisions/041-language-addresses.md)
      ...languages()
        .filter((l) => l !== 'en')
        .map((l) => `Disallow: /${l}/blog/preview/`),
      '',
      `Sitemap: ${app.config.PUBLIC_URL}/sitemap.xml`,
      '',
    ].join('\n');
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(body);
  });

  app.get('/favicon.ico', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').redirect('/favicon.svg', 301),
  );
};

export default seo;
