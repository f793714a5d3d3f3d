import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteStoredFiles, recordStoredFile, storedFile } from '../db/files.repo';
import {
  BLOG_COMPANY_ID,
  BLOG_CONTENT_MAX,
  BLOG_IMAGE_MAX_BYTES,
  BLOG_MESSAGES as M,
  BLOG_MODES,
  BlogIdParams,
  BlogListQuery,
  BlogPostRows,
  BlogStatusBody,
  BlogStatus,
  blogFormErrors,
  isHttpUrl,
  ManageBlogFields,
  ManageBlogResponse,
  parsePublicationDate,
} from '../../src/api/contract/blog';
import {
  BLOG_IMAGE_KIND,
  createPost,
  deletePost,
  getPost,
  imageInUse,
  listPosts,
  setPostStatus,
  toRow,
  updatePost,
  type BlogPost,
  type PostInput,
} from '../db/blog.repo';
import { HttpError } from '../http-error';
import { uploads } from '../lib/multipart';
import { recordAudit } from '../db/audit.repo';
import { cleanFileName } from '../lib/file-check';
import { checkImage } from '../lib/image-check';
import { isStorageKey } from '../storage/storage';

/**
 * The back office's blog calls (blog.manage):
 * - GET /api/admin/blog-posts: the query and rows of bind-company-blog, drafts included,
 *   `Cache-Control: private, no-store`.
 * - POST /api/manage-company-blog: multipart; mode 1 create, 2 update, 3 delete;
 *   company_id is always 2. Every rule of the blog form is checked again (the shared rules of
 *   src/api/contract/blog.ts; db/blog.repo.ts sanitises what it stores), the featured image is an http(s) address,
 *   an image this site stored, or an uploaded file that is really a PNG, JPEG, WebP, GIF or AVIF
 *   of at most 5 MB (stored through app.storage under a generated key), slugs are unique, and
 *   every change is written to the audit log. Answers `{ message, row }`.
 */

/** The text fields may take this much of a request (content is the big one). */
const FIELDS_BUDGET_BYTES = BLOG_CONTENT_MAX * 4 + 64 * 1024;
const FIELD_NAMES = new Set(Object.keys(ManageBlogFields.shape));
/** The texts of every code a refusal may carry: the form's, and the request's own fields. */
const MESSAGES: Record<string, string> = {
  ...M,
  statusInvalid: 'Status must be Published or Draft',
  companyInvalid: `Blog posts belong to company ${BLOG_COMPANY_ID}`,
  blogIdMissing: 'Choose a post',
};

/** A refusal for fields, with each one's message and code (contract/form-rules.ts). */
const refused = (
  codes: Record<string, string>,
  status = 400,
  message = 'Please correct the highlighted fields.',
) => HttpError.fields(message, codes, MESSAGES, status);
const tooLarge = () => refused({ featured_image: 'imageTooLarge' }, 413, M.imageTooLarge);

interface Upload {
  bytes: Buffer;
  name: string;
}

/** Text a person typed into a one-line field: no control characters or broken surrogates. */
const cleanLine = (s: string) =>
  s
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim();

const blogAdmin: FastifyPluginAsyncZod = async (app) => {
  // a saved change shows at once on the public list of this process (plugins/public-reads.ts)
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400)
      app.publicReads.invalidate('blog');
    return payload;
  });
  const multipart = await uploads(app, {
    fileField: 'featured_image',
    fieldNames: FIELD_NAMES,
    fileMaxBytes: BLOG_IMAGE_MAX_BYTES,
    fieldsBudgetBytes: FIELDS_BUDGET_BYTES,
    fieldMaxBytes: BLOG_CONTENT_MAX * 4,
    maxFields: 16,
    messages: {
      tooLarge,
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
      return listPosts(app.db, request.query, { includeDrafts: true });
    },
  );

  // The badge of a card: publish or unpublish, nothing else re-sent or re-checked, so a post that
  // fails today's form rules can still be taken down. The spec's mode 2 save keeps working.
  app.patch(
    '/admin/blog-posts/:id',
    {
      config: { permission: 'blog.manage' },
      schema: { params: BlogIdParams, body: BlogStatusBody, response: { 200: ManageBlogResponse } },
    },
    async (request) => {
      const { status } = request.body;
      const row = await app.db.transaction().execute(async (trx) => {
        const current = await getPost(trx, request.params.id, true);
        if (!current) throw new HttpError(404, M.notFound);
        if (current.status === status) return current; // a double click: nothing changes
        const saved = await setPostStatus(trx, current, status);
        await recordAudit(trx, {
          actor: request.user,
          action: 'status',
          entity: 'blog_post',
          entityId: saved.blog_id,
          detail: { title: saved.title, slug: saved.slug, status: saved.status, changed: ['status'] },
        });
        return saved;
      });
      return { message: M.updated, row: toRow(row) };
    },
  );

  /** Reads the form (lib/multipart.ts), the image into memory; an empty file part is no image. */
  async function readForm(
    request: FastifyRequest,
  ): Promise<{ fields: Record<string, string>; upload?: Upload }> {
    const { fields, file } = await multipart.read(request, (stream) => buffer(stream));
    return { fields, upload: file && file.size > 0 ? { bytes: file.value, name: file.name } : undefined };
  }

  /** Whether `value` is the key of a featured image this site stored. */
  async function isBlogImageKey(value: string): Promise<boolean> {
    if (!isStorageKey(value)) return false;
    return (await storedFile(app.db, value, BLOG_IMAGE_KIND)) !== undefined;
  }

  /** Checks the fields of a create or update; answers the post to save (the image not yet stored). */
  async function validatePost(fields: ManageBlogFields, upload: Upload | undefined) {
    const content = fields.content;
    const imageUrl = fields.featured_image_url.trim();
    const knownKey = !upload && imageUrl !== '' && !isHttpUrl(imageUrl) && (await isBlogImageKey(imageUrl));
    const input = {
      title: cleanLine(fields.title),
      excerpt: cleanLine(fields.excerpt),
      content,
      publication_date: cleanLine(fields.publication_date),
      read_time: cleanLine(fields.read_time),
      featured_image_url: imageUrl,
      // the declared type decides nothing: the bytes are checked below
      image: upload ? { type: 'image/png', size: upload.bytes.length } : null,
    };
    const errors: Record<string, string> = blogFormErrors(input, { isKnownImageKey: () => knownKey });
    const status = BlogStatus.safeParse(fields.status);
    if (!status.success) errors.status = 'statusInvalid';
    if (fields.company_id !== undefined && fields.company_id.trim() !== String(BLOG_COMPANY_ID)) {
      errors.company_id = 'companyInvalid';
    }

    let image: Awaited<ReturnType<typeof checkImage>> | undefined;
    if (upload && !errors.featured_image) {
      image = await checkImage(upload.bytes);
      if (!image.ok) errors.featured_image = 'imageInvalidFile';
    }
    const only = Object.keys(errors);
    if (only.length === 1 && errors.featured_image === 'imageInvalidFile')
      throw refused(errors, 415, M.imageInvalidFile);
    if (only.length === 1 && errors.featured_image === 'imageTooLarge') throw tooLarge();
    if (only.length > 0) throw refused(errors);
    const post: PostInput = {
      title: input.title,
      excerpt: input.excerpt,
      content,
      publication_date: input.publication_date,
      publication_day: parsePublicationDate(input.publication_date)!,
      read_time: input.read_time,
      featured_image_url: imageUrl,
      status: status.data!,
    };
    return { post, image: image?.ok ? image.type : undefined };
  }

  /** Stores an uploaded image under a generated key and records it; answers the key. */
  async function storeImage(upload: Upload, type: { ext: string; contentType: string }): Promise<string> {
    const key = await app.storage.put(Readable.from([upload.bytes]), {
      prefix: 'blog',
      ext: type.ext,
      contentType: type.contentType,
    });
    try {
      await recordStoredFile(app.db, {
        file_key: key,
        kind: BLOG_IMAGE_KIND,
        content_type: type.contentType,
        byte_size: upload.bytes.length,
        original_name: cleanFileName(upload.name) ?? `image.${type.ext}`,
      });
    } catch (err) {
      await app.storage.delete(key);
      throw err;
    }
    return key;
  }

  /** Removes an uploaded image no post shows any more (a failed save, a deleted post). */
  async function dropImageIfUnused(key: string) {
    if (!isStorageKey(key) || (await imageInUse(app.db, key))) return;
    await deleteStoredFiles(app.db, [key], BLOG_IMAGE_KIND);
    await app.storage.delete(key);
  }

  const changedFields = (before: BlogPost, after: PostInput) =>
    (
      [
        'title',
        'excerpt',
        'content',
        'publication_date',
        'read_time',
        'featured_image_url',
        'status',
      ] as const
    ).filter((k) => before[k] !== after[k]);

  app.post(
    '/manage-company-blog',
    {
      config: { permission: 'blog.manage' },
      schema: { response: { 200: ManageBlogResponse } },
      onRequest: multipart.guard,
    },
    async (request) => {
      const { fields: raw, upload } = await readForm(request);
      const parsed = ManageBlogFields.safeParse(raw);
      if (!parsed.success) {
        // a value of the wrong shape (not a form the dialog sends): the field is named, its text generic
        const errors: Record<string, string> = {};
        for (const issue of parsed.error.issues) {
          const field = String(issue.path[0] ?? 'request');
          errors[field === 'featured_image_url' ? 'featured_image' : field] ??= 'invalid';
        }
        throw refused(errors);
      }
      const fields = parsed.data;
      const actor = request.user;

      if (fields.mode === BLOG_MODES.delete) {
        if (!fields.blog_id) throw refused({ blog_id: 'blogIdMissing' });
        const deleted = await app.db.transaction().execute(async (trx) => {
          const row = await deletePost(trx, fields.blog_id);
          if (row) {
            await recordAudit(trx, {
              actor,
              action: 'delete',
              entity: 'blog_post',
              entityId: row.blog_id,
              detail: { title: row.title, slug: row.slug, status: row.status },
            });
          }
          return row;
        });
        if (!deleted) throw new HttpError(404, M.notFound);
        await dropImageIfUnused(deleted.featured_image_url).catch((err: unknown) =>
          request.log.warn({ err }, 'Could not remove the image of a deleted blog post'),
        );
        return { message: M.deletedText };
      }

      let current: BlogPost | undefined;
      if (fields.mode === BLOG_MODES.update) {
        if (!fields.blog_id) throw refused({ blog_id: 'blogIdMissing' });
        current = await getPost(app.db, fields.blog_id);
        if (!current) throw new HttpError(404, M.notFound);
      }

      const { post, image } = await validatePost(fields, upload);
      const newKey = upload && image ? await storeImage(upload, image) : undefined;
      if (newKey) post.featured_image_url = newKey;
      try {
        const saved = await app.db.transaction().execute(async (trx) => {
          if (!current) {
            const row = await createPost(trx, post);
            await recordAudit(trx, {
              actor,
              action: 'create',
              entity: 'blog_post',
              entityId: row.blog_id,
              detail: { title: row.title, slug: row.slug, status: row.status },
            });
            return row;
          }
          // the post may have been deleted or saved since it was read; a save racing this one waits
          const fresh = await getPost(trx, current.blog_id, true);
          if (!fresh) throw new HttpError(404, M.notFound);
          const changed = changedFields(fresh, post);
          // saved already as it is (a double click, a second tab): nothing changes, nothing is audited
          if (changed.length === 0) return fresh;
          const row = await updatePost(trx, fresh, post);
          await recordAudit(trx, {
            actor,
            action: changed.length === 1 && changed[0] === 'status' ? 'status' : 'update',
            entity: 'blog_post',
            entityId: row.blog_id,
            detail: { title: row.title, slug: row.slug, status: row.status, changed },
          });
          return row;
        });
        return { message: current ? M.updated : M.created, row: toRow(saved) };
      } catch (err) {
        if (newKey) await dropImageIfUnused(newKey).catch(() => {});
        throw err;
      }
    },
  );
};

export default blogAdmin;
