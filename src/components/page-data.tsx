import { createContext, useContext, useState, useSyncExternalStore } from 'react';
import type { BlogPostRow } from '../../contract/blog';
import type { JobOpeningRow } from '../../contract/jobs';
import type { PlanRow } from '../../contract/pricing';
import type { SiteSearchAnswer } from '../../contract/site-search';

/**
 * Data a page was rendered with on the server (blog permalinks are rendered on request with the
 * post). The server render gets it through `render(url, lang, data)`; the page's HTML carries the
 * same data as `<script type="application/json" id="page-data">` (common/page-html.mjs), and
 * the browser reads it once, so hydration renders exactly what the server rendered.
 */
export interface PageData {
  /** The post of a permalink; null when the server found no published post for `slug`. */
  blogPost?: BlogPostRow | null;
  /** The permalink the data belongs to. */
  slug?: string;
  /** A share preview (`/blog/preview/<token>`): the post whatever its status, never indexed. */
  preview?: string;
  /** A tag's page (`/blog/tag/{tag}`): the tag's address and its name as posts write it. */
  tag?: string;
  tagName?: string;
  /** The first page of the blog list (`/blog`, a tag's page) as the server rendered it. */
  blogRows?: BlogPostRow[];
  /** A page of the careers list (`/careers`, `?page=N`) as the server rendered it, and its number. */
  jobRows?: JobOpeningRow[];
  jobPage?: number;
  /** /pricing: the plans of the visitor's country as the server rendered them, and its id. */
  pricingRows?: PlanRow[];
  pricingCountryId?: number;
  /** An opening's own page: the opening; null when it is closed or there is none. */
  jobOpening?: JobOpeningRow | null;
  /** The last segment of the opening's address the data belongs to. */
  jobSlug?: string;
  /** /search?q=: the answer the server rendered the page with. */
  siteSearch?: SiteSearchAnswer;
}

export const PAGE_DATA_ID = 'page-data';

export const PageDataContext = createContext<PageData | null>(null);

function readEmbedded(): PageData | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById(PAGE_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as PageData;
  } catch {
    return null;
  }
}

/** The server's page data during the server render and hydration; null when there is none. */
export function usePageData(): PageData | null {
  const fromServer = useContext(PageDataContext);
  const [embedded] = useState(() => (fromServer ? null : readEmbedded()));
  return fromServer ?? embedded;
}

/** The kept-copy mark never changes while the page is open. */
const noChange = () => () => {};

/**
 * When the page shown is a copy kept on this device (the service worker served it offline and
 * marked it with a `manna-kept-at` meta, src/sw.ts): its date, read after hydration, so a list the
 * server rendered with its rows can say it shows a saved copy, as lists that load their rows do.
 * Null when the page is fresh, or `rendered` is false (the list did not come with the page).
 */
export function useKeptPageAt(rendered: boolean): string | null {
  return useSyncExternalStore(
    noChange,
    () =>
      (rendered && document.querySelector<HTMLMetaElement>('meta[name="manna-kept-at"]')?.content) || null,
    () => null,
  );
}
