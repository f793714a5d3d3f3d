import { z } from 'zod/mini';
import { charCount, htmlToText } from './rich-text';
import {
  BLOG_CONTENT_MAX,
  BLOG_IMAGE_MAX_BYTES,
  BLOG_IMAGE_TYPES,
  BLOG_IMAGE_URL_MAX,
  BLOG_EXCERPT_LIMIT,
  BLOG_TITLE_LIMIT,
  isHttpUrl,
  parsePublicationDate,
  READ_TIME_PATTERN,
  SCHEDULED,
  SLUG_MAX,
  SLUG_PATTERN,
  tagList,
  COVER_ALT_MAX,
  META_TITLE_MAX,
  META_DESCRIPTION_MAX,
  type BlogStatus,
} from './blog';

/**
 * The blog editor's side of the contract (the back office and the server only, so no public page
 * loads it): the spec's messages, the form's fields and every rule of the blog form, with the
 * same codes and words on both sides; the tags and authors the editor offers, and a share
 * preview's answer. The rows and queries every page reads are blog.ts.
 */

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

/** A post has at most 10 tags, each at most 40 characters. */
export const TAGS_MAX = 10;
export const TAG_MAX = 40;

/** GET /api/admin/blog-authors: staff who may write posts, for the editor's author choice. */
export const BlogAuthor = z.object({ user_id: z.number().check(z.int()), name: z.string() });
export const BlogAuthors = z.array(BlogAuthor);
export type BlogAuthor = z.infer<typeof BlogAuthor>;

/** GET /api/admin/blog-tags: every tag in use, for the editor's suggestions. */
export const BlogTag = z.object({ name: z.string(), slug: z.string(), posts: z.number() });
export const BlogTags = z.array(BlogTag);
export type BlogTag = z.infer<typeof BlogTag>;

/** POST /api/admin/blog-posts/:id/preview-link: a signed address showing the post for 7 days. */
export const BlogPreviewLink = z.object({ url: z.string(), expires_at: z.string() });
export type BlogPreviewLink = z.infer<typeof BlogPreviewLink>;
/** DELETE /api/admin/blog-posts/:id/preview-link: every share link made so far stops working. */
export const SHARE_LINKS_REVOKED = 'The share links made so far no longer work.';

/**
 * POST /api/admin/blog-images (multipart, one file in `image`): an image for a post's text, stored
 * at up to three widths. `src` and `srcset` are this site's addresses; width and height are the
 * largest variant's (the page keeps its place while it loads).
 */
export const BlogTextImage = z.object({
  src: z.string(),
  srcset: z.string(),
  width: z.number(),
  height: z.number(),
});
export type BlogTextImage = z.infer<typeof BlogTextImage>;

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
  /** Ours (docs/decisions/025-blog-publishing.md). `publish_at` is ISO 8601 (UTC), set when `status` is Scheduled. */
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
  /** Ours (docs/decisions/025-blog-publishing.md); `publish_at` is checked when `status` is Scheduled. */
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

/**
 * A post's fields, in the order the editor shows them: the one list the form's rules, the editor
 * (with 'Publish immediately' for the status) and the service (what an edit changed) read.
 */
export const POST_FIELDS = [
  'title',
  'excerpt',
  'content',
  'publication_date',
  'read_time',
  'tags',
  'author_id',
  'featured_image_url',
  'cover_alt',
  'status',
  'publish_at',
  'slug',
  'meta_title',
  'meta_description',
  'social_image_url',
  'canonical_url',
] as const;
export type PostField = (typeof POST_FIELDS)[number];

/** The form's fields with an error of their own, in its order: the first failing one gets the focus. */
export const BLOG_FIELDS: BlogField[] = POST_FIELDS.flatMap((f): BlogField[] =>
  f === 'status' ? [] : [f === 'featured_image_url' ? 'featured_image' : f],
);

/** What is wrong with an image file before it is sent (a cover or an image of the text), if anything. */
export function imageFileProblem(image: {
  type: string;
  size: number;
}): 'imageInvalidFile' | 'imageTooLarge' | undefined {
  if (!BLOG_IMAGE_TYPES.includes(image.type)) return 'imageInvalidFile';
  if (image.size > BLOG_IMAGE_MAX_BYTES) return 'imageTooLarge';
  return undefined;
}

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
    const problem = imageFileProblem(input.image);
    if (problem) errors.featured_image = problem;
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
