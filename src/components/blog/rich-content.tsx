import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import {
  BLOG_IMAGE_ATTRIBUTES,
  BLOG_TEXT_TAGS,
  blogImageAttributes,
} from '../../../contract/rich-text-tags';
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
  ALLOWED_ATTR: ['href', 'target', 'rel', 'data-list', ...BLOG_IMAGE_ATTRIBUTES],
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
        // the server's rule, from the same function
        const kept = blogImageAttributes({
          src: node.getAttribute('src') ?? undefined,
          srcset: node.getAttribute('srcset') ?? undefined,
          width: node.getAttribute('width') ?? undefined,
          height: node.getAttribute('height') ?? undefined,
          alt: node.getAttribute('alt') ?? undefined,
        });
        if (!kept) return node.remove();
        for (const name of BLOG_IMAGE_ATTRIBUTES) node.removeAttribute(name);
        for (const [name, value] of Object.entries(kept)) node.setAttribute(name, value);
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
