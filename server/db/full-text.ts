import { sql, type Kysely } from 'kysely';
import { dialectOf } from './database';
import type { Database } from './schema';
import { searchTerms } from '../../contract/search-words';

export { searchTerms };

type Db = Kysely<Database>;

/**
 * The one way a search box becomes a full-text query, for every searched table (blog posts,
 * openings, applications, contact messages): SQLite's FTS5 tables `<table>_fts` (rowid = the
 * row's id) or PostgreSQL's `search_vector` columns, both language-neutral (the 'simple' config).
 */

/** FTS5: every word quoted (read as a string, never as an operator or a column filter), as a prefix. */
export const ftsMatch = (terms: string[]) => terms.map((t) => `"${t}"*`).join(' ');

/** PostgreSQL: every word as a prefix, all of them required. */
export const tsQuery = (terms: string[]) => terms.map((t) => `${t}:*`).join(' & ');

export type FullTextTable =
  'blog_post_fts' | 'job_opening_fts' | 'job_application_fts' | 'contact_message_fts';

/** The ids of the rows whose text matches (SQLite), as a subquery for `where id in (...)`. */
export const ftsRowids = (table: FullTextTable, match: string) =>
  sql<number>`(select rowid from ${sql.table(table)} where ${sql.table(table)} match ${match})`;

/** The condition on a table's `search_vector` (PostgreSQL); `column` names it where a join needs it. */
export const tsMatches = (tsquery: string, column = 'search_vector') =>
  sql<boolean>`${sql.ref(column)} @@ to_tsquery('simple', ${tsquery})`;

/** A search as each database runs it; `common` says SQLite found at least `commonMatches` rows. */
export type SearchPlan =
  | { kind: 'none' }
  | { kind: 'postgres'; tsquery: string }
  | { kind: 'sqlite'; match: string; common: boolean };

/**
 * How to run a search on a large list. On SQLite a selective search (fewer than `commonMatches`
 * matches) starts from the FTS matches and sorts the few rows, while a common one (a word most
 * rows contain) walks the list's index in page order and checks each row against the matches, so
 * a page stops after its rows instead of sorting nearly all of them. The probe reads at most
 * `commonMatches` index entries.
 */
export async function searchPlan(
  db: Db,
  search: string,
  table: FullTextTable,
  commonMatches: number,
): Promise<SearchPlan> {
  const terms = searchTerms(search);
  if (terms.length === 0) return { kind: 'none' };
  if (dialectOf(db) === 'postgres') return { kind: 'postgres', tsquery: tsQuery(terms) };
  const match = ftsMatch(terms);
  return {
    kind: 'sqlite',
    match,
    common: (await countMatches(db, table, match, commonMatches)) >= commonMatches,
  };
}

/** How many rows an FTS5 table matches, reading at most `limit` index entries. */
export async function countMatches(
  db: Db,
  table: FullTextTable,
  match: string,
  limit: number,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from (
    select rowid from ${sql.table(table)} where ${sql.table(table)} match ${match} limit ${limit})`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}
