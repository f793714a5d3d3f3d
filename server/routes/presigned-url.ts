import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PresignedUrlQuery, PresignedUrlResponse } from '../../src/api/contract/blog';
import { BLOG_IMAGE_KIND, MEDIA_PREFIX } from '../services/blog';
import { HttpError } from '../http-error';
import { SIGNED_URL_TTL_SECONDS, signedMediaPath } from '../lib/signed-url';
import { dispositionHeader } from './media';
import { isStorageKey } from '../storage/storage';
import { recordCvLink } from '../services/applications';
import { storedFileOf } from '../services/files';

/**
 * GET /api/GetPresignedUrl?s3_key=: `{ url }`.
 * - A blog image key: its stable public address `/media/<key>` (cacheable: it never changes).
 * - A CV key: applications.read (401 signed out, 403 without it), then an HMAC-signed address
 *   that expires within 5 minutes, served with `no-store`, a PDF inline and anything else as an attachment (routes/media.ts).
 *   Each address issued is an audit row (`cv_link`).
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
        // every CV address handed out is on record: who, for which application, when
        await recordCvLink(
          { ...app.services(request), actor: { user_id: reader.user_id, email: reader.email } },
          key,
        );
        if (app.storage.presign) {
          // object storage: the bucket's own presigned address, same 5 minutes, inline for a PDF
          const url = await app.storage.presign(key, {
            expiresIn: SIGNED_URL_TTL_SECONDS,
            contentDisposition: dispositionHeader(
              file.original_name || key.split('/').pop()!,
              file.content_type,
            ),
          });
          return { url };
        }
        return { url: signedMediaPath(app.config.SECRET, key) };
      }
      throw new HttpError(404, 'File not found');
    },
  );
};

export default presignedUrl;
