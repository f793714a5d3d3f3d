import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMAGE_WIDTHS } from '../../contract/blog';
import { BLOG_IMAGE_KIND } from '../services/blog';
import { coverWidthKey } from '../services/blog-images';
import { PUBLIC_IMAGE_TYPES } from '../lib/image-check';
import { verifyMediaSignature } from '../lib/signed-url';
import { recordCvRead } from '../services/applications';
import type { StoredObject } from '../storage/storage';
import { isStorageKey } from '../storage/storage';
import { storedFileOf } from '../services/files';

/**
 * Files under /media:
 * - `/media/<key>`: a public blog image. Stable and immutable (keys are never reused), so it is
 *   cached for a year; served with the content type the upload check decided, `nosniff`, and a
 *   sandboxing CSP so that even seeded SVG artwork opened on its own runs nothing. With `?w=` (one
 *   of IMAGE_WIDTHS) a photo (JPEG, PNG, WebP, AVIF) is served as WebP at that width, the file
 *   made when the cover was stored (services/blog-images.ts `storeCoverWidths`), what the covers'
 *   `srcset` names; any other width, a width never made, or a width of a GIF or SVG, is a 404.
 * - `/media/private/<key>?by=&expires=&sig=`: a CV through an HMAC-signed address that
 *   GetPresignedUrl made for one reader (valid 5 minutes), `no-store`; each read is an audit row
 *   (`cv_read`) of that reader and the application's timeline shows it. A PDF is served `inline`, so the browser
 *   shows it in its own PDF viewer in the new tab; its CSP leaves out `sandbox`, which stops that
 *   viewer in some Chromium versions (`default-src 'none'` still lets nothing run or load). A Word
 *   file stays an `attachment`: browsers have no viewer for it.
 * Anything else, including a CV key at the public address, is a JSON 404.
 */
export const prefix = '/media';

const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const PDF_CSP = "default-src 'none'; style-src 'unsafe-inline'";
const PDF = 'application/pdf';
const notFound = { message: 'Not found' };

/**
 * Content-Disposition of a private file: `inline` for a PDF (shown in the browser's viewer),
 * `attachment` for anything else; `filename*=` per RFC 6266/5987, plus an ASCII fallback.
 */
export function dispositionHeader(name: string, contentType: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_').slice(0, 150) || 'download';
  const how = contentType === PDF ? 'inline' : 'attachment';
  return `${how}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const media: FastifyPluginAsyncZod = async (app) => {
  async function sendObject(
    reply: FastifyReply,
    object: Pick<StoredObject, 'size'> & { body: StoredObject['body'] | Buffer },
    contentType: string,
    csp = FILE_CSP,
  ) {
    return reply
      .header('content-type', contentType)
      .header('content-length', object.size)
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .send(object.body);
  }

  app.get(
    '/private/*',
    {
      schema: {
        querystring: z.object({
          by: z.string().max(20).optional(),
          expires: z.string().max(20).optional(),
          sig: z.string().max(200).optional(),
        }),
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      reply.header('cache-control', 'no-store');
      const readerId = isStorageKey(key) ? verifyMediaSignature(app.config.SECRET, key, request.query) : null;
      if (readerId === null) return reply.code(404).send(notFound);
      const ctx = app.services(request);
      const file = await storedFileOf(ctx, key);
      if (!file) return reply.code(404).send(notFound);
      // the data-access trail: the person the address was made for reads this CV now (not when
      // the address was made); one who may no longer read applications reads nothing
      if (file.kind === 'cv' && !(await recordCvRead(ctx, key, readerId))) {
        return reply.code(404).send(notFound);
      }
      const object = await app.storage.get(key);
      if (!object) return reply.code(404).send(notFound);
      reply.header('content-disposition', dispositionHeader(file.original_name, file.content_type));
      return sendObject(reply, object, file.content_type, file.content_type === PDF ? PDF_CSP : FILE_CSP);
    },
  );

  const widths = new Set<string>(IMAGE_WIDTHS.map(String));
  const RESIZED_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif']);

  app.get(
    '/*',
    { schema: { querystring: z.object({ w: z.string().max(8).optional() }) } },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      if (!isStorageKey(key) || !key.startsWith('blog/')) return reply.code(404).send(notFound);
      const width = request.query.w;
      if (width !== undefined && !widths.has(width)) return reply.code(404).send(notFound);
      const etag = `"${key.slice(key.indexOf('/') + 1, key.indexOf('.'))}${width ? `-${width}` : ''}"`;
      const file = await storedFileOf(app.services(request), key, BLOG_IMAGE_KIND);
      if (!file || !PUBLIC_IMAGE_TYPES.has(file.content_type)) return reply.code(404).send(notFound);
      if (width !== undefined && !RESIZED_TYPES.has(file.content_type)) return reply.code(404).send(notFound);
      // the stored file itself, or the cover at that width (WebP)
      const read = async () => {
        if (width === undefined) {
          const object = await app.storage.get(key);
          return object && { body: object.body, size: object.size, contentType: file.content_type };
        }
        // only a width made at upload: nothing is converted on a visitor's request
        const widthKey = await coverWidthKey(app.services(request), key, Number(width));
        const object = widthKey && (await app.storage.get(widthKey));
        return object && { body: object.body, size: object.size, contentType: 'image/webp' };
      };
      const cached = request.headers['if-none-match'] === etag;
      const found = cached ? null : await read();
      if (!cached && !found) return reply.code(404).send(notFound);
      reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag);
      if (!found) return reply.code(304).send();
      return sendObject(reply, found, found.contentType);
    },
  );
};

export default media;
