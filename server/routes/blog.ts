import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BlogListQuery, BlogPostRows } from '../../contract/blog';
import { listPublished } from '../services/blog';

/**
 * GET /api/bind-company-blog: published posts only, for everyone, signed in or
 * not, so no cache (browser, proxy, service worker) ever holds a draft. Rows carry `slug` and
 * `image_url`; `total_count` (capped at 10,000) is on the first row. The admin list with drafts is
 * GET /api/admin/blog-posts in blog-admin.ts.
 *
 * A page of ten posts is tens of kilobytes of JSON: it is sent compressed when the client accepts
 * it, with a weak ETag (304 on a repeat), and each distinct query's answer is reused for
 * PUBLIC_READ_CACHE_MS (plugins/public-reads.ts; a save in the admin forgets them at once).
 */
const blog: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/bind-company-blog',
    { schema: { querystring: BlogListQuery, response: { 200: BlogPostRows } } },
    async (request, reply) => {
      const q = request.query;
      const key = JSON.stringify([
        q.blogid,
        q.search,
        q.page_number,
        q.page_size,
        q.slug ?? null,
        q.tag ?? null,
      ]);
      return app.publicReads.answer(request, reply, {
        area: 'blog',
        key,
        rows: () => listPublished(app.services(request), q),
        cacheControl: 'no-cache',
      });
    },
  );
};

export default blog;
