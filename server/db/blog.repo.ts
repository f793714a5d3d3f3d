import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import { COUNT_CAP } from '../../contract/paging';
import {
  BLOG_COMPANY_ID,
  isHttpUrl,
  type BlogListQuery,
  type BlogPostRow,
  type BlogStatus,
  PUBLISHED,
  SCHEDULED,
  slugify,
  tagList,
} from '../../contract/blog';
import { htmlToText } from '../../contract/rich-text';
import { sanitizeBlogText } from '../lib/rich-text';
import type { BlogPostTable } from './blog.schema';
import { forUpdate } from './database';
import type { Database } from './schema';
import { ftsRowids, searchPlan, tsMatches, type SearchPlan } from './full-text';

/**
 * Blog posts. Plain functions taking `db` first; they work inside a transaction too. Writes go
 * through createPost/updatePost so `search_text` (the full-text index) and `updated_at` stay in
 * step. Content reaching these functions is already sanitised (routes/blog.ts).
 */

type Db = Kysely<Database>;
/** A post as read: its row, and its author's display name ('' or null: none to show). */
export type BlogPost = Selectable<BlogPostTable> & { author_name: string | null };

/** The author's display name, read with the post (a subquery: one row either way). */
const authorName = (eb: ExpressionBuilder<Database, 'blog_post'>) =>
  eb
    .selectFrom('admin_user')
    .select('admin_user.display_name')
    .whereRef('admin_user.user_id', '=', 'blog_post.author_id')
    .as('author_name');

/** Where the public reads an uploaded image (routes/media.ts). */
export const MEDIA_PREFIX = '/media/';
/** The stored_file kind of featured images. */
export const BLOG_IMAGE_KIND = 'blog-image';

/** The public address of a post's image: the http(s) URL itself, or `/media/<key>`. */
export function imageUrlOf(featuredImage: string): string | null {
  if (!featuredImage) return null;
  if (isHttpUrl(featuredImage)) return featuredImage;
  return `${MEDIA_PREFIX}${featuredImage}`;
}

export function toRow(post: BlogPost): BlogPostRow {
  return {
    blog_id: post.blog_id,
    title: post.title,
    excerpt: post.excerpt,
    content: post.content,
    publication_date: post.publication_date,
    read_time: post.read_time,
    featured_image_url: post.featured_image_url,
    status: post.status,
    slug: post.slug,
    image_url: imageUrlOf(post.featured_image_url),
    updated_at: post.updated_at,
    version: post.version,
    publish_at: post.publish_at,
    cover_alt: post.cover_alt,
    meta_title: post.meta_title,
    meta_description: post.meta_description,
    social_image_url: post.social_image_url,
    canonical_url: post.canonical_url,
    tags: post.tags,
    author_id: post.author_id,
    author_name: post.author_name || null,
  };
}

const COLUMNS = [
  'blog_id',
  'company_id',
  'title',
  'slug',
  'excerpt',
  'content',
  'search_text',
  'publication_date',
  'publication_day',
  'read_time',
  'featured_image_url',
  'status',
  'created_at',
  'updated_at',
  'version',
  'publish_at',
  'cover_alt',
  'meta_title',
  'meta_description',
  'social_image_url',
  'canonical_url',
  'tags',
  'author_id',
  'published_at',
] as const;

export interface ListOptions {
  /** false for everyone but the admin list: drafts never leave the admin API. */
  includeDrafts: boolean;
}

/**
 * A search with at least this many matches is common (a word most posts contain): SQLite walks
 * the list in page order (`+blog_id` keeps it from starting at the matches; see full-text.ts
 * `searchPlan`; PostgreSQL: see listPosts).
 */
const COMMON_MATCHES = 5_000;

function filtered(
  db: Db,
  q: Pick<BlogListQuery, 'blogid' | 'slug' | 'status' | 'tag'>,
  plan: SearchPlan,
  { includeDrafts }: ListOptions,
) {
  let query = db.selectFrom('blog_post').where('company_id', '=', BLOG_COMPANY_ID);
  if (!includeDrafts) query = query.where('status', '=', PUBLISHED);
  else if (q.status) query = query.where('status', '=', q.status);
  if (q.blogid) query = query.where('blog_id', '=', q.blogid);
  if (q.slug !== undefined) query = query.where('slug', '=', q.slug);
  if (q.tag !== undefined)
    query = query.where('blog_id', 'in', (eb) =>
      eb.selectFrom('blog_post_tag').select('blog_id').where('tag_slug', '=', q.tag!),
    );
  if (plan.kind === 'postgres') {
    query = query.where(tsMatches(plan.tsquery));
  } else if (plan.kind === 'sqlite') {
    const matches = ftsRowids('blog_post_fts', plan.match);
    query = query.where(plan.common ? sql<number>`+blog_id` : sql.ref('blog_id'), 'in', matches);
  }
  return query;
}

/**
 * A page of posts, newest publication day first (then newest id), with `total_count` on the first
 * row: exact up to 10,000 matches, 10,000 above that. The count reads at most
 * 10,000 index entries, so it costs the same with 10,000 posts or a million.
 */
export async function listPosts(db: Db, q: BlogListQuery, options: ListOptions): Promise<BlogPostRow[]> {
  const plan = await searchPlan(db, q.search, 'blog_post_fts', COMMON_MATCHES);
  // PostgreSQL misjudges how many posts a prefix search matches; its exact count (capped) decides:
  // a selective search is sorted after the full-text index finds it, a common one reads the list
  // index in page order.
  const total = plan.kind === 'postgres' ? await countPosts(db, q, options, plan) : undefined;
  const sortAfterSearch = plan.kind === 'postgres' && total! < COMMON_MATCHES;
  const posts = await filtered(db, q, plan, options)
    .select(COLUMNS)
    .select(authorName)
    .orderBy(sortAfterSearch ? sql`publication_day || ''` : sql.ref('publication_day'), 'desc')
    .orderBy(sortAfterSearch ? sql`blog_id + 0` : sql.ref('blog_id'), 'desc')
    .limit(q.page_size)
    .offset(q.page_size * (q.page_number - 1))
    .execute();
  if (posts.length === 0) return [];
  const count = total ?? (await countPosts(db, q, options, plan));
  return posts.map((post, i) => (i === 0 ? { ...toRow(post), total_count: count } : toRow(post)));
}

export async function countPosts(
  db: Db,
  q: Pick<BlogListQuery, 'blogid' | 'search' | 'slug' | 'status' | 'tag'>,
  options: ListOptions,
  plan?: SearchPlan,
): Promise<number> {
  const capped = filtered(
    db,
    q,
    plan ?? (await searchPlan(db, q.search, 'blog_post_fts', COMMON_MATCHES)),
    options,
  )
    .select('blog_id')
    .limit(COUNT_CAP);
  const { n } = await db
    .selectFrom(capped.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** One post; with `lock`, its row stays locked until the caller's transaction ends (a save). */
export async function getPost(db: Db, blogId: number, lock = false): Promise<BlogPost | undefined> {
  const query = db
    .selectFrom('blog_post')
    .select(COLUMNS)
    .select(authorName)
    .where('company_id', '=', BLOG_COMPANY_ID)
    .where('blog_id', '=', blogId);
  return (lock ? forUpdate(db, query) : query).executeTakeFirst();
}

/** A published post by its permalink, for `/blog/{slug}`. */
export async function getPublishedBySlug(db: Db, slug: string): Promise<BlogPost | undefined> {
  return db
    .selectFrom('blog_post')
    .select(COLUMNS)
    .select(authorName)
    .where('slug', '=', slug)
    .where('company_id', '=', BLOG_COMPANY_ID)
    .where('status', '=', PUBLISHED)
    .executeTakeFirst();
}

/** The newest published posts (the RSS feed). */
export async function latestPublished(db: Db, limit: number): Promise<BlogPost[]> {
  return db
    .selectFrom('blog_post')
    .select(COLUMNS)
    .select(authorName)
    .where('company_id', '=', BLOG_COMPANY_ID)
    .where('status', '=', PUBLISHED)
    .orderBy('publication_day', 'desc')
    .orderBy('blog_id', 'desc')
    .limit(limit)
    .execute();
}

/** Permalinks of published posts, newest first, for the sitemap. */
export async function publishedPermalinks(
  db: Db,
  limit: number,
): Promise<{ slug: string; updated_at: string }[]> {
  return db
    .selectFrom('blog_post')
    .select(['slug', 'updated_at'])
    .where('company_id', '=', BLOG_COMPANY_ID)
    .where('status', '=', PUBLISHED)
    .orderBy('publication_day', 'desc')
    .orderBy('blog_id', 'desc')
    .limit(limit)
    .execute();
}

/** Every published post's id and version (the site search's resynchronisation). */
export async function publishedVersions(db: Db): Promise<{ blog_id: number; updated_at: string }[]> {
  return db
    .selectFrom('blog_post')
    .select(['blog_id', 'updated_at'])
    .where('company_id', '=', BLOG_COMPANY_ID)
    .where('status', '=', PUBLISHED)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Slugs
// ---------------------------------------------------------------------------------------------

/** `base`, or `base-2`, `base-3`... : the first that no other post uses. */
export async function uniqueSlug(db: Db, base: string, exceptId = 0): Promise<string> {
  const taken = new Set(
    (
      await db
        .selectFrom('blog_post')
        .select('slug')
        .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
        .where('blog_id', '!=', exceptId)
        .execute()
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

// ---------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------

export interface PostInput {
  title: string;
  excerpt: string;
  /** Sanitised HTML. */
  content: string;
  publication_date: string;
  publication_day: string;
  read_time: string;
  featured_image_url: string;
  status: BlogStatus;
  /** When a Scheduled post goes public; null otherwise (the service keeps the two in step). */
  publish_at?: string | null;
  /** The blog editor's fields (docs/decisions/025-blog-publishing.md); left out, a new post has none (''). */
  cover_alt?: string;
  meta_title?: string;
  meta_description?: string;
  social_image_url?: string;
  canonical_url?: string;
  /** An address the writer chose (checked and free); without it a new post's is made from the title. */
  slug?: string;
  /** The tags, ', ' between them (tagList's); left out, a new post has none and a change keeps them. */
  tags?: string;
  /** The author (an admin_user, checked); null: none. Left out, a new post has none. */
  author_id?: number | null;
}

/** A timestamp later than `previous`, so every change has its own `updated_at` (page caches key on it). */
function nextTimestamp(previous?: string): string {
  const now = Date.now();
  const last = previous ? Date.parse(previous) : 0;
  return new Date(Math.max(now, Number.isFinite(last) ? last + 1 : now)).toISOString();
}

export const isUniqueViolation = (err: unknown) =>
  /unique|duplicate key/i.test(err instanceof Error ? err.message : String(err));

/** The post as stored: its content sanitised (the one place rich text is cleaned, as for openings) and its search text. */
export function withCleanContent<T extends { content: string }>(input: T): T & { search_text: string } {
  const content = sanitizeBlogText(input.content);
  return { ...input, content, search_text: htmlToText(content) };
}

export async function createPost(db: Db, input: PostInput): Promise<BlogPost> {
  const now = nextTimestamp();
  for (let attempt = 0; ; attempt++) {
    const base = slugify(input.title);
    const slug =
      input.slug ??
      (attempt < 3 ? await uniqueSlug(db, base) : `${base}-${Math.random().toString(36).slice(2, 8)}`);
    try {
      const created = await db
        .insertInto('blog_post')
        .values({
          company_id: BLOG_COMPANY_ID,
          ...withCleanContent(input),
          slug,
          created_at: now,
          updated_at: now,
          published_at: input.status === PUBLISHED ? now : null,
        })
        .returning(COLUMNS)
        .returning(authorName)
        .executeTakeFirstOrThrow();
      // a new post may take an address an edited post had: that redirect ends
      await db.deleteFrom('blog_slug_redirect').where('old_slug', '=', slug).execute();
      await writeTags(db, created.blog_id, created.tags);
      return created;
    } catch (err) {
      // two posts with the same title saved at once: take the next free slug
      if (input.slug !== undefined || !isUniqueViolation(err) || attempt >= 5) throw err;
    }
  }
}

/**
 * Saves a post. The slug is the one the writer chose (`input.slug`), or else follows the title
 * while the post is a Draft (being written); a Published or Scheduled post keeps its address.
 * When a published post's address changes, the old one is kept as a redirect to the post.
 */
/** When a post changing to `status` went public: now when it goes public, as it was while it stays. */
const publishedAt = (current: BlogPost, status: BlogStatus) =>
  status !== PUBLISHED ? null : current.status === PUBLISHED ? current.published_at : nextTimestamp();

export async function updatePost(db: Db, current: BlogPost, input: PostInput): Promise<BlogPost> {
  const chosen = input.slug !== undefined && input.slug !== current.slug ? input.slug : undefined;
  const keepSlug =
    chosen === undefined &&
    (current.status !== 'Draft' || input.slug !== undefined || input.title.trim() === current.title.trim());
  for (let attempt = 0; ; attempt++) {
    const slug =
      chosen ?? (keepSlug ? current.slug : await uniqueSlug(db, slugify(input.title), current.blog_id));
    if (slug !== current.slug) await moveAddress(db, current, slug);
    try {
      const row = await db
        .updateTable('blog_post')
        .set({
          ...withCleanContent(input),
          slug,
          updated_at: nextTimestamp(current.updated_at),
          version: current.version + 1,
          published_at: publishedAt(current, input.status),
        })
        .where('blog_id', '=', current.blog_id)
        .returning(COLUMNS)
        .returning(authorName)
        .executeTakeFirst();
      if (!row) throw new Error(`Blog post ${current.blog_id} vanished during the update`);
      if (row.tags !== current.tags) await writeTags(db, row.blog_id, row.tags);
      return row;
    } catch (err) {
      if (keepSlug || chosen !== undefined || !isUniqueViolation(err) || attempt >= 5) throw err;
    }
  }
}

/**
 * A post's address changes to `slug`: a published post's old address becomes a redirect to it,
 * and `slug` stops being a redirect (to this post or to another that had it before).
 */
async function moveAddress(db: Db, current: BlogPost, slug: string) {
  await db.deleteFrom('blog_slug_redirect').where('old_slug', '=', slug).execute();
  if (current.status !== PUBLISHED) return;
  await db
    .insertInto('blog_slug_redirect')
    .values({ old_slug: current.slug, blog_id: current.blog_id, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('old_slug').doUpdateSet({ blog_id: current.blog_id }))
    .execute();
}

/** The rows of a post's tags (`tags` as tagList reads it), in the save's transaction. */
async function writeTags(db: Db, blogId: number, tags: string) {
  await db.deleteFrom('blog_post_tag').where('blog_id', '=', blogId).execute();
  const rows = tagList(tags).map((name) => ({ blog_id: blogId, tag_slug: slugify(name), tag_name: name }));
  if (rows.length > 0) await db.insertInto('blog_post_tag').values(rows).execute();
}

/**
 * The tags of published posts (or of every post, for the editor's suggestions), most used first:
 * each with the name it was first given and how many posts have it.
 */
export async function tagsInUse(db: Db, { publishedOnly }: { publishedOnly: boolean }, limit = 500) {
  let query = db
    .selectFrom('blog_post_tag as t')
    .innerJoin('blog_post as p', 'p.blog_id', 't.blog_id')
    .select((eb) => [
      't.tag_slug as slug',
      eb.fn.min('t.tag_name').as('name'),
      eb.fn.countAll<number>().as('posts'),
    ])
    .groupBy('t.tag_slug');
  if (publishedOnly) query = query.where('p.status', '=', PUBLISHED);
  const rows = await query.orderBy('posts', 'desc').orderBy('t.tag_slug').limit(limit).execute();
  return rows.map((r) => ({ slug: r.slug, name: String(r.name), posts: Number(r.posts) }));
}

/** A tag's name as written on a published post, or undefined when no published post has it. */
export async function publishedTagName(db: Db, tagSlug: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('blog_post_tag as t')
    .innerJoin('blog_post as p', 'p.blog_id', 't.blog_id')
    .select('t.tag_name')
    .where('t.tag_slug', '=', tagSlug)
    .where('p.status', '=', PUBLISHED)
    .orderBy('p.publication_day', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.tag_name;
}

/** The newest published posts with a tag (its feed). */
export async function latestPublishedWithTag(db: Db, tagSlug: string, limit: number): Promise<BlogPost[]> {
  return db
    .selectFrom('blog_post')
    .select(COLUMNS)
    .select(authorName)
    .where('company_id', '=', BLOG_COMPANY_ID)
    .where('status', '=', PUBLISHED)
    .where('blog_id', 'in', (eb) =>
      eb.selectFrom('blog_post_tag').select('blog_id').where('tag_slug', '=', tagSlug),
    )
    .orderBy('publication_day', 'desc')
    .orderBy('blog_id', 'desc')
    .limit(limit)
    .execute();
}

/** Whether another post has this address now (a redirect does not hold it). */
export async function slugTaken(db: Db, slug: string, exceptId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('blog_post')
    .select('blog_id')
    .where('slug', '=', slug)
    .where('blog_id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Where an old address of a published post leads: the post's address now, if it is published. */
export async function redirectedSlug(db: Db, oldSlug: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('blog_slug_redirect as r')
    .innerJoin('blog_post as p', 'p.blog_id', 'r.blog_id')
    .select('p.slug')
    .where('r.old_slug', '=', oldSlug)
    .where('p.status', '=', PUBLISHED)
    .executeTakeFirst();
  return row?.slug;
}

/** Every old address of a post with its address now (`/blog/<old>` -> `/blog/<slug>`): figures merge them. */
export async function renamedPostPaths(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('blog_slug_redirect as r')
    .innerJoin('blog_post as p', 'p.blog_id', 'r.blog_id')
    .select(['r.old_slug', 'p.slug'])
    .execute();
  return new Map(rows.map((r) => [`/blog/${r.old_slug}`, `/blog/${r.slug}`]));
}

// ---------------------------------------------------------------------------------------------
// Scheduled posts
// ---------------------------------------------------------------------------------------------

/** Scheduled posts whose time has come (`now`, ISO), the earliest first. */
export async function duePosts(db: Db, now: string, limit: number) {
  return db
    .selectFrom('blog_post')
    .select(['blog_id', 'version'])
    .where('status', '=', SCHEDULED)
    .where('publish_at', '<=', now)
    .orderBy('publish_at')
    .limit(limit)
    .execute();
}

/** When the next Scheduled post goes public (ISO), or undefined when none waits. */
export async function nextPublishAt(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('blog_post')
    .select('publish_at')
    .where('status', '=', SCHEDULED)
    .where('publish_at', 'is not', null)
    .orderBy('publish_at')
    .limit(1)
    .executeTakeFirst();
  return row?.publish_at ?? undefined;
}

/**
 * Publishes or unpublishes a post (or publishes a Scheduled one); nothing else changes (its slug,
 * its text). Only a Scheduled post has a publication time.
 */
export async function setPostStatus(db: Db, current: BlogPost, status: BlogStatus): Promise<BlogPost> {
  const row = await db
    .updateTable('blog_post')
    .set({
      status,
      publish_at: status === SCHEDULED ? current.publish_at : null,
      updated_at: nextTimestamp(current.updated_at),
      version: current.version + 1,
      published_at: publishedAt(current, status),
    })
    .where('blog_id', '=', current.blog_id)
    .returning(COLUMNS)
    .returning(authorName)
    .executeTakeFirst();
  if (!row) throw new Error(`Blog post ${current.blog_id} vanished during the status change`);
  return row;
}

export async function deletePost(db: Db, blogId: number): Promise<BlogPost | undefined> {
  return db
    .deleteFrom('blog_post')
    .where('company_id', '=', BLOG_COMPANY_ID)
    .where('blog_id', '=', blogId)
    .returning(COLUMNS)
    .returning(authorName)
    .executeTakeFirst();
}

/** Whether any post still shows this image (before an unused upload is removed). */
export async function imageInUse(db: Db, featuredImage: string): Promise<boolean> {
  const row = await db
    .selectFrom('blog_post')
    .select('blog_id')
    .where('featured_image_url', '=', featuredImage)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Keys of blog images (covers, images in the text) stored before `before` (ISO time). */
export async function blogImageKeysBefore(db: Db, before: string): Promise<string[]> {
  const rows = await db
    .selectFrom('stored_file')
    .select('file_key')
    .where('kind', '=', BLOG_IMAGE_KIND)
    .where('created_at', '<', before)
    .execute();
  return rows.map((r) => r.file_key);
}

/**
 * Every text that may name a blog image: each post's cover, social image and text, and the fields
 * of each kept revision of a post; a page of rows at a time.
 */
export async function* textsNamingBlogImages(db: Db): AsyncGenerator<string> {
  const PAGE = 200;
  for (let after = 0; ;) {
    const posts = await db
      .selectFrom('blog_post')
      .select(['blog_id', 'featured_image_url', 'social_image_url', 'content'])
      .where('blog_id', '>', after)
      .orderBy('blog_id')
      .limit(PAGE)
      .execute();
    for (const p of posts) yield `${p.featured_image_url} ${p.social_image_url ?? ''} ${p.content}`;
    if (posts.length < PAGE) break;
    after = posts[posts.length - 1].blog_id;
  }
  for (let after = 0; ;) {
    const revisions = await db
      .selectFrom('record_revision')
      .select(['revision_id', 'fields'])
      .where('entity', '=', 'blog_post')
      .where('revision_id', '>', after)
      .orderBy('revision_id')
      .limit(PAGE)
      .execute();
    for (const r of revisions) yield r.fields;
    if (revisions.length < PAGE) break;
    after = revisions[revisions.length - 1].revision_id;
  }
}

// Share links ---------------------------------------------------------------------------------

/** The current generation of a post's share links (0 until one was revoked). */
export async function shareNonceOf(db: Db, blogId: number): Promise<number> {
  const row = await db
    .selectFrom('blog_post_share')
    .select('nonce')
    .where('blog_id', '=', blogId)
    .executeTakeFirst();
  return Number(row?.nonce ?? 0);
}

/** Starts the next generation of a post's share links: every earlier one stops working. */
export async function bumpShareNonce(db: Db, blogId: number): Promise<void> {
  await db
    .insertInto('blog_post_share')
    .values({ blog_id: blogId, nonce: 1 })
    .onConflict((oc) => oc.column('blog_id').doUpdateSet({ nonce: sql`blog_post_share.nonce + 1` }))
    .execute();
}

// Cover widths (migration 2920) ---------------------------------------------------------------

/** The stored kind of a cover's width files (their stored_file rows). */
export const COVER_WIDTH_KIND = 'blog-image-width';

/** The file that answers `cover_key` at `width`, if it was made. */
export async function coverWidthFile(db: Db, coverKey: string, width: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('cover_width')
    .select('file_key')
    .where('cover_key', '=', coverKey)
    .where('width', '=', width)
    .executeTakeFirst();
  return row?.file_key;
}

export async function insertCoverWidths(
  db: Db,
  rows: { cover_key: string; width: number; file_key: string }[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('cover_width').values(rows).execute();
}

/** The width files of these covers (each once), for removing them with their covers. */
export async function coverWidthFilesOf(db: Db, coverKeys: readonly string[]): Promise<string[]> {
  if (coverKeys.length === 0) return [];
  const rows = await db
    .selectFrom('cover_width')
    .select('file_key')
    .distinct()
    .where('cover_key', 'in', coverKeys)
    .execute();
  return rows.map((r) => r.file_key);
}

export async function deleteCoverWidths(db: Db, coverKeys: readonly string[]): Promise<void> {
  if (coverKeys.length > 0) await db.deleteFrom('cover_width').where('cover_key', 'in', coverKeys).execute();
}

/**
 * Covers stored before their widths were made at upload: photo covers that posts and kept
 * revisions name, with no width yet (the one-time repair).
 */
export async function coversWithoutWidths(db: Db): Promise<{ file_key: string; content_type: string }[]> {
  const named = new Set<string>();
  const photo = /^blog\/[0-9a-f-]{36}\.(?:jpg|jpeg|png|webp|avif)$/;
  for (const p of await db.selectFrom('blog_post').select('featured_image_url').execute())
    if (photo.test(p.featured_image_url)) named.add(p.featured_image_url);
  const revisions = db.selectFrom('record_revision').select('fields').where('entity', '=', 'blog_post');
  for (const r of await revisions.execute()) {
    const cover = (JSON.parse(r.fields) as { featured_image_url?: unknown }).featured_image_url;
    if (typeof cover === 'string' && photo.test(cover)) named.add(cover);
  }
  if (named.size === 0) return [];
  const keys = [...named];
  const found: { file_key: string; content_type: string }[] = [];
  for (let i = 0; i < keys.length; i += 200) {
    const rows = await db
      .selectFrom('stored_file')
      .select(['file_key', 'content_type'])
      .where('kind', '=', BLOG_IMAGE_KIND)
      .where('file_key', 'in', keys.slice(i, i + 200))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('cover_width')
              .select('width')
              .whereRef('cover_width.cover_key', '=', 'stored_file.file_key'),
          ),
        ),
      )
      .execute();
    found.push(...rows);
  }
  return found;
}
