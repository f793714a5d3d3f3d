import s from './blog-parts.module.css';

/**
 * Rich text the server has just sanitised and rendered into this very page (a permalink's page
 * data): shown as is, so hydration neither loads nor runs the browser's sanitiser. Anything the
 * browser fetched itself goes through RichContent (rich-content.tsx) instead.
 */
export function ServerRichHtml({ html, className }: { html: string; className?: string }) {
  return <div className={className ? `${s.rich} ${className}` : s.rich} dangerouslySetInnerHTML={{ __html: html }} />;
}
