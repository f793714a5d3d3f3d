import { Readable } from 'node:stream';
import {
  BLOG_COMPANY_ID,
  BlogStatus,
  DRAFT,
  PUBLISHED,
  SCHEDULED,
  tagList,
  isHttpUrl,
  parsePublicationDate,
  type BlogListQuery,
  type ManageBlogFields,
} from '../../contract/blog';
import {
  BLOG_MESSAGES as M,
  blogFormErrors,
  POST_FIELDS,
  SHARE_LINKS_REVOKED,
} from '../../contract/blog-form';
import * as repo from '../db/blog.repo';
import { deleteStoredFiles, recordStoredFile, storedFile } from '../db/files.repo';
import { HttpError } from '../http-error';
import { cleanFileName } from '../lib/file-check';
import { cleanLine } from '../lib/plain-text';
import { checkImage } from '../lib/image-check';
import { isStorageKey } from '../storage/storage';
import { lastChangeOf, valuesOf } from '../db/audit.repo';
import { blogAuthors, userExists } from '../db/auth.repo';
import { htmlToText } from '../../contract/rich-text';
import { deleteRevisions } from '../db/revisions.repo';
import { staleVersion } from '../lib/versions';
import { signedToken, verifiedToken } from '../lib/signed-url';
import { inTransaction, type ServiceContext } from './context';
import { cleanCover, dropCoverWidths, hasWidths, storeCoverWidths } from './blog-images';

/**
 * Blog posts: the public and admin lists, the permalink reads, and every change of a post, each
 * with its audit row in its transaction and the public blog made stale once committed. A post
 * changes through one path, `changePost` (the badge's publish and unpublish, and a full save), so
 * a change is audited and announced the same way whatever sent it. Featured images are uploaded
 * files that are really PNG, JPEG, WebP, GIF or AVIF (stored under generated keys), images this
 * site stored, or http(s) addresses; an upload no post shows any more is removed.
 */

export { BLOG_IMAGE_KIND, MEDIA_PREFIX, imageUrlOf, toRow, type BlogPost } from '../db/blog.repo';

export const listPublished = (ctx: ServiceContext, q: BlogListQuery) =>
  repo.listPosts(ctx.db, q, { includeDrafts: false });
export const listWithDrafts = (ctx: ServiceContext, q: BlogListQuery) =>
  repo.listPosts(ctx.db, q, { includeDrafts: true });
export const publishedBySlug = (ctx: ServiceContext, slug: string) => repo.getPublishedBySlug(ctx.db, slug);
export const latestPublished = (ctx: ServiceContext, limit: number) => repo.latestPublished(ctx.db, limit);
export const publishedPermalinks = (ctx: ServiceContext, limit: number) =>
  repo.publishedPermalinks(ctx.db, limit);
/** Staff who may write posts, for the editor's author choice. */
export const authorsOf = (ctx: ServiceContext) => blogAuthors(ctx.db);
/** Tags in use: of published posts (the public pages) or of every post (the editor's suggestions). */
export const tagsInUse = (ctx: ServiceContext, publishedOnly: boolean) =>
  repo.tagsInUse(ctx.db, { publishedOnly });
/** A tag's name as a published post writes it, or undefined (no published post has it). */
export const publishedTagName = (ctx: ServiceContext, tagSlug: string) =>
  repo.publishedTagName(ctx.db, tagSlug);
export const latestPublishedWithTag = (ctx: ServiceContext, tagSlug: string, limit: number) =>
  repo.latestPublishedWithTag(ctx.db, tagSlug, limit);
/** Where an address a published post had before leads now (its slug), or undefined. */
export const redirectedSlug = (ctx: ServiceContext, oldSlug: string) => repo.redirectedSlug(ctx.db, oldSlug);

// ---------------------------------------------------------------------------------------------
// Share previews: a signed address that shows a post, whatever its status, for 7 days
// ---------------------------------------------------------------------------------------------

const PREVIEW_PURPOSE = 'blog-preview';
export const PREVIEW_TTL_SECONDS = 7 * 24 * 60 * 60;
export const previewPath = (token: string) => `/blog/preview/${token}`;
/** A published post's address. */
export const permalinkPath = (slug: string) => `/blog/${encodeURIComponent(slug)}`;

/**
 * A share preview of a post: `/blog/preview/<token>`, signed with SECRET and valid 7 days, for
 * someone without an account. It shows the post as it is when the link is opened (a later save
 * shows too). The token's subject names the post and the generation of its share links
 * (`<id>_<generation>`), so revoking them (`revokeShareLinks`), unpublishing and deleting the post
 * end every link made before (docs/decisions/009-security-model.md). Audited, since it lets a
 * draft out.
 */
export async function shareLink(ctx: ServiceContext, blogId: number) {
  const post = await repo.getPost(ctx.db, blogId);
  if (!post) throw new HttpError(404, M.notFound);
  const generation = await repo.shareNonceOf(ctx.db, blogId);
  const { token, expires } = signedToken(ctx.config.SECRET, PREVIEW_PURPOSE, `${blogId}_${generation}`, {
    now: ctx.now().getTime(),
    ttlSeconds: PREVIEW_TTL_SECONDS,
  });
  await inTransaction(ctx, (c) =>
    c.audit({
      action: 'preview_link',
      entity: 'blog_post',
      entityId: blogId,
      detail: { ...summaryOf(post), expires_at: expires.toISOString() },
    }),
  );
  return { url: `${ctx.config.PUBLIC_URL}${previewPath(token)}`, expires_at: expires.toISOString() };
}

/** Every share link made so far of a post stops working (audited). */
export async function revokeShareLinks(ctx: ServiceContext, blogId: number) {
  const post = await repo.getPost(ctx.db, blogId);
  if (!post) throw new HttpError(404, M.notFound);
  await inTransaction(ctx, async (c) => {
    await repo.bumpShareNonce(c.trx, blogId);
    await c.audit({
      action: 'preview_links_revoked',
      entity: 'blog_post',
      entityId: blogId,
      detail: summaryOf(post),
    });
  });
  return { message: SHARE_LINKS_REVOKED };
}

/**
 * The post a share preview shows, or undefined (a changed, expired or revoked link, a deleted
 * post). A link made before links had generations names the post alone: generation 0.
 */
export async function previewedPost(ctx: ServiceContext, token: string) {
  const subject = verifiedToken(ctx.config.SECRET, PREVIEW_PURPOSE, token, {
    now: ctx.now().getTime(),
    maxTtlSeconds: PREVIEW_TTL_SECONDS,
  });
  const m = subject === null ? null : /^(\d{1,10})(?:_(\d{1,10}))?$/.exec(subject);
  if (!m) return undefined;
  const blogId = Number(m[1]);
  if ((await repo.shareNonceOf(ctx.db, blogId)) !== Number(m[2] ?? 0)) return undefined;
  return repo.getPost(ctx.db, blogId);
}

/** The texts of every code a refusal may carry: the form's, and the request's own fields. */
export const BLOG_REFUSALS: Record<string, string> = {
  ...M,
  statusInvalid: 'Status must be Published, Draft or Scheduled',
  companyInvalid: `Blog posts belong to company ${BLOG_COMPANY_ID}`,
  blogIdMissing: 'Choose a post',
};

/** A refusal for fields, with each one's message and code (contract/form-rules.ts). */
export const refusedPost = (
  codes: Record<string, string>,
  status = 400,
  message = 'Please correct the highlighted fields.',
) => HttpError.fields(message, codes, BLOG_REFUSALS, status);
export const imageTooLarge = () => refusedPost({ featured_image: 'imageTooLarge' }, 413, M.imageTooLarge);

/** An uploaded featured image, read into memory by the route. */
export interface Upload {
  bytes: Buffer;
  name: string;
}

/** Whether `value` is the key of a featured image this site stored. */
async function isBlogImageKey(ctx: ServiceContext, value: string): Promise<boolean> {
  if (!isStorageKey(value)) return false;
  return (await storedFile(ctx.db, value, repo.BLOG_IMAGE_KIND)) !== undefined;
}

/** Every field of a post as a form gives it (the image apart; the slug only when sent). */
type PostFields = Required<Pick<ManageBlogFields, Exclude<(typeof POST_FIELDS)[number], 'slug'>>> &
  Pick<ManageBlogFields, 'company_id' | 'slug'>;

/** The publication time as the form sends it: ISO 8601 of a Scheduled post, '' otherwise. */
const publishAtOf = (post: repo.BlogPost) => post.publish_at ?? '';

/**
 * The fields to check: those the request sends, and for the others the post's own (an update) or
 * the empty form's (a new post, a Draft).
 */
function fieldsToCheck(
  fields: ManageBlogFields,
  before: repo.BlogPost | undefined,
  actor: ServiceContext['actor'],
): PostFields {
  const base: Record<string, string> = before
    ? (revisionFieldsOf(before) as Record<string, string>)
    : {
        title: '',
        excerpt: '',
        content: '',
        publication_date: '',
        read_time: '',
        featured_image_url: '',
        status: DRAFT,
        publish_at: '',
        cover_alt: '',
        meta_title: '',
        meta_description: '',
        social_image_url: '',
        canonical_url: '',
        tags: '',
        // a new post is its writer's
        author_id: actor ? String(actor.user_id) : '',
      };
  const sent = Object.fromEntries(
    POST_FIELDS.filter((f) => f !== 'slug').map((f) => [f, fields[f] ?? base[f]]),
  );
  return {
    ...(sent as PostFields),
    company_id: fields.company_id,
    slug: fields.slug,
  };
}

/** A slug as a person typed it: trimmed, in one Unicode form, lower case. */
const cleanSlug = (slug: string) => slug.trim().normalize('NFC').toLowerCase();

/**
 * Checks the fields of a create or update; answers the post to save (the image not yet stored).
 * `blogId` is the post an update changes (its own address is not "taken"); `scheduleSent` says
 * whether the request sets the status or the time, the only case a Scheduled time must be ahead.
 */
async function validatePost(
  ctx: ServiceContext,
  fields: PostFields,
  upload: Upload | undefined,
  {
    blogId = 0,
    scheduleSent = true,
    coverSent = true,
  }: { blogId?: number; scheduleSent?: boolean; coverSent?: boolean } = {},
) {
  const content = fields.content;
  const imageUrl = fields.featured_image_url.trim();
  const knownKey =
    !upload && imageUrl !== '' && !isHttpUrl(imageUrl) && (await isBlogImageKey(ctx, imageUrl));
  const slug = fields.slug !== undefined && fields.slug.trim() !== '' ? cleanSlug(fields.slug) : undefined;
  const input = {
    title: cleanLine(fields.title),
    excerpt: cleanLine(fields.excerpt),
    content,
    publication_date: cleanLine(fields.publication_date),
    read_time: cleanLine(fields.read_time),
    featured_image_url: imageUrl,
    // the declared type decides nothing: the bytes are checked below
    image: upload ? { type: 'image/png', size: upload.bytes.length } : null,
    status: fields.status,
    publish_at: fields.publish_at.trim(),
    // a post saved before alt texts existed keeps saving until its cover (or its alt) changes
    cover_alt: coverSent ? cleanLine(fields.cover_alt) : undefined,
    meta_title: cleanLine(fields.meta_title),
    meta_description: cleanLine(fields.meta_description),
    social_image_url: fields.social_image_url.trim(),
    canonical_url: fields.canonical_url.trim(),
    tags: fields.tags,
    // an update may send '' for "made from the title" only on a new post
    slug: slug ?? (fields.slug !== undefined && blogId !== 0 ? '' : undefined),
  };
  const errors: Record<string, string> = blogFormErrors(input, {
    isKnownImageKey: () => knownKey,
    now: scheduleSent ? ctx.now() : undefined,
  });
  const status = BlogStatus.safeParse(fields.status);
  if (!status.success) errors.status = 'statusInvalid';
  if (slug && !errors.slug && (await repo.slugTaken(ctx.db, slug, blogId))) errors.slug = 'slugTaken';
  // the author: nobody (''), or a member of staff who exists
  const authorText = fields.author_id.trim();
  const authorId = /^\d{1,9}$/.test(authorText) ? Number(authorText) : null;
  if (authorText !== '' && (authorId === null || !(await userExists(ctx.db, authorId))))
    errors.author_id = 'authorInvalid';
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
    throw refusedPost(errors, 415, M.imageInvalidFile);
  if (only.length === 1 && errors.featured_image === 'imageTooLarge') throw imageTooLarge();
  if (only.length > 0) throw refusedPost(errors);
  const post: repo.PostInput = {
    title: input.title,
    excerpt: input.excerpt,
    content,
    publication_date: input.publication_date,
    publication_day: parsePublicationDate(input.publication_date)!,
    read_time: input.read_time,
    featured_image_url: imageUrl,
    status: status.data!,
    // only a Scheduled post has a time; stored in UTC whatever offset it was sent with
    publish_at: status.data === SCHEDULED ? new Date(input.publish_at).toISOString() : null,
    cover_alt: cleanLine(fields.cover_alt),
    meta_title: input.meta_title,
    meta_description: input.meta_description,
    social_image_url: input.social_image_url,
    canonical_url: input.canonical_url,
    tags: tagList(fields.tags).map(cleanLine).join(', '),
    author_id: authorId,
    ...(slug !== undefined && { slug }),
  };
  return { post, image: image?.ok ? image.type : undefined };
}

/**
 * Stores an uploaded cover under a generated key and records it; answers the key. A photo is
 * stored cleaned (blog-images.ts `cleanCover`: decoded, upright, no metadata, under the pixel
 * limit) with its widths made now (`storeCoverWidths`): the server never converts a cover when a
 * visitor asks for it.
 */
async function storeImage(
  ctx: ServiceContext,
  upload: Upload,
  type: { ext: string; contentType: string },
): Promise<string> {
  const clean = await cleanCover(upload.bytes, type.contentType);
  if (clean === 'tooLarge') throw imageTooLarge();
  if (clean === 'invalid') throw refusedPost({ featured_image: 'imageInvalidFile' }, 415, M.imageInvalidFile);
  const key = await ctx.storage.put(Readable.from([clean]), {
    prefix: 'blog',
    ext: type.ext,
    contentType: type.contentType,
  });
  try {
    await recordStoredFile(ctx.db, {
      file_key: key,
      kind: repo.BLOG_IMAGE_KIND,
      content_type: type.contentType,
      byte_size: clean.length,
      original_name: cleanFileName(upload.name) ?? `image.${type.ext}`,
    });
    if (hasWidths(type.contentType)) await storeCoverWidths(ctx, key, clean);
  } catch (err) {
    await deleteStoredFiles(ctx.db, [key], repo.BLOG_IMAGE_KIND).catch(() => {});
    await ctx.storage.delete(key);
    throw err;
  }
  return key;
}

/** Removes an uploaded image no post shows any more (a failed save, a deleted post), widths too. */
async function dropImageIfUnused(ctx: ServiceContext, key: string) {
  if (!isStorageKey(key) || (await repo.imageInUse(ctx.db, key))) return;
  await dropCoverWidths(ctx, [key]);
  await deleteStoredFiles(ctx.db, [key], repo.BLOG_IMAGE_KIND);
  await ctx.storage.delete(key);
}

/** What a revision keeps of a post: its fields as the form shows them (text). */
const revisionFieldsOf = (post: repo.BlogPost) =>
  Object.fromEntries(
    POST_FIELDS.map((f) => [
      f,
      f === 'publish_at' ? publishAtOf(post) : f === 'author_id' ? String(post.author_id ?? '') : post[f],
    ]),
  ) as Record<(typeof POST_FIELDS)[number], string>;

/** What an audit row says of a post. */
const summaryOf = (post: repo.BlogPost) => ({ title: post.title, slug: post.slug, status: post.status });

/** 409 with the post as it is now, and who changed it last (docs/decisions/022). */
async function stale(db: ServiceContext['db'], post: repo.BlogPost) {
  return staleVersion(repo.toRow(post), await lastChangeOf(db, 'blog_post', post.blog_id));
}

/**
 * The one write path of an existing post: `change` holds the fields to set (the badge sends only
 * the status; the editor the fields the person changed). The post is read again under a lock (a
 * save racing this one waits) and must still be at `version`, or the change is refused with 409
 * and the post as it is now; a change that changes nothing (a double click, a second tab) writes
 * and audits nothing; a change of the status alone leaves the text as it is, even when it fails
 * today's form rules, so such a post can still be taken down.
 */
async function changePost(
  ctx: ServiceContext,
  blogId: number,
  change: Partial<repo.PostInput>,
  version: number,
  restoredFrom?: number,
): Promise<repo.BlogPost> {
  return inTransaction(ctx, async (c) => {
    const fresh = await repo.getPost(c.trx, blogId, true);
    if (!fresh) throw new HttpError(404, M.notFound);
    if (fresh.version !== version) throw await stale(c.trx, fresh);
    const changed = POST_FIELDS.filter((k) => change[k] !== undefined && fresh[k] !== change[k]);
    if (
      change.slug !== undefined &&
      change.slug !== fresh.slug &&
      (await repo.slugTaken(c.trx, change.slug, blogId))
    )
      throw refusedPost({ slug: 'slugTaken' });
    if (changed.length === 0) return fresh;
    const statusOnly = changed.length === 1 && changed[0] === 'status';
    const row = statusOnly
      ? await repo.setPostStatus(c.trx, fresh, change.status!)
      : await repo.updatePost(c.trx, fresh, { ...postInputOf(fresh), ...change });
    // taken off the site: the share links made so far end with it
    if (fresh.status === PUBLISHED && row.status !== PUBLISHED) await repo.bumpShareNonce(c.trx, blogId);
    await c.audit({
      action: restoredFrom ? 'restore' : statusOnly ? 'status' : 'update',
      entity: 'blog_post',
      entityId: row.blog_id,
      detail: {
        ...summaryOf(row),
        changed,
        values: valuesOf(changed, fresh, row, (f, v) =>
          f === 'content' ? htmlToText(String(v)) : String(v),
        ),
        ...(restoredFrom && { revision: restoredFrom }),
      },
    });
    await c.revision({
      entity: 'blog_post',
      entityId: row.blog_id,
      version: row.version,
      fields: revisionFieldsOf(row),
      changed,
      restoredFrom,
      before: { version: fresh.version, fields: revisionFieldsOf(fresh) },
    });
    c.announce({ type: 'post.edited', blog_id: row.blog_id, status: row.status, changed });
    if (row.status === PUBLISHED && fresh.status !== PUBLISHED)
      c.announce({ type: 'post.published', blog_id: row.blog_id, slug: row.slug });
    if (fresh.status === PUBLISHED && row.status !== PUBLISHED)
      c.announce({ type: 'post.unpublished', blog_id: row.blog_id });
    return row;
  });
}

const postInputOf = (post: repo.BlogPost): repo.PostInput => ({
  title: post.title,
  excerpt: post.excerpt,
  content: post.content,
  publication_date: post.publication_date,
  publication_day: post.publication_day,
  read_time: post.read_time,
  featured_image_url: post.featured_image_url,
  status: post.status as repo.PostInput['status'],
  publish_at: post.publish_at,
  cover_alt: post.cover_alt,
  meta_title: post.meta_title,
  meta_description: post.meta_description,
  social_image_url: post.social_image_url,
  canonical_url: post.canonical_url,
  tags: post.tags,
  author_id: post.author_id,
});

/**
 * Publishes or unpublishes a post (the badge of its card), if it is still at `version`: Published
 * or Draft (a Scheduled post's badge makes it a Draft again, its time forgotten).
 */
export async function setStatus(ctx: ServiceContext, blogId: number, status: BlogStatus, version: number) {
  const row = await changePost(ctx, blogId, { status }, version);
  return { message: M.updated, row: repo.toRow(row) };
}

/**
 * Creates a post (`blogId` undefined) from the blog form, or changes the fields an update sends
 * (the others stay as they are), if the post is still at `version`: otherwise 409 with the post
 * as it is now. The post the change makes is checked whole against the form's rules.
 */
export async function savePost(
  ctx: ServiceContext,
  blogId: number | undefined,
  fields: ManageBlogFields,
  upload: Upload | undefined,
  version?: number,
  restoredFrom?: number,
) {
  const before = blogId !== undefined ? await repo.getPost(ctx.db, blogId) : undefined;
  if (blogId !== undefined && !before) throw new HttpError(404, M.notFound);
  if (before && before.version !== version) throw await stale(ctx.db, before);
  const { post, image } = await validatePost(ctx, fieldsToCheck(fields, before, ctx.actor), upload, {
    blogId: blogId ?? 0,
    scheduleSent: !before || fields.status !== undefined || fields.publish_at !== undefined,
    coverSent:
      !before || !!upload || fields.featured_image_url !== undefined || fields.cover_alt !== undefined,
  });
  const newKey = upload && image ? await storeImage(ctx, upload, image) : undefined;
  if (newKey) post.featured_image_url = newKey;
  try {
    if (before) {
      // only what the request sends (or the new image): an untouched field is not written back
      const sent = POST_FIELDS.filter(
        (f) => fields[f] !== undefined || (f === 'featured_image_url' && newKey),
      );
      const change: Partial<repo.PostInput> = Object.fromEntries(sent.map((f) => [f, post[f]]));
      if (sent.includes('publication_date')) change.publication_day = post.publication_day;
      // the status and its time go together: a Scheduled post has one, the others none
      if (sent.includes('status') || sent.includes('publish_at')) {
        change.status = post.status;
        change.publish_at = post.publish_at;
      }
      if (change.slug === undefined) delete change.slug;
      return {
        message: M.updated,
        row: repo.toRow(await changePost(ctx, before.blog_id, change, before.version, restoredFrom)),
      };
    }
    const row = await inTransaction(ctx, async (c) => {
      const created = await repo.createPost(c.trx, post);
      await c.audit({
        action: 'create',
        entity: 'blog_post',
        entityId: created.blog_id,
        detail: summaryOf(created),
      });
      await c.revision({
        entity: 'blog_post',
        entityId: created.blog_id,
        version: created.version,
        fields: revisionFieldsOf(created),
        changed: POST_FIELDS,
      });
      c.announce({ type: 'post.added', blog_id: created.blog_id, status: created.status });
      if (created.status === PUBLISHED)
        c.announce({ type: 'post.published', blog_id: created.blog_id, slug: created.slug });
      return created;
    });
    return { message: M.created, row: repo.toRow(row) };
  } catch (err) {
    if (newKey) await dropImageIfUnused(ctx, newKey).catch(() => {});
    // another post took the chosen address between the check and the write
    if (post.slug !== undefined && repo.isUniqueViolation(err)) throw refusedPost({ slug: 'slugTaken' });
    throw err;
  }
}

/** How many due posts one run publishes at most (the rest wait for the next, a moment later). */
const DUE_BATCH = 100;

/**
 * Publishes every Scheduled post whose time has come (`now`), each through `changePost` like a
 * person's publication: audited (by the system), a revision, the public blog told. A post someone
 * changed meanwhile (another version) is read again by the next run; a post someone unscheduled
 * is no longer due. Two processes running this at once publish each post once: the change is
 * conditional on the version. Answers the ids published.
 */
export async function publishDuePosts(ctx: ServiceContext, now = ctx.now()): Promise<number[]> {
  const system = { ...ctx, actor: null };
  const published: number[] = [];
  for (const due of await repo.duePosts(ctx.db, now.toISOString(), DUE_BATCH)) {
    try {
      await changePost(system, due.blog_id, { status: PUBLISHED }, due.version);
      published.push(due.blog_id);
    } catch (err) {
      if (err instanceof HttpError && (err.statusCode === 409 || err.statusCode === 404)) continue;
      throw err;
    }
  }
  if (published.length > 0) ctx.log.info({ published }, `Published ${published.length} scheduled post(s)`);
  return published;
}

/** When the next Scheduled post goes public, or undefined. */
export const nextScheduledAt = async (ctx: ServiceContext) => {
  const at = await repo.nextPublishAt(ctx.db);
  return at === undefined ? undefined : new Date(at);
};

/** Deletes a post, then its uploaded image when no other post shows it. */
export async function deletePost(ctx: ServiceContext, blogId: number) {
  const deleted = await inTransaction(ctx, async (c) => {
    const row = await repo.deletePost(c.trx, blogId);
    if (row) {
      await c.audit({
        action: 'delete',
        entity: 'blog_post',
        entityId: row.blog_id,
        detail: summaryOf(row),
      });
      await deleteRevisions(c.trx, 'blog_post', row.blog_id);
      c.announce({ type: 'post.deleted', blog_id: row.blog_id });
    }
    return row;
  });
  if (!deleted) throw new HttpError(404, M.notFound);
  await dropImageIfUnused(ctx, deleted.featured_image_url).catch((err: unknown) =>
    ctx.log.warn({ err }, 'Could not remove the image of a deleted blog post'),
  );
  return { message: M.deletedText };
}
