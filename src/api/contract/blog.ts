import { z } from 'zod/mini';
import { ID_MAX, whole } from './ids';
import { charCount, htmlToText, textPreview } from './rich-text';

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
/** What the file picker offers; the server decides by the file's bytes, not by this list. */
export const BLOG_IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,image/avif';
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

/** The blog's messages, in the spec's words exactly. */
export const BLOG_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: 'Title must be less than 100 characters',
  excerptRequired: 'Excerpt is required',
  excerptTooLong: 'Excerpt must be less than 200 characters',
  contentRequired: 'Content is required',
  contentTooLong: 'Content is too long',
  dateRequired: 'Publication date is required',
  dateInvalid: 'Publication date is not a valid date',
  readTimeRequired: 'Read time is required',
  readTimeFormat: "Format should be 'X min read' (e.g., '5 min read')",
  scheduleRequired: 'Choose when to publish',
  schedulePast: 'Choose a time in the future',
  slugRequired: 'Address is required',
  slugInvalid: 'Use lower-case letters, digits and single hyphens',
  slugTaken: 'Another post has this address',
  authorInvalid: 'Choose an author from the list',
  tagsInvalid: 'Up to 10 tags, each of at most 40 characters',
  coverAltRequired: 'Describe the cover image for readers who cannot see it',
  urlInvalid: 'Address must start with http:// or https://',
  imageRequired: 'Featured image is required',
  imageInvalidFile: 'Please upload a valid image file',
  imageTooLarge: 'Image too large (max 5MB)',
  imageUrlInvalid: 'Image URL must start with http:// or https://',
  tooLong: 'Too long',
  invalid: 'Please check this field',
  created: 'Post Created',
  updated: 'Post Updated',
  deleted: 'Post Deleted',
  deletedText: 'Blog has been deleted.',
  statusUpdated: 'Status Updated',
  submitFailed: 'Failed to submit blog. Check console for details.',
  deleteFailed: 'Failed to delete blog. Check console for details.',
  statusFailed: 'Failed to update publication status',
  confirmDelete: 'Are you sure you want to delete this blog post?',
  notFound: 'Blog post not found',
} as const;

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
  /** Ours (issue 31): when a Scheduled post goes public (ISO 8601, UTC), else null. */
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

/** Bounds of the fields of issue 31; search engines show about 60 and 160 characters of a title and description. */
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

/** A post has at most 10 tags, each at most 40 characters. */
export const TAGS_MAX = 10;
export const TAG_MAX = 40;

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

/** GET /api/admin/blog-authors: staff who may write posts, for the editor's author choice. */
export const BlogAuthor = z.object({ user_id: z.number().check(z.int()), name: z.string() });
export const BlogAuthors = z.array(BlogAuthor);
export type BlogAuthor = z.infer<typeof BlogAuthor>;

/** GET /api/admin/blog-tags: every tag in use, for the editor's suggestions. */
export const BlogTag = z.object({ name: z.string(), slug: z.string(), posts: z.number() });
export const BlogTags = z.array(BlogTag);
export type BlogTag = z.infer<typeof BlogTag>;

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
  // ours (issue 31): the address, the schedule, the cover's alt text, search and social fields
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

/** POST /api/admin/blog-posts/:id/preview-link: a signed address showing the post for 7 days. */
export const BlogPreviewLink = z.object({ url: z.string(), expires_at: z.string() });
export type BlogPreviewLink = z.infer<typeof BlogPreviewLink>;

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

/** What the blog dialog sends (mode 1 create, 2 update): the multipart form's fields and its image. */
export interface BlogPostForm {
  mode: 1 | 2;
  blog_id: number;
  title: string;
  excerpt: string;
  content: string;
  publication_date: string;
  read_time: string;
  status: BlogStatus;
  /** An http(s) address, or the key of the image already stored (edit without a new file). */
  featured_image_url: string;
  featured_image?: File | null;
  /** Ours (issue 31). `publish_at` is ISO 8601 (UTC), set when `status` is Scheduled. */
  slug: string;
  publish_at: string;
  cover_alt: string;
  meta_title: string;
  meta_description: string;
  social_image_url: string;
  canonical_url: string;
  tags: string;
  /** The author's user id, '' for none. */
  author_id: string;
  /** An update: the version it is based on, and the fields the person changed (the only ones sent). */
  version?: number;
  changed?: readonly string[];
}

/** What the form holds when it is checked. `image` says whether a file was chosen and what it is. */
export interface BlogFormInput {
  title: string;
  excerpt: string;
  content: string;
  publication_date: string;
  read_time: string;
  featured_image_url: string;
  /** A chosen file: its declared type and size (the server checks the bytes again). */
  image?: { type: string; size: number } | null;
  /** Ours (issue 31); `publish_at` is checked when `status` is Scheduled. */
  status?: string;
  slug?: string;
  publish_at?: string;
  cover_alt?: string;
  meta_title?: string;
  meta_description?: string;
  social_image_url?: string;
  canonical_url?: string;
  tags?: string;
}

export type BlogField =
  | 'title'
  | 'excerpt'
  | 'content'
  | 'publication_date'
  | 'read_time'
  | 'featured_image'
  | 'cover_alt'
  | 'publish_at'
  | 'slug'
  | 'meta_title'
  | 'meta_description'
  | 'social_image_url'
  | 'canonical_url'
  | 'tags'
  | 'author_id';
/** Codes of the form's error texts (the dialog translates them; the English ones are BLOG_MESSAGES). */
export const BLOG_ERROR_CODES = [
  'titleRequired',
  'titleTooLong',
  'excerptRequired',
  'excerptTooLong',
  'contentRequired',
  'contentTooLong',
  'dateRequired',
  'dateInvalid',
  'readTimeRequired',
  'readTimeFormat',
  'imageRequired',
  'imageInvalidFile',
  'imageTooLarge',
  'imageUrlInvalid',
  'scheduleRequired',
  'schedulePast',
  'slugRequired',
  'slugInvalid',
  'slugTaken',
  'tagsInvalid',
  'authorInvalid',
  'coverAltRequired',
  'urlInvalid',
  'tooLong',
  'invalid',
] as const satisfies readonly (keyof typeof BLOG_MESSAGES)[];
export type BlogErrorCode = (typeof BLOG_ERROR_CODES)[number];
export type BlogFormErrors = Partial<Record<BlogField, BlogErrorCode>>;

/** Field order of the dialog: the first error in this order gets the focus. */
export const BLOG_FIELDS: BlogField[] = [
  'title',
  'excerpt',
  'content',
  'publication_date',
  'read_time',
  'featured_image',
  'cover_alt',
  'publish_at',
  'slug',
  'meta_title',
  'meta_description',
  'social_image_url',
  'canonical_url',
  'tags',
  'author_id',
];

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif'];

/**
 * Every rule of the blog form, in field order, as codes (their texts: BLOG_MESSAGES). The server
 * runs it on what it received (with `isKnownImageKey` telling whether a non-URL image value is an
 * image this site stored); the dialog runs it before sending.
 */
export function blogFormErrors(
  input: BlogFormInput,
  {
    isKnownImageKey = () => false,
    now,
  }: {
    isKnownImageKey?: (value: string) => boolean;
    /** When given, a Scheduled post's time must be later (the server leaves an untouched schedule alone). */
    now?: Date;
  } = {},
): BlogFormErrors {
  const errors: BlogFormErrors = {};
  const title = input.title.trim();
  if (!title) errors.title = 'titleRequired';
  else if (charCount(title) >= BLOG_TITLE_LIMIT) errors.title = 'titleTooLong';

  const excerpt = input.excerpt.trim();
  if (!excerpt) errors.excerpt = 'excerptRequired';
  else if (charCount(excerpt) >= BLOG_EXCERPT_LIMIT) errors.excerpt = 'excerptTooLong';

  if (!htmlToText(input.content)) errors.content = 'contentRequired';
  else if (input.content.length > BLOG_CONTENT_MAX) errors.content = 'contentTooLong';

  const date = input.publication_date.trim();
  if (!date) errors.publication_date = 'dateRequired';
  else if (!parsePublicationDate(date)) errors.publication_date = 'dateInvalid';

  const readTime = input.read_time.trim();
  if (!readTime) errors.read_time = 'readTimeRequired';
  else if (!READ_TIME_PATTERN.test(readTime)) errors.read_time = 'readTimeFormat';

  const url = input.featured_image_url.trim();
  if (input.image) {
    if (!IMAGE_TYPES.includes(input.image.type)) errors.featured_image = 'imageInvalidFile';
    else if (input.image.size > BLOG_IMAGE_MAX_BYTES) errors.featured_image = 'imageTooLarge';
  } else if (!url) errors.featured_image = 'imageRequired';
  else if (url.length > BLOG_IMAGE_URL_MAX || (!isHttpUrl(url) && !isKnownImageKey(url)))
    errors.featured_image = 'imageUrlInvalid';

  const hasCover = !!input.image || !!url;
  const alt = (input.cover_alt ?? '').trim();
  if (hasCover && input.cover_alt !== undefined && !alt) errors.cover_alt = 'coverAltRequired';
  else if (charCount(alt) > COVER_ALT_MAX) errors.cover_alt = 'tooLong';

  if (input.status === SCHEDULED) {
    const at = Date.parse(input.publish_at ?? '');
    if (!input.publish_at || !Number.isFinite(at)) errors.publish_at = 'scheduleRequired';
    else if (now && at <= now.getTime()) errors.publish_at = 'schedulePast';
  }

  if (input.slug !== undefined) {
    const slug = input.slug.trim();
    if (!slug) errors.slug = 'slugRequired';
    else if (Array.from(slug).length > SLUG_MAX) errors.slug = 'tooLong';
    else if (!SLUG_PATTERN.test(slug)) errors.slug = 'slugInvalid';
  }
  if (charCount((input.meta_title ?? '').trim()) > META_TITLE_MAX) errors.meta_title = 'tooLong';
  if (charCount((input.meta_description ?? '').trim()) > META_DESCRIPTION_MAX)
    errors.meta_description = 'tooLong';
  if (input.tags !== undefined) {
    const tags = tagList(input.tags);
    if (tags.length > TAGS_MAX || tags.some((tag) => charCount(tag) > TAG_MAX)) errors.tags = 'tagsInvalid';
  }
  for (const field of ['social_image_url', 'canonical_url'] as const) {
    const value = (input[field] ?? '').trim();
    if (value && (value.length > BLOG_IMAGE_URL_MAX || !isHttpUrl(value))) errors[field] = 'urlInvalid';
  }
  return errors;
}

/** Words a reader reads in a minute, for the read time computed from the text. */
export const WORDS_PER_MINUTE = 230;

/** The read time of a post's text, in the form the form asks for: '4 min read' (at least 1). */
export function readTimeOf(html: string): string {
  const words = htmlToText(html).split(/\s+/u).filter(Boolean).length;
  return `${Math.max(1, Math.round(words / WORDS_PER_MINUTE))} min read`;
}
