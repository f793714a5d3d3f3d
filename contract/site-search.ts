import { z } from 'zod/mini';
import { LANG_CODES } from './languages';

/**
 * The site's one search (docs/decisions/039-site-search.md): `GET /api/search?q=&lang=` over every
 * public page, published post and open opening, in the asked language first. Shared by the
 * server and the browser.
 */

export const SEARCH_QUERY_MAX = 200;
/** Results shown of each kind. */
export const SEARCH_PER_KIND = 5;
export const SEARCH_KINDS = ['page', 'post', 'opening'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SiteSearchQuery = z.object({
  q: z.string().check(z.maxLength(SEARCH_QUERY_MAX)),
  lang: z._default(z.enum(LANG_CODES), 'en'),
});
export type SiteSearchQuery = z.infer<typeof SiteSearchQuery>;

/** A piece of a snippet: `hit` when it is one of the searched words. */
export const SnippetPart = z.object({ text: z.string(), hit: z.boolean() });
export type SnippetPart = z.infer<typeof SnippetPart>;

export const SiteSearchResult = z.object({
  kind: z.enum(SEARCH_KINDS),
  title: z.string(),
  url: z.string(),
  lang: z.enum(LANG_CODES),
  snippet: z.array(SnippetPart),
});
export type SiteSearchResult = z.infer<typeof SiteSearchResult>;

export const SiteSearchAnswer = z.object({
  q: z.string(),
  lang: z.enum(LANG_CODES),
  /** Each kind with results, in SEARCH_KINDS order: its best results and how many matched. */
  groups: z.array(
    z.object({ kind: z.enum(SEARCH_KINDS), matches: z.number(), results: z.array(SiteSearchResult) }),
  ),
  /** Other languages with results, and how many. */
  elsewhere: z.array(z.object({ lang: z.enum(LANG_CODES), matches: z.number() })),
});
export type SiteSearchAnswer = z.infer<typeof SiteSearchAnswer>;
