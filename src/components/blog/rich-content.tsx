import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { RICH_TEXT_TAGS } from '../../api/contract/rich-text-tags';
import s from './blog-parts.module.css';

/**
 * Rich text people wrote (blog content), shown as HTML. The server stores it sanitised
 * (server/lib/rich-text.ts); the browser sanitises it again with DOMPurify and the same
 * allow-list: the toolbar's tags, links only to http, https, mailto and tel. On the server render
 * DOMPurify has no DOM and returns its input: the server passes content it has just sanitised.
 */
const OPTIONS = {
  ALLOWED_TAGS: RICH_TEXT_TAGS,
  ALLOWED_ATTR: ['href', 'target', 'rel', 'data-list'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:)/i,
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
