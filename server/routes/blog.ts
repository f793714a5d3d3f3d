import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BlogListQuery, BlogPostRows } from '../../src/api/contract/blog';
import { listPosts } from '../db/blog.repo';
import { preferredEncoding } from '../plugins/web';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Answers at least this long are compressed (a page of posts carries their whole content). */
const COMPRESS_FROM_BYTES = 1024;

/**
 * GET /api/bind-company-blog (spec section 7): published posts only, for everyone, signed in or
 * not, so no cache (browser, proxy, service worker) ever holds a draft. Rows carry `slug` and
 * `image_url`; `total_count` (capped at 10,000) is on the first row. The admin list with drafts is
 * GET /api/admin/blog-posts in blog-admin.ts.
 */
const blog: FastifyPluginAsyncZod = async (app) => {
  // A page of ten posts is tens of kilobytes of JSON: sent compressed (fast brotli) when the
  // client accepts it, which matters on a phone's connection.
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || payload.length < COMPRESS_FROM_BYTES || reply.statusCode !== 200) return payload;
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') return payload;
    reply.header('content-encoding', encoding).header('vary', 'Accept-Encoding').removeHeader('content-length');
    return encoding === 'br'
      ? brotli(payload, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } })
      : gzip(payload, { level: 6 });
  });

  app.get(
    '/bind-company-blog',
    { schema: { querystring: BlogListQuery, response: { 200: BlogPostRows } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-cache');
      return listPosts(app.db, request.query, { includeDrafts: false });
    },
  );
};

export default blog;
