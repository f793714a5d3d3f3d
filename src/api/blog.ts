import { config } from '../config';
import type { UploadProgress } from '../../contract/upload';
import { adminWrite, CSRF_HEADERS, fetchJson, toQuery, uploadForm, versioned } from './client';
import { ifMatch } from '../../contract/versions';
import {
  BLOG_COMPANY_ID,
  BlogPostRow as BlogPostRowSchema,
  BlogPostRows,
  isHttpUrl,
  ManageBlogResponse,
  PresignedUrlResponse,
  type BlogPostRow,
  type ManageBlogResponse as ManageBlogAnswer,
  type BlogStatus,
} from '../../contract/blog';
import type { BlogPostForm } from '../../contract/blog-form';

/**
 * The blog calls. Public reads go to the website API (which
 * may be a customer's backend); the admin list with drafts is ours, on the same origin.
 */

export interface BlogListParams {
  blogid?: number;
  search?: string;
  page_number?: number;
  page_size?: number;
  slug?: string;
  /** The admin list's filter. */
  status?: BlogStatus;
  /** Only the posts with this tag (its address). */
  tag?: string;
}

const listQuery = (q: BlogListParams) =>
  toQuery({
    blogid: q.blogid ?? 0,
    search: q.search ?? '',
    page_number: q.page_number ?? 1,
    page_size: q.page_size,
    slug: q.slug,
    status: q.status,
    tag: q.tag,
  });

/** GET bind-company-blog: published posts. */
export function loadBlogPosts(q: BlogListParams, init?: RequestInit): Promise<BlogPostRow[]> {
  return fetchJson(BlogPostRows, `${config.websiteApi}/bind-company-blog?${listQuery(q)}`, init);
}

/** GET /api/admin/blog-posts: every post, drafts included (blog.manage). */
export function loadAdminBlogPosts(q: BlogListParams, init?: RequestInit): Promise<BlogPostRow[]> {
  return fetchJson(BlogPostRows, `/api/admin/blog-posts?${listQuery(q)}`, { cache: 'no-store', ...init });
}

/** GET GetPresignedUrl: the address of a stored image (or a CV). */
export async function presignedUrl(key: string): Promise<string> {
  const { url } = await fetchJson(
    PresignedUrlResponse,
    `${config.mediaUrl}/GetPresignedUrl?${toQuery({ s3_key: key })}`,
  );
  return url;
}

/**
 * Where a post's image can be shown from: `image_url` when the server gave one, the URL itself
 * when it is an http(s) address, otherwise null (a storage key, resolved with presignedUrl).
 */
export function directImageUrl(row: Pick<BlogPostRow, 'image_url' | 'featured_image_url'>): string | null {
  if (row.image_url) return row.image_url;
  const value = row.featured_image_url ?? '';
  return isHttpUrl(value) ? value : null;
}

function formData(fields: Record<string, string>, file?: File | null): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (file) body.append('featured_image', file, file.name);
  return body;
}

/** Where the blog form goes (the send queue keeps it for a save made offline). */
export const manageBlogUrl = () => `${config.websiteApi}/manage-company-blog`;

/** The headers of a blog write: CSRF, the version a change is based on, the send queue's key. */
export function blogHeaders(version?: number, idempotencyKey?: string): Record<string, string> {
  return {
    ...CSRF_HEADERS,
    ...(version !== undefined && ifMatch(version)),
    ...(idempotencyKey && { 'Idempotency-Key': idempotencyKey }),
  };
}

/**
 * POST manage-company-blog through the one upload transport (progress for the editor's bar).
 * Answers `{ message, row }`; throws ApiError like fetchJson (status 0 for a network failure), and
 * a `VersionConflict` when a change based on `version` met someone else's.
 */
export function sendBlogForm(
  body: FormData,
  {
    onProgress,
    signal,
    version,
    idempotencyKey,
  }: {
    onProgress?: (p: UploadProgress) => void;
    signal?: AbortSignal;
    version?: number;
    idempotencyKey?: string;
  } = {},
): Promise<ManageBlogAnswer> {
  return versioned(
    BlogPostRowSchema,
    uploadForm(ManageBlogResponse, manageBlogUrl(), body, {
      headers: blogHeaders(version, idempotencyKey),
      withCredentials: true,
      onProgress,
      signal,
    }),
  );
}

/** The fields of the form a change may send. */
export type BlogFormField = Exclude<
  keyof BlogPostForm,
  'mode' | 'blog_id' | 'featured_image' | 'version' | 'changed'
>;

/**
 * What a create (mode 1) or update (mode 2) sends: the text fields (an update only those in
 * `changed`), the chosen image file, and the version an update is based on (If-Match).
 */
export function blogFormParts(form: BlogPostForm): {
  fields: Record<string, string>;
  file: File | null;
  version?: number;
} {
  const { featured_image, ...fields } = form;
  const all: Record<BlogFormField, string> = {
    title: fields.title,
    excerpt: fields.excerpt,
    content: fields.content,
    publication_date: fields.publication_date,
    read_time: fields.read_time,
    status: fields.status,
    featured_image_url: featured_image ? '' : fields.featured_image_url,
    publish_at: fields.publish_at,
    slug: fields.slug,
    cover_alt: fields.cover_alt,
    meta_title: fields.meta_title,
    meta_description: fields.meta_description,
    social_image_url: fields.social_image_url,
    canonical_url: fields.canonical_url,
    tags: fields.tags,
    author_id: fields.author_id,
  };
  const update = fields.mode === 2;
  const sent = update
    ? Object.fromEntries(
        (Object.keys(all) as BlogFormField[])
          .filter((f) => fields.changed?.includes(f) || (f === 'featured_image_url' && featured_image))
          .map((f) => [f, all[f]]),
      )
    : // a new post's address is made from its title unless one was typed
      Object.fromEntries(Object.entries(all).filter(([f, v]) => f !== 'slug' || v !== ''));
  return {
    fields: {
      mode: String(fields.mode),
      company_id: String(BLOG_COMPANY_ID),
      blog_id: String(update ? fields.blog_id : 0),
      ...sent,
    },
    file: featured_image ?? null,
    ...(update && { version: fields.version ?? 1 }),
  };
}

/** Create (mode 1) or update (mode 2) a post (blogFormParts); a chosen file goes as `featured_image`. */
export function saveBlogPost(
  form: BlogPostForm,
  options?: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal; idempotencyKey?: string },
): Promise<ManageBlogAnswer> {
  const { fields, file, version } = blogFormParts(form);
  return sendBlogForm(formData(fields, file), { ...options, version });
}

/** Delete (mode 3). */
export function deleteBlogPost(blogId: number): Promise<ManageBlogAnswer> {
  return sendBlogForm(formData({ mode: '3', company_id: String(BLOG_COMPANY_ID), blog_id: String(blogId) }));
}

/**
 * Publishes or unpublishes a post (the admin card's badge): PATCH /api/admin/blog-posts/:id with
 * the status only, based on the version the card shows (a `VersionConflict` when it changed).
 */
export function saveBlogStatus(row: BlogPostRow, status: BlogStatus): Promise<ManageBlogAnswer> {
  return versioned(
    BlogPostRowSchema,
    fetchJson(
      ManageBlogResponse,
      `/api/admin/blog-posts/${row.blog_id}`,
      adminWrite({ status }, 'PATCH', row.version ?? 1),
    ),
  );
}

const resolved = new Map<string, Promise<string | null>>();

/**
 * Fills `image_url` of rows whose image is a storage key with no address given (a customer's
 * backend): one GetPresignedUrl per key, remembered for the session. A failed lookup gives null,
 * and the card shows 'No Image'.
 */
export async function withImages(rows: BlogPostRow[]): Promise<BlogPostRow[]> {
  return Promise.all(
    rows.map(async (row) => {
      const direct = directImageUrl(row);
      const key = row.featured_image_url ?? '';
      if (direct || !key) return { ...row, image_url: direct };
      let url = resolved.get(key);
      if (!url) {
        url = presignedUrl(key).catch(() => null);
        resolved.set(key, url);
      }
      return { ...row, image_url: await url };
    }),
  );
}
