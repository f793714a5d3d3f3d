import { sql, type Kysely } from 'kysely';
import { dialectOf } from './database';
import { ftsMatch, searchTerms, tsQuery } from './full-text';
import type { Database } from './schema';

type Db = Kysely<Database>;

/**
 * The site search's documents (migration 2960; docs/decisions/039-site-search.md): written by
 * services/site-search.ts, one per (kind, ref, lang), and searched with one query shape on both
 * databases: the words of the search box (full-text.ts `searchTerms`: letters, marks and digits
 * only, each a prefix), ranked with the title weighted above the text, a snippet of the text
 * with the matched words between HIT_START and HIT_END.
 */

export type SearchKind = 'page' | 'post' | 'opening';

export interface SearchDoc {
  kind: SearchKind;
  ref: string;
  lang: string;
  url: string;
  title: string;
  body: string;
  updated_at: string;
}

/** Marks a snippet's matched words (characters of Unicode's private use area, stripped from every text indexed). */
export const HIT_START = '\uE000';
export const HIT_END = '\uE001';
const MARKS = /[\uE000\uE001]/g;

/** Each language's PostgreSQL text search configuration (its stemmer); Malayalam has none. */
const PG_CONFIG: Record<string, string> = { en: 'english', fr: 'french', de: 'german', es: 'spanish' };
const pgConfig = (lang: string) => PG_CONFIG[lang] ?? 'simple';

/**
 * Latin, Greek and Cyrillic letters without their accents ("Côte" as "cote"), for PostgreSQL's
 * vectors and queries: SQLite's tokenizer does the same (remove_diacritics), and PostgreSQL's
 * unaccent is an extension a site's database user may not be allowed to add. Other scripts'
 * marks (a Malayalam vowel sign) are letters of their word and stay.
 */
const foldAccents = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');

/** Writes a document, replacing the one of the same kind, ref and language. */
export async function putDoc(db: Db, doc: SearchDoc): Promise<void> {
  const row = { ...doc, title: doc.title.replace(MARKS, ''), body: doc.body.replace(MARKS, '') };
  const vector =
    dialectOf(db) === 'postgres'
      ? sql`setweight(to_tsvector(${pgConfig(doc.lang)}::regconfig, ${foldAccents(row.title)}), 'A') ||
          setweight(to_tsvector(${pgConfig(doc.lang)}::regconfig, ${foldAccents(row.body)}), 'B')`
      : undefined;
  const values = vector ? { ...row, search_vector: vector } : row;
  await db
    .insertInto('site_search')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['kind', 'ref', 'lang']).doUpdateSet({
        url: row.url,
        title: row.title,
        body: row.body,
        updated_at: row.updated_at,
        ...(vector && { search_vector: vector }),
      }),
    )
    .execute();
}

/** Removes every language's document of a record (or only `langs`'). */
export async function removeDocs(db: Db, kind: SearchKind, ref: string, langs?: string[]): Promise<void> {
  let query = db.deleteFrom('site_search').where('kind', '=', kind).where('ref', '=', ref);
  if (langs) query = query.where('lang', 'in', langs.length ? langs : ['']);
  await query.execute();
}

/** Every document of a kind with its version: what a resynchronisation compares. */
export async function docVersions(db: Db, kind: SearchKind) {
  return db
    .selectFrom('site_search')
    .select(['ref', 'lang', 'updated_at'])
    .where('kind', '=', kind)
    .execute();
}

export interface SearchHit {
  kind: SearchKind;
  ref: string;
  lang: string;
  url: string;
  title: string;
  /** Words of the text around the match, the matched ones between HIT_START and HIT_END. */
  snippet: string;
  /** How many documents of this kind and language matched. */
  matches: number;
}

/**
 * The best `perKind` documents of each kind in `lang` that match every word of `search`, best
 * first, and how many documents match in each other language. No words: nothing.
 */
export async function searchDocs(
  db: Db,
  search: string,
  lang: string,
  perKind: number,
): Promise<{ hits: SearchHit[]; elsewhere: { lang: string; matches: number }[] }> {
  const terms = searchTerms(search);
  if (terms.length === 0) return { hits: [], elsewhere: [] };
  return dialectOf(db) === 'postgres'
    ? searchPostgres(db, tsQuery(terms.map(foldAccents)), lang, perKind)
    : searchSqlite(db, ftsMatch(terms), lang, perKind);
}

async function searchSqlite(db: Db, match: string, lang: string, perKind: number) {
  const table = (l: string) => sql.raw(l === 'en' ? 'site_search_en_fts' : 'site_search_fts');
  const fts = table(lang);
  // FTS5's rank and snippet work only in a query that reads the FTS table itself: rank every
  // match there, keep the best of each kind, then cut the snippets of those few
  const { rows: best } = await sql<Omit<SearchHit, 'snippet'> & { doc_id: number }>`
    select doc_id, kind, ref, lang, url, title, matches from (
      select s.doc_id, s.kind, s.ref, s.lang, s.url, s.title,
        row_number() over (partition by s.kind order by m.score, s.doc_id) as place,
        count(*) over (partition by s.kind) as matches
      from (select rowid, bm25(${fts}, 8.0, 1.0) as score from ${fts} where ${fts} match ${match}) m
      join site_search s on s.doc_id = m.rowid
      where s.lang = ${lang}
    ) where place <= ${perKind} order by kind, place`.execute(db);
  const ids = best.map((r) => r.doc_id);
  const snippets = new Map<number, string>();
  if (ids.length > 0) {
    const { rows: cut } = await sql<{ rowid: number; snippet: string }>`
      select rowid, snippet(${fts}, 1, ${HIT_START}, ${HIT_END}, '…', 24) as snippet
      from ${fts} where ${fts} match ${match} and rowid in (${sql.join(ids)})`.execute(db);
    for (const c of cut) snippets.set(Number(c.rowid), c.snippet);
  }
  const rows = best.map(({ doc_id, ...hit }) => ({ ...hit, snippet: snippets.get(doc_id) ?? '' }));
  const others = await Promise.all(
    (lang === 'en' ? ['site_search_fts'] : ['site_search_en_fts', 'site_search_fts']).map(async (name) => {
      const t = sql.raw(name);
      const { rows: counts } = await sql<{ lang: string; matches: number }>`
        select s.lang, count(*) as matches from ${t} join site_search s on s.doc_id = ${t}.rowid
        where ${t} match ${match} and s.lang <> ${lang} group by s.lang`.execute(db);
      return counts;
    }),
  );
  return {
    hits: rows.map((r) => ({ ...r, matches: Number(r.matches) })),
    elsewhere: others.flat().map((r) => ({ lang: r.lang, matches: Number(r.matches) })),
  };
}

async function searchPostgres(db: Db, tsquery: string, lang: string, perKind: number) {
  const config = pgConfig(lang);
  const { rows } = await sql<SearchHit>`
    with q as (select to_tsquery(${config}::regconfig, ${tsquery}) as query),
    ranked as (
      select s.kind, s.ref, s.lang, s.url, s.title, s.body,
        row_number() over (partition by s.kind order by ts_rank(s.search_vector, q.query) desc, s.doc_id) as place,
        count(*) over (partition by s.kind) as matches
      from site_search s, q
      where s.lang = ${lang} and s.search_vector @@ q.query
    )
    select kind, ref, lang, url, title, matches,
      ts_headline(${config}::regconfig, body, q.query,
        ${`StartSel=${HIT_START}, StopSel=${HIT_END}, MaxWords=24, MinWords=10, MaxFragments=1, FragmentDelimiter=" … "`}) as snippet
    from ranked, q where place <= ${perKind} order by kind, place`.execute(db);
  // each other language with its own stemmer: one condition per language, each served by the index
  const others = Object.keys({ ...PG_CONFIG, ml: '' }).filter((l) => l !== lang);
  const { rows: counts } = await sql<{ lang: string; matches: number }>`
    select lang, count(*) as matches from site_search where ${sql.join(
      others.map(
        (l) => sql`(lang = ${l} and search_vector @@ to_tsquery(${pgConfig(l)}::regconfig, ${tsquery}))`,
      ),
      sql` or `,
    )} group by lang`.execute(db);
  return {
    hits: rows.map((r) => ({ ...r, matches: Number(r.matches) })),
    elsewhere: counts.map((r) => ({ lang: r.lang, matches: Number(r.matches) })),
  };
}
