import type { Generated } from 'kysely';

/** The site search's documents (migration 2960; docs/decisions/039-site-search.md). */
export interface SiteSearchTable {
  doc_id: Generated<number>;
  /** 'page', 'post' or 'opening'. */
  kind: string;
  /** What it is of its kind: a page's path, a post's or an opening's id. */
  ref: string;
  /** The language it is written in (en, ml, fr, de, es). */
  lang: string;
  /** Its address in its language. */
  url: string;
  title: string;
  /** Its words as plain text. */
  body: string;
  /** The version indexed: the record's updated_at, or the build's id for a page. */
  updated_at: string;
  /** '<kind> <lang>', words of SQLite's full-text index (migration 2960). */
  facet: string;
  /** PostgreSQL only: the weighted words, computed by the repository with the row's language. */
  search_vector?: unknown;
  /** PostgreSQL only: the title's words. */
  title_vector?: unknown;
}

export interface SiteSearchTables {
  site_search: SiteSearchTable;
}
