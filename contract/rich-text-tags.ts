/**
 * The elements rich text may hold, as the editors' toolbars make them (headers 1-3, bold, italic,
 * underline, strike, lists, links; the blog's block quotes, code blocks and rules): the one list
 * both sanitisers allow (server/lib/rich-text.ts, components/blog/rich-content.tsx). Its own
 * module: public pages load the text helpers of rich-text.ts before interaction, this list never.
 */
export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'h1',
  'h2',
  'h3',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'strike',
  'ol',
  'ul',
  'li',
  'a',
  'span',
  'blockquote',
  'pre',
  'code',
  'hr',
];

/**
 * Images inside a blog post's text (docs/decisions/025-blog-publishing.md): only files this site stored from the editor's
 * upload (`/media/blog/<uuid>.<ext>`), never another site's and never `data:`; each variant in
 * `srcset` is such a file with its width. Job texts take no images.
 */
export const BLOG_TEXT_TAGS = [...RICH_TEXT_TAGS, 'img'];
export const BLOG_IMAGE_SRC =
  /^\/media\/blog\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:webp|png|jpg|gif|avif)$/;
/** How wide a text image is drawn: the whole column on a phone, the column's 720 px beyond. */
export const BLOG_IMAGE_SIZES = '(max-width: 760px) 100vw, 720px';

/** `srcset` when every candidate is one of our files with a width (`/media/blog/… 480w`), else ''. */
export function cleanSrcset(value: string): string {
  const candidates = value
    .split(',')
    .map((part) => part.trim().split(/\s+/))
    .filter((part) => part.length > 0 && part[0] !== '');
  if (candidates.length === 0 || candidates.length > 8) return '';
  const ok = candidates.every(
    ([url, width, ...rest]) =>
      rest.length === 0 && BLOG_IMAGE_SRC.test(url) && /^[1-9]\d{0,4}w$/.test(width ?? ''),
  );
  return ok ? candidates.map((c) => c.join(' ')).join(', ') : '';
}

/** A width or height attribute: a whole number of pixels, else ''. */
export const cleanDimension = (value: string | undefined): string =>
  value && /^[1-9]\d{0,4}$/.test(value) ? value : '';

/** Alt text of an image in the text: cut here. */
export const BLOG_IMAGE_ALT_MAX = 300;
/** The attributes an image of the text may carry, as both sanitisers write them. */
export const BLOG_IMAGE_ATTRIBUTES = [
  'src',
  'srcset',
  'sizes',
  'width',
  'height',
  'alt',
  'loading',
  'decoding',
];

/**
 * The attributes an image of a post's text keeps (both sanitisers: server/lib/rich-text.ts and
 * components/blog/rich-content.tsx), or null when it is no image of ours and goes: this site's
 * `src`, a `srcset` of this site's files with our `sizes`, width and height together, alt text
 * (cut at BLOG_IMAGE_ALT_MAX), drawn lazily.
 */
export function blogImageAttributes(
  given: Partial<Record<'src' | 'srcset' | 'width' | 'height' | 'alt', string>>,
): Record<string, string> | null {
  if (!BLOG_IMAGE_SRC.test(given.src ?? '')) return null;
  const srcset = cleanSrcset(given.srcset ?? '');
  const width = cleanDimension(given.width);
  const height = cleanDimension(given.height);
  return {
    src: given.src!,
    ...(srcset && { srcset, sizes: BLOG_IMAGE_SIZES }),
    ...(width && height && { width, height }),
    alt: (given.alt ?? '').slice(0, BLOG_IMAGE_ALT_MAX),
    loading: 'lazy',
    decoding: 'async',
  };
}
