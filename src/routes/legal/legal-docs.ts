import { splitLangPath } from '../../../contract/languages';
import type { ReactPromise } from 'react';
import { LEGAL_PAGES, type LegalPage } from '../paths';

/**
 * The legal texts are Markdown content files, one per language and page:
 * src/content/legal/<lang>/<page>.md. In the browser each is its own small chunk, loaded only by
 * the legal page that shows it (and started before hydration, see preloadCurrentDoc); the
 * server render bundles them all, so prerendered pages carry the full text.
 */
const lazyDocs = import.meta.glob<string>('../../content/legal/*/*.md', { query: '?raw', import: 'default' });
// A different query makes these other modules than the lazy ones, so the browser build drops them
// (unused) instead of merging every text into this chunk.
const eagerDocs: Record<string, string> = import.meta.env.SSR
  ? Object.fromEntries(
      Object.entries(
        import.meta.glob<string>('../../content/legal/*/*.md', {
          query: '?raw&prerender',
          import: 'default',
          eager: true,
        }),
      ).map(([file, text]) => [file.replace(/\?.*$/, ''), text]),
    )
  : {};

const key = (lang: string, page: LegalPage) => `../../content/legal/${lang}/${page}.md`;

/**
 * A promise that carries its outcome the way React's `use()` reads it (`status`, `value`): `use()`
 * returns a fulfilled one at once without suspending, so the page always calls `use()` (the rules
 * of hooks) and still renders synchronously on the server and when the text is already loaded.
 */
type TrackedText = ReactPromise<string> & Promise<string>;

const fulfilled = (text: string): TrackedText =>
  Object.assign(Promise.resolve(text), { status: 'fulfilled' as const, value: text });

const cache = new Map<string, TrackedText>();

export const isLegalPage = (value: string): value is LegalPage =>
  (LEGAL_PAGES as readonly string[]).includes(value);

/** The text of a page in a language, as a promise for `use()`. English stands in for a missing language. */
export function legalDoc(lang: string, page: LegalPage): TrackedText {
  const file = lazyDocs[key(lang, page)] || eagerDocs[key(lang, page)] ? key(lang, page) : key('en', page);
  let doc = cache.get(file);
  if (!doc) {
    const eager = eagerDocs[file];
    if (eager !== undefined) {
      doc = fulfilled(eager);
    } else {
      const pending = Object.assign(
        lazyDocs[file]().then(
          (text) => {
            Object.assign(pending, { status: 'fulfilled', value: text });
            return text;
          },
          (reason: unknown) => {
            Object.assign(pending, { status: 'rejected', reason });
            cache.delete(file); // a failed load (offline, new deployment) is tried again next time
            throw reason;
          },
        ),
        { status: 'pending' as const },
      );
      doc = pending;
    }
    cache.set(file, doc);
  }
  return doc;
}

/** Starts loading the text of the address being opened, in parallel with the rest of hydration. */
export function preloadCurrentDoc(): void {
  if (typeof document === 'undefined') return;
  // the page's path without its language (/de/privacy-policy)
  const page = splitLangPath(window.location.pathname).path.replace(/^\/+|\/+$/g, '');
  if (isLegalPage(page)) legalDoc(document.documentElement.lang || 'en', page).catch(() => {});
}
