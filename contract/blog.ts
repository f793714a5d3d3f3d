import { z } from 'zod/mini';
import { ID_MAX, whole } from './ids';
import { textPreview } from './rich-text';

/**
 * The blog. Shared by the PWA and the
 * server: the row shapes, the queries, and the rules of the blog form, so both sides refuse the
 * same input with the same words. Imports only zod.
 */

/** Blog management always acts for company 2. */
export const BLOG_COMPANY_ID = 2;
/** Page size of the public blog and the admin list. */
export const BLOG_PAGE_SIZE = 10;
/** Characters of content shown on a card before 'Read More'. */
export const BLOG_PREVIEW_LENGTH = 200;
/** Title must be under 100 characters, excerpt under 200. */
export const BLOG_TITLE_LIMIT = 100;
export const BLOG_EXCERPT_LIMIT = 200;
/** Content is rich text; this bound only keeps a request finite (about 40 pages of prose). */
export const BLOG_CONTENT_MAX = 200_000;
export const BLOG_IMAGE_URL_MAX = 2048;
/** An uploaded featured image: at most 5 MB = 5 * 1024 * 1024 bytes. */
export const BLOG_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** The image types a blog upload may declare (cover or text); the server decides by the bytes. */
export const BLOG_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif'];
/** What the file picker offers; the server decides by the file's bytes, not by this list. */
export const BLOG_IMAGE_ACCEPT = BLOG_IMAGE_TYPES.join(',');
/** The widths a blog image stored on this site is served at: text images and covers alike. */
export const IMAGE_WIDTHS = [480, 960, 1600] as const;

/** How wide a cover is drawn (`sizes`): a card of the blog list, or a post's page. */
export const COVER_SIZES = {
  card: '(max-width: 46rem) 100vw, (max-width: 72rem) 50vw, 24rem',
  post: '(max-width: 48rem) 100vw, 46rem',
} as const;

/**
 * A cover stored on this site (`/media/blog/<key>` of a photo: JPEG, PNG, WebP or AVIF) as the
 * browser should fetch it where it is drawn (`where`): WebP at the widths of IMAGE_WIDTHS (`?w=`,
 * made by the server from the upload), so a phone downloads a 960 px copy, not the 4,000 px
 * original. The page's preload of its first cover names the same. Null for an address elsewhere
 * and for a GIF (it may move). The original stays the address of Open Graph and RSS.
 */
export function coverSources(
  url: string | null | undefined,
  where: keyof typeof COVER_SIZES,
): { src: string; srcset: string; sizes: string } | null {
  if (!url || !/^\/media\/blog\/[^?#]+\.(?:jpe?g|png|webp|avif)$/i.test(url)) return null;
  return {
    src: `${url}?w=960`,
    srcset: IMAGE_WIDTHS.map((w) => `${url}?w=${w} ${w}w`).join(', '),
    sizes: COVER_SIZES[where],
  };
}

/** Form errors stay 2.5 s; blog toasts last 2500 ms. */
export const BLOG_ERROR_DISPLAY_MS = 2500;
export const BLOG_TOAST_MS = 2500;

/**
 * A post's status: the one place its values are spelled (the spec's two words, stored as is, and
 * ours: Scheduled, a post that goes public by itself at its `publish_at`). Only Published posts
 * leave the admin API.
 */
export const PUBLISHED = 'Published';
export const DRAFT = 'Draft';
export const SCHEDULED = 'Scheduled';
export const BLOG_STATUSES = [PUBLISHED, DRAFT, SCHEDULED] as const;
export const BlogStatus = z.enum(BLOG_STATUSES);
export type BlogStatus = z.infer<typeof BlogStatus>;
/** Any stored or sent status read as one of the three: anything unknown is a draft. */
export const blogStatusOf = (status: string): BlogStatus =>
  status === PUBLISHED || status === SCHEDULED ? status : DRAFT;
/** The badge of an admin card sets one of the spec's two (a Scheduled post's badge unschedules it). */
export const BadgeStatus = z.enum([PUBLISHED, DRAFT]);
export type BadgeStatus = z.infer<typeof BadgeStatus>;

/**
 * One post as GET bind-company-blog answers it. `featured_image_url` is a full
 * http(s) address or a storage key (resolve it with GetPresignedUrl). Our additions, which a
 * customer's backend may leave out: `slug` (the permalink `/blog/{slug}`), `image_url` (the
 * image's stable public address, so a list needs no lookup per card), `updated_at` (ISO 8601).
 */
export const BlogPostRow = z.object({
  blog_id: z.number().check(z.int()),
  title: z.string(),
  excerpt: z.string(),
  content: z.string(),
  publication_date: z.string(),
  read_time: z.string(),
  featured_image_url: z.nullable(z.string()),
  status: z.string(),
  slug: z.optional(z.string()),
  image_url: z.optional(z.nullable(z.string())),
  updated_at: z.optional(z.string()),
  /** How many times the post was saved (docs/decisions/022); sent back as If-Match to change it. */
  version: z.optional(z.number().check(z.int())),
  /** Ours (docs/decisions/025-blog-publishing.md): when a Scheduled post goes public (ISO 8601, UTC), else null. */
  publish_at: z.optional(z.nullable(z.string())),
  /** The cover's alt text, and the search and social fields (empty: the post's own). */
  cover_alt: z.optional(z.string()),
  meta_title: z.optional(z.string()),
  meta_description: z.optional(z.string()),
  social_image_url: z.optional(z.string()),
  canonical_url: z.optional(z.string()),
  /** The post's tags, ', ' between them ('Archives, Palaeography'). */
  tags: z.optional(z.string()),
  /** The author (a member of staff) and the name readers see; null: none shown. */
  author_id: z.optional(z.nullable(z.number().check(z.int()))),
  author_name: z.optional(z.nullable(z.string())),
  total_count: z.optional(z.number().check(z.int())),
});
export type BlogPostRow = z.infer<typeof BlogPostRow>;
export const BlogPostRows = z.array(BlogPostRow);

/** Bounds of the blog editor's fields (docs/decisions/025-blog-publishing.md); search engines show about 60 and 160 characters of a title and description. */
export const COVER_ALT_MAX = 250;
export const META_TITLE_MAX = 200;
export const META_DESCRIPTION_MAX = 400;
export const META_TITLE_ADVISED = 60;
export const META_DESCRIPTION_ADVISED = 160;

/** Slugs are lower-case letters (any script), digits and single hyphens. */
export const SLUG_PATTERN = /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+(-[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+)*$/u;
export const SLUG_MAX = 90;

/**
 * GET bind-company-blog and GET /api/admin/blog-posts: blogid 0 for all; search uses the
 * full-text index; page_number from 1. `slug` (ours) picks one post by its permalink.
 */
export const BlogListQuery = z.object({
  blogid: z._default(whole(0, ID_MAX), 0),
  search: z._default(z.string().check(z.maxLength(200)), ''),
  page_number: z._default(whole(1, 100_000), 1),
  page_size: z._default(whole(1, 100), BLOG_PAGE_SIZE),
  slug: z.optional(z.string().check(z.maxLength(SLUG_MAX * 4))),
  /** The admin list's filter (ours); the public list is Published only, whatever this says. */
  status: z.optional(BlogStatus),
  /** Only the posts with this tag (its address, `/blog/tag/{tag}`). */
  tag: z.optional(z.string().check(z.maxLength(SLUG_MAX * 4))),
});
export type BlogListQuery = z.output<typeof BlogListQuery>;

/**
 * The permalink part made from a title: lower case; letters of any script (with their marks) and
 * digits; everything else becomes one hyphen; Latin accents dropped ('Café' -> 'cafe'); at most
 * SLUG_MAX characters, cut at a hyphen. A title with nothing usable gives 'post'.
 */
export function slugify(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+/gu, '-')
    .replace(/^[-\p{M}]+|-+$/gu, '');
  let slug = words;
  if (Array.from(slug).length > SLUG_MAX) {
    slug = Array.from(slug).slice(0, SLUG_MAX).join('');
    const cut = slug.lastIndexOf('-');
    if (cut > SLUG_MAX / 2) slug = slug.slice(0, cut);
    slug = slug.replace(/-+$/, '');
  }
  return slug || 'post';
}

/**
 * The tags a person typed, 'Archives, palaeography ,archives': trimmed, spaces collapsed, empty
 * ones dropped, and the second of two with the same address dropped (['Archives', 'palaeography']).
 */
export function tagList(text: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of text.split(',')) {
    const name = raw.replace(/\s+/g, ' ').trim();
    const slug = name && slugify(name);
    if (!name || seen.has(slug)) continue;
    seen.add(slug);
    tags.push(name);
  }
  return tags;
}

/** A tag's page: `/blog/tag/{slug}`. */
export const tagPath = (name: string) => `/blog/tag/${encodeURIComponent(slugify(name))}`;

/** POST manage-company-blog: mode 1 create, 2 update, 3 delete. */
export const BLOG_MODES = { create: 1, update: 2, delete: 3 } as const;

/**
 * The text fields of the multipart form. The file is `featured_image`. Values are
 * bounded here so a hostile request stays small; the rules with the spec's messages are
 * `blogFormErrors` below.
 */
export const ManageBlogFields = z.object({
  mode: z.coerce.number().check(z.int(), z.minimum(1), z.maximum(3)),
  company_id: z.optional(z.string().check(z.maxLength(20))),
  blog_id: z._default(whole(0, ID_MAX), 0),
  // an update (mode 2) sends the fields it changes; the others keep the post's values
  title: z.optional(z.string().check(z.maxLength(2_000))),
  excerpt: z.optional(z.string().check(z.maxLength(4_000))),
  content: z.optional(z.string().check(z.maxLength(BLOG_CONTENT_MAX * 2))),
  publication_date: z.optional(z.string().check(z.maxLength(200))),
  read_time: z.optional(z.string().check(z.maxLength(200))),
  status: z.optional(z.string().check(z.maxLength(20))),
  featured_image_url: z.optional(z.string().check(z.maxLength(BLOG_IMAGE_URL_MAX * 2))),
  // ours (docs/decisions/025-blog-publishing.md): the address, the schedule, the cover's alt text, search and social fields
  slug: z.optional(z.string().check(z.maxLength(SLUG_MAX * 8))),
  publish_at: z.optional(z.string().check(z.maxLength(100))),
  cover_alt: z.optional(z.string().check(z.maxLength(COVER_ALT_MAX * 4))),
  meta_title: z.optional(z.string().check(z.maxLength(META_TITLE_MAX * 4))),
  meta_description: z.optional(z.string().check(z.maxLength(META_DESCRIPTION_MAX * 4))),
  social_image_url: z.optional(z.string().check(z.maxLength(BLOG_IMAGE_URL_MAX * 2))),
  canonical_url: z.optional(z.string().check(z.maxLength(BLOG_IMAGE_URL_MAX * 2))),
  /** The tags, comma-separated. */
  tags: z.optional(z.string().check(z.maxLength(4_000))),
  /** The author's user id; '' for none. A new post without it is the writer's. */
  author_id: z.optional(z.string().check(z.maxLength(20))),
});
export type ManageBlogFields = z.output<typeof ManageBlogFields>;

/** PATCH /api/admin/blog-posts/:id: publish or unpublish a post, whatever its other fields hold. */
export const BlogStatusBody = z.object({ status: BadgeStatus });

export const ManageBlogResponse = z.object({
  message: z.string(),
  row: z.optional(BlogPostRow),
});
export type ManageBlogResponse = z.infer<typeof ManageBlogResponse>;

/** GET GetPresignedUrl?s3_key= */
export const PresignedUrlQuery = z.object({ s3_key: z.string().check(z.minLength(1), z.maxLength(500)) });
export const PresignedUrlResponse = z.object({ url: z.string() });

// ---------------------------------------------------------------------------------------------
// Rules of the blog form, used by the dialog and by the server.
// ---------------------------------------------------------------------------------------------

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * Reads the spec's publication date, 'August 6, 2025' (long English form; the comma optional,
 * the month in any letter case), and answers the calendar day 'YYYY-MM-DD', or null when the text
 * is not a real date in that form ('February 30, 2025' is not).
 */
export function parsePublicationDate(text: string): string | null {
  const m = /^([A-Za-z]+)\s+(\d{1,2}),?\s+(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const month = MONTHS.findIndex((name) => name.toLowerCase() === m[1].toLowerCase());
  const day = Number(m[2]);
  const year = Number(m[3]);
  if (month < 0 || year < 1000 || day < 1) return null;
  const date = new Date(Date.UTC(year, month, day));
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return null;
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A date in the spec's long English form: 'August 6, 2025' (the day of `date` in UTC unless local). */
export function formatPublicationDate(date: Date, { local = false } = {}): string {
  const [y, mo, d] = local
    ? [date.getFullYear(), date.getMonth(), date.getDate()]
    : [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  return `${MONTHS[mo]} ${d}, ${y}`;
}

/** 'X min read': a whole number, one space, 'min read'. */
export const READ_TIME_PATTERN = /^\d{1,4} min read$/;

/** Only http(s) addresses may name an image; javascript:, data: and the rest are refused. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The first BLOG_PREVIEW_LENGTH characters of a post's text (its card), with '...' when there is more. */
export const previewOf = (html: string, length = BLOG_PREVIEW_LENGTH) => textPreview(html, length);
