import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import {
  BLOG_IMAGE_SIZES,
  BLOG_IMAGE_SRC,
  BLOG_TEXT_TAGS,
  cleanDimension,
  cleanSrcset,
} from '../../api/contract/rich-text-tags';
import s from './blog-parts.module.css';

/**
 * Rich text people wrote (blog content), shown as HTML. The server stores it sanitised
 * (server/lib/rich-text.ts); the browser sanitises it again with DOMPurify and the same
 * allow-list: the toolbar's tags, links only to http, https, mailto and tel, and images only from
 * this site's uploads (with their srcset, width and height, drawn lazily). On the server render
 * DOMPurify has no DOM and returns its input: the server passes content it has just sanitised.
 */
const OPTIONS = {
  ALLOWED_TAGS: BLOG_TEXT_TAGS,
  ALLOWED_ATTR: ['href', 'target', 'rel', 'data-list', 'src', 'srcset', 'sizes', 'width', 'height', 'alt'],
  // (an image's own address is checked whole by the hook below)
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|\/media\/blog\/)/i,
  ALLOW_DATA_ATTR: false,
};

let hooked = false;
function sanitize(html: string): string {
  if (!DOMPurify.isSupported) return html;
  if (!hooked) {
    hooked = true;
    // every link opens in a new tab without handing the page over (as the server stores them)
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
      if (node.tagName === 'IMG') {
        if (!BLOG_IMAGE_SRC.test(node.getAttribute('src') ?? '')) return node.remove();
        const srcset = cleanSrcset(node.getAttribute('srcset') ?? '');
        if (srcset) {
          node.setAttribute('srcset', srcset);
          node.setAttribute('sizes', BLOG_IMAGE_SIZES);
        } else {
          node.removeAttribute('srcset');
          node.removeAttribute('sizes');
        }
        for (const name of ['width', 'height']) {
          const value = cleanDimension(node.getAttribute(name) ?? undefined);
          if (value) node.setAttribute(name, value);
          else node.removeAttribute(name);
        }
        node.setAttribute('loading', 'lazy');
        node.setAttribute('decoding', 'async');
      }
    });
  }
  return DOMPurify.sanitize(html, OPTIONS);
}

export function RichContent({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => sanitize(html), [html]);
  return (
    <div
      className={className ? `${s.rich} ${className}` : s.rich}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
