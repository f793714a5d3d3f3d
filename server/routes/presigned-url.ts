import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PresignedUrlQuery, PresignedUrlResponse } from '../../contract/blog';
import { BLOG_IMAGE_KIND, MEDIA_PREFIX } from '../services/blog';
import { HttpError } from '../http-error';
import { signedMediaPath } from '../lib/signed-url';
import { isStorageKey } from '../storage/storage';
import { storedFileOf } from '../services/files';

/**
 * GET /api/GetPresignedUrl?s3_key=: `{ url }`.
 * - A blog image key: its stable public address `/media/<key>` (cacheable: it never changes).
 * - A CV key: applications.read (401 signed out, 403 without it), then an HMAC-signed address
 *   for that reader that expires within 5 minutes, served with `no-store`, a PDF inline and
 *   anything else as an attachment (routes/media.ts). Making the address logs nothing: reading
 *   the file through it is the audit row (`cv_read`) and the timeline's "opened the CV".
 * - Anything else: 404 `{ message }`.
 */
const presignedUrl: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/GetPresignedUrl',
    { schema: { querystring: PresignedUrlQuery, response: { 200: PresignedUrlResponse } } },
    async (request, reply) => {
      const key = request.query.s3_key.trim();
      const file = isStorageKey(key) ? await storedFileOf(app.services(request), key) : undefined;
      if (file?.kind === BLOG_IMAGE_KIND) {
        reply.header('cache-control', 'public, max-age=86400');
        return { url: `${MEDIA_PREFIX}${key}` };
      }
      if (file?.kind === 'cv') {
        reply.header('cache-control', 'private, no-store');
        const reader = await app.checkPermission(request, 'applications.read');
        // an address for this reader; the read itself is logged when the file is fetched
        // (routes/media.ts), from disk or from the bucket alike
        return { url: signedMediaPath(app.config.SECRET, key, reader.user_id) };
      }
      throw new HttpError(404, 'File not found');
    },
  );
};

export default presignedUrl;
