import { buffer } from 'node:stream/consumers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BLOG_IMAGE_MAX_BYTES } from '../../contract/blog';
import { BlogTextImage } from '../../contract/blog-form';
import { uploads } from '../lib/multipart';
import { imageRefused, storeTextImage, textImageTooLarge } from '../services/blog-images';

/**
 * POST /api/admin/blog-images (blog.manage): one image for a post's text, multipart with the file
 * in `image` (5 MB at most, as covers). Answers its addresses and size (services/blog-images.ts);
 * the editor puts them in the text with the alt text the writer gave. Nothing else is read.
 */
const blogImages: FastifyPluginAsyncZod = async (app) => {
  const multipart = await uploads(app, {
    fileField: 'image',
    fieldNames: new Set(),
    fileMaxBytes: BLOG_IMAGE_MAX_BYTES,
    fieldsBudgetBytes: 4 * 1024,
    fieldMaxBytes: 1024,
    maxFields: 2,
    messages: {
      tooLarge: textImageTooLarge,
      oneFile: 'Send one image in the field "image".',
      notMultipart: 'Send the image as multipart/form-data.',
    },
  });

  app.post(
    '/admin/blog-images',
    {
      config: { permission: 'blog.manage' },
      schema: { response: { 200: BlogTextImage } },
      onRequest: multipart.guard,
    },
    async (request, reply) => {
      const { file } = await multipart.read(request, (stream) => buffer(stream));
      if (!file || file.size === 0) throw imageRefused();
      reply.header('cache-control', 'private, no-store');
      return storeTextImage(app.services(request), { bytes: file.value, name: file.name });
    },
  );
};

export default blogImages;
