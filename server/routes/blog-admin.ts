import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../contract/ids';
import { MessageAnswer } from '../../contract/auth';
import {
  BLOG_CONTENT_MAX,
  BLOG_IMAGE_MAX_BYTES,
  BLOG_MODES,
  BlogListQuery,
  BlogPostRows,
  BlogStatusBody,
  ManageBlogFields,
  ManageBlogResponse,
} from '../../contract/blog';
import { BlogPreviewLink, BlogTags, BlogAuthors } from '../../contract/blog-form';
import { idempotentChange } from '../lib/idempotency';
import { uploads } from '../lib/multipart';
import { versionOfRequest } from '../lib/versions';
import * as blog from '../services/blog';

/**
 * The back office's blog calls (blog.manage); the rules, images, audit and the public blog's
 * refresh are services/blog.ts:
 * - GET /api/admin/blog-posts: the query and rows of bind-company-blog, drafts included,
 *   `Cache-Control: private, no-store`.
 * - PATCH /api/admin/blog-posts/{id} with { status }: the badge of a card, publish or unpublish.
 * - POST /api/admin/blog-posts/{id}/preview-link: a share preview, a signed address for 7 days;
 *   DELETE revokes every share link made so far.
 * - GET /api/admin/blog-tags: the tags of every post, most used first (the editor's suggestions).
 * - GET /api/admin/blog-authors: staff who may write posts (the editor's author choice).
 * - POST /api/manage-company-blog: multipart; mode 1 create, 2 update, 3 delete; company_id is
 *   always 2. Answers `{ message, row }`.
 * A change (the PATCH, mode 2) sends `If-Match` with the version it is based on: 428 without,
 * 409 with the post as it is now when it is stale; mode 2 may send only the fields it changes
 * (docs/decisions/022-versions-and-conflicts.md). A create or an update may carry an
 * `Idempotency-Key` (the back office's send queue): a repeat by the same person within 24 hours
 * gets the first answer and changes nothing again.
 */

/** The text fields may take this much of a request (content is the big one). */
const FIELDS_BUDGET_BYTES = BLOG_CONTENT_MAX * 4 + 64 * 1024;
const FIELD_NAMES = new Set(Object.keys(ManageBlogFields.shape));

const blogAdmin: FastifyPluginAsyncZod = async (app) => {
  const multipart = await uploads(app, {
    fileField: 'featured_image',
    fieldNames: FIELD_NAMES,
    fileMaxBytes: BLOG_IMAGE_MAX_BYTES,
    fieldsBudgetBytes: FIELDS_BUDGET_BYTES,
    fieldMaxBytes: BLOG_CONTENT_MAX * 4,
    // every field of the form once, and the file
    maxFields: FIELD_NAMES.size + 1,
    messages: {
      tooLarge: blog.imageTooLarge,
      oneFile: 'Send one image in the field "featured_image".',
      notMultipart: 'Send the post as multipart/form-data.',
    },
  });

  app.get(
    '/admin/blog-posts',
    {
      config: { permission: 'blog.manage' },
      schema: { querystring: BlogListQuery, response: { 200: BlogPostRows } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return blog.listWithDrafts(app.services(request), request.query);
    },
  );

  app.patch(
    '/admin/blog-posts/:id',
    {
      config: { permission: 'blog.manage' },
      schema: { params: IdParams, body: BlogStatusBody, response: { 200: ManageBlogResponse } },
    },
    async (request) =>
      blog.setStatus(
        app.services(request),
        request.params.id,
        request.body.status,
        versionOfRequest(request.headers),
      ),
  );

  app.get(
    '/admin/blog-tags',
    { config: { permission: 'blog.manage' }, schema: { response: { 200: BlogTags } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return blog.tagsInUse(app.services(request), false);
    },
  );

  app.get(
    '/admin/blog-authors',
    { config: { permission: 'blog.manage' }, schema: { response: { 200: BlogAuthors } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return blog.authorsOf(app.services(request));
    },
  );

  app.post(
    '/admin/blog-posts/:id/preview-link',
    {
      config: { permission: 'blog.manage' },
      schema: { params: IdParams, response: { 200: BlogPreviewLink } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return blog.shareLink(app.services(request), request.params.id);
    },
  );

  app.delete(
    '/admin/blog-posts/:id/preview-link',
    {
      config: { permission: 'blog.manage' },
      schema: { params: IdParams, response: { 200: MessageAnswer } },
    },
    async (request) => blog.revokeShareLinks(app.services(request), request.params.id),
  );

  /** Reads the form (lib/multipart.ts), the image into memory; an empty file part is no image. */
  async function readForm(request: FastifyRequest) {
    const { fields, file } = await multipart.read(request, (stream) => buffer(stream));
    const upload = file && file.size > 0 ? { bytes: file.value, name: file.name } : undefined;
    const parsed = ManageBlogFields.safeParse(fields);
    if (parsed.success) return { fields: parsed.data, upload };
    // a value of the wrong shape (not a form the dialog sends): the field is named, its text generic
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'request');
      errors[field === 'featured_image_url' ? 'featured_image' : field] ??= 'invalid';
    }
    throw blog.refusedPost(errors);
  }

  /** What an Idempotency-Key stands for: every field sent and the image's bytes. */
  const fingerprintOf = (fields: object, upload: { bytes: Buffer; name: string } | undefined) =>
    JSON.stringify([
      Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)),
      upload?.name ?? null,
      upload ? createHash('sha256').update(upload.bytes).digest('hex') : null,
    ]);

  app.post(
    '/manage-company-blog',
    {
      config: { permission: 'blog.manage' },
      schema: { response: { 200: ManageBlogResponse } },
      onRequest: multipart.guard,
    },
    async (request) => {
      const { fields, upload } = await readForm(request);
      const ctx = app.services(request);
      if (fields.mode !== BLOG_MODES.create && !fields.blog_id)
        throw blog.refusedPost({ blog_id: 'blogIdMissing' });
      if (fields.mode === BLOG_MODES.delete) return blog.deletePost(ctx, fields.blog_id!);
      // a save sent again from the send queue (the same Idempotency-Key) gets the first answer;
      // each person's keys are their own
      return idempotentChange(
        app,
        request,
        'manage-company-blog',
        () =>
          fields.mode === BLOG_MODES.create
            ? blog.savePost(ctx, undefined, fields, upload)
            : // a change sends the version it is based on, and only the fields it changes
              blog.savePost(ctx, fields.blog_id, fields, upload, versionOfRequest(request.headers)),
        () => fingerprintOf(fields, upload),
      );
    },
  );
};

export default blogAdmin;
