import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  JOB_PAGE_SIZE,
  jobIdOfSlug,
  jobPath,
  jobSlug,
  type JobOpeningRow,
} from '../../contract/jobs';
import { cleanPage } from '../../contract/paging';
import { listOpenings, openOpeningLinks, publicOpening } from '../services/openings';
import {
  createPageRenderer,
  HtmlEntry,
  Lru,
  missingPages,
  sendDataPage,
  sendPageHtml,
} from '../lib/page-render';
import { addSitemapSource } from '../lib/sitemap';

/**
 * An opening's own page, `/careers/{id}-{title}` (docs/decisions/027-job-pages.md):
 * - an Open opening: its page rendered on request with the opening (the whole text, Apply, and
 *   JobPosting JSON-LD in the head), kept in memory per build, opening version and language, with
 *   an ETag of the same parts, as blog permalinks are;
 * - the same number with other words after it (a renamed opening, a shortened link): 301 to the
 *   opening's address now;
 * - a Closed opening: 410 Gone, with the page's "no longer available" state and a link to the open
 *   ones; a Draft or no opening at all: 404 with the same state (it never was public);
 * - every open opening is in /sitemap.xml.
 * `/careers` itself (docs/decisions/029-final-at-first-paint.md) is rendered on request with its page of openings (`?page=N`, else
 * the first) as page data, as the blog's list is: the cards are in the first HTML and hydration
 * starts from the same rows, so nothing visible changes. Kept per build, language, page and the
 * rows' contents (hashed), with an ETag of the same parts. `/careers/` goes to it.
 */
export const prefix = '';

const PAGE_CACHE_ENTRIES = 200;
/** The careers list shows 20 a page; the sitemap takes every open opening up to this. */
export const SITEMAP_OPENINGS = 5_000;

addSitemapSource('jobs', async (app) =>
  (await openOpeningLinks(app.services(), SITEMAP_OPENINGS)).map((row) => ({
    path: jobPath(row),
    lastmod: row.updated_at,
  })),
);

const jobPages: FastifyPluginAsyncZod = async (app) => {
  const renderer = await createPageRenderer(app.config.DIST_DIR, app.config.PUBLIC_URL);
  const cache = new Lru<HtmlEntry>(PAGE_CACHE_ENTRIES);
  const NS = ['careers', 'offline'];

  /** An opening's page (or, with null, its "no longer available" state) for the renderer. */
  const pageOfJob = (slug: string, job: JobOpeningRow | null) => ({
    url: `/careers/${encodeURIComponent(slug)}`,
    moduleKey: 'src/routes/job.tsx',
    ns: NS,
    data: { jobOpening: job, jobSlug: slug },
  });
  // /careers: its page of openings in the HTML (the public list's query, read each time)
  app.addHook('onReady', async () => {
    app.pages.renderOnRequest('/careers', async (request, reply) => {
      if (!renderer) return undefined;
      const address = new URL(request.url, 'http://x');
      const page = cleanPage(address.searchParams.get('page'));
      const rows = await listOpenings(app.services(request), {
        jobid: 0,
        search: '',
        pagenum: page,
        pagesize: JOB_PAGE_SIZE,
      });
      // past the last page (an old link, openings closed since): the first page, as the list
      // itself does, with the address's other words (a campaign's) kept
      if (page > 1 && rows.length === 0) {
        address.searchParams.delete('page');
        return reply.redirect(app.pages.address(request, `/careers${address.search}`), 302);
      }
      const lang = app.pages.languageOf(request);
      return sendDataPage(request, reply, {
        renderer,
        cache,
        lang,
        page: {
          url: page > 1 ? `/careers?page=${page}` : '/careers',
          moduleKey: 'src/routes/careers.tsx',
          ns: NS,
          data: { jobRows: rows, jobPage: page },
        },
        fallback: () => app.pages.notFound(request, reply),
      });
    });
  });

  // "no longer available", rendered once per language with the asked segment put in
  const missingPage = renderer
    ? missingPages(renderer, 'jobSlug', (slug, lang) => renderer.render({ ...pageOfJob(slug, null), lang }))
    : undefined;

  app.get('/careers/*', { config: { rateLimit: app.pageRenderRateLimit } }, async (request, reply) => {
    // the segment as the browser's router reads it: on the raw address (an encoded '/' stays in it)
    const rest = request.url.split('?', 1)[0].replace(/^\/careers\//, '');
    if (rest === '') return app.pages.handle(request, reply); // '/careers/': the careers page
    if (!app.pages.manifest || !renderer) return app.pages.notFound(request, reply);
    let slug: string;
    try {
      slug = decodeURIComponent(rest.replace(/\/$/, ''));
    } catch {
      return app.pages.notFound(request, reply);
    }
    if (slug.includes('/') || rest.slice(0, -1).includes('/')) return app.pages.notFound(request, reply);
    const lang = app.pages.languageOf(request);
    const jobId = jobIdOfSlug(slug);
    const found =
      jobId === undefined ? { row: null, closed: false } : await publicOpening(app.services(), jobId);
    if (!found.row) {
      const html = await missingPage!(slug, lang);
      return sendPageHtml(request, reply.code(found.closed ? 410 : 404), new HtmlEntry(html, ''), lang);
    }
    const job = found.row;
    // one address per opening: other words after its number (or a trailing '/') move to it
    if (rest !== jobSlug(job)) return reply.redirect(app.pages.address(request, jobPath(job)), 301);

    return sendDataPage(request, reply, {
      renderer,
      cache,
      lang,
      page: pageOfJob(rest, job),
      fallback: () => app.pages.notFound(request, reply),
    });
  });
};

export default jobPages;
