import sanitizeHtml from 'sanitize-html';
import { ordinarySpaces } from '../../contract/rich-text';
import {
  BLOG_IMAGE_ATTRIBUTES,
  BLOG_TEXT_TAGS,
  RICH_TEXT_TAGS,
  blogImageAttributes,
} from '../../contract/rich-text-tags';

/**
 * Rich text from the admin editor (job fields, blog content) is stored sanitised: only the tags
 * the toolbars make (headers 1-3, bold, italic, underline, strike, ordered and bullet lists,
 * link, clean; the blog's also block quotes, code blocks and horizontal rules) and links limited
 * to http, https, mailto and tel. No attribute but a link's address and a list item's kind.
 */
export const RICH_TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: RICH_TEXT_TAGS,
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    // Quill 2 marks bullet items on <li data-list="bullet"> inside <ol>.
    li: ['data-list'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...(attribs.href ? { href: attribs.href } : {}),
        target: '_blank',
        rel: 'noopener noreferrer',
      },
    }),
  },
  // an empty span, or an empty code block (a line left behind in the editor)
  exclusiveFilter: (frame) => (frame.tag === 'span' || frame.tag === 'pre') && !frame.text.trim(),
};

/**
 * The stored form of rich text: ordinary spaces between words (`&nbsp;` is how the editor writes a
 * space; a U+00A0 typed on purpose stays), then only the allowed tags and links.
 */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(ordinarySpaces(html), RICH_TEXT_OPTIONS).trim();
}

/**
 * A blog post's text: rich text, and images this site stored from the editor's upload
 * (contract/rich-text-tags.ts BLOG_IMAGE_SRC) with their alt text, `srcset`, width and height,
 * drawn lazily. An image from anywhere else (another site, `data:`) is dropped.
 */
export const BLOG_TEXT_OPTIONS: sanitizeHtml.IOptions = {
  ...RICH_TEXT_OPTIONS,
  allowedTags: BLOG_TEXT_TAGS,
  allowedAttributes: {
    ...RICH_TEXT_OPTIONS.allowedAttributes,
    img: BLOG_IMAGE_ATTRIBUTES,
  },
  transformTags: {
    ...RICH_TEXT_OPTIONS.transformTags,
    // (an image of anywhere else loses its src here, and the filter below drops it)
    img: (tagName, attribs) => ({ tagName, attribs: blogImageAttributes(attribs) ?? {} }),
  },
  exclusiveFilter: (frame) =>
    (frame.tag === 'img' && !frame.attribs.src) || RICH_TEXT_OPTIONS.exclusiveFilter!(frame),
};

/** The stored form of a blog post's text: as sanitizeRichText, with the post's own images. */
export function sanitizeBlogText(html: string): string {
  return sanitizeHtml(ordinarySpaces(html), BLOG_TEXT_OPTIONS).trim();
}
