import { sql, type Kysely } from 'kysely';
import { dialectOf } from './database';
import { LANG_CODES } from '../../contract/languages';
import { SEARCH_KINDS, type SearchKind } from '../../contract/site-search';
import { ftsMatch, searchTerms, tsQuery } from './full-text';
import { foldAccents } from '../../contract/search-words';
import type { Database } from './schema';

type Db = Kysely<Database>;

/**
 * The site search's documents (migration 2960; docs/decisions/039-site-search.md): written by
 * services/site-search.ts, one per (kind, ref, lang), and searched with one query shape on both
 * databases: the words of the search box (full-text.ts `searchTerms`: letters, marks and digits
 * only, each a prefix), ranked with the title weighted above the text. Each hit carries its text:
 * the service cuts the snippet (the same on both databases; FTS5's snippet() walks the whole
 * match list to reach a late document, hundreds of milliseconds for a common word).
 */

export type { SearchKind };

export interface SearchDoc {
  kind: SearchKind;
  ref: string;
  lang: string;
  url: string;
  title: string;
  body: string;
  updated_at: string;
}

/** Each language's PostgreSQL text search configuration (its stemmer); Malayalam has none. */
const PG_CONFIG: Record<string, string> = { en: 'english', fr: 'french', de: 'german', es: 'spanish' };
const pgConfig = (lang: string) => PG_CONFIG[lang] ?? 'simple';

/** Writes a document, replacing the one of the same kind, ref and language. */
export async function putDoc(db: Db, doc: SearchDoc): Promise<void> {
  const row = {
    ...doc,
    facet: `${doc.kind} ${doc.lang}`,
  };
  const config = pgConfig(doc.lang);
  const vectors =
    dialectOf(db) === 'postgres'
      ? {
          search_vector: sql`setweight(to_tsvector(${config}::regconfig, ${foldAccents(row.title)}), 'A') ||
            setweight(to_tsvector(${config}::regconfig, ${foldAccents(row.body)}), 'B')`,
          title_vector: sql`to_tsvector(${config}::regconfig, ${foldAccents(row.title)})`,
        }
      : {};
  await db
    .insertInto('site_search')
    .values({ ...row, ...vectors })
    .onConflict((oc) =>
      oc.columns(['kind', 'ref', 'lang']).doUpdateSet({
        url: row.url,
        title: row.title,
        body: row.body,
        updated_at: row.updated_at,
        ...vectors,
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
  /** Its text: the service cuts the snippet. */
  body: string;
  /** How many documents of this kind and language matched. */
  matches: number;
}

/**
 * A search that matches at least this many documents in its language is common (a word most posts
 * have): ranking every match by its text would cost more than the answer is worth, so only the
 * documents whose title has the words are ranked, and the newest of the others follow.
 */
export const COMMON_MATCHES = 1000;

type Found = Omit<SearchHit, 'matches'> & { doc_id: number };

/** How one database runs the steps of a search. */
interface SearchSteps {
  /** Matches in the asked language, by kind, and in each other language. */
  counts(): Promise<{
    kind: { kind: SearchKind; matches: number }[];
    elsewhere: { lang: string; matches: number }[];
  }>;
  /** The best `perKind` of each kind, ranked: of every match, or of those whose title matches. */
  ranked(titleOnly: boolean): Promise<Found[]>;
  /** The newest `limit` matches of a kind, but `except`. */
  newest(kind: SearchKind, except: number[], limit: number): Promise<Found[]>;
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
  const steps =
    dialectOf(db) === 'postgres'
      ? postgresSteps(db, tsQuery(terms.map(foldAccents)), lang, perKind)
      : sqliteSteps(db, ftsMatch(terms), lang, perKind);
  const counts = await steps.counts();
  const matches = new Map(counts.kind.map((c) => [c.kind, c.matches]));
  const total = counts.kind.reduce((sum, c) => sum + c.matches, 0);
  const found = total === 0 ? [] : await steps.ranked(total >= COMMON_MATCHES);
  // a common search: the kinds whose titles gave too few are filled with their newest matches
  for (const [kind, n] of matches) {
    const shown = found.filter((f) => f.kind === kind);
    if (shown.length < Math.min(perKind, n))
      found.push(
        ...(await steps.newest(
          kind,
          shown.map((f) => f.doc_id),
          perKind - shown.length,
        )),
      );
  }
  return {
    hits: found
      .sort((a, b) => a.kind.localeCompare(b.kind))
      .map(({ doc_id: _id, ...hit }) => ({ ...hit, matches: matches.get(hit.kind) ?? 0 })),
    elsewhere: counts.elsewhere,
  };
}

const FOUND_COLUMNS = sql.raw('s.doc_id, s.kind, s.ref, s.lang, s.url, s.title, s.body');

function sqliteSteps(db: Db, match: string, lang: string, perKind: number): SearchSteps {
  const table = (l: string) => sql.raw(l === 'en' ? 'site_search_en_fts' : 'site_search_fts');
  const fts = table(lang);
  // the words in the title and text; the facet column only ever by its own filter
  const words = `{title body} : (${match})`;
  const facet = (...names: string[]) => `facet : (${names.map((n) => `"${n}"`).join(' ')})`;
  const run = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;
  const count = async (l: string, kind?: SearchKind) => {
    const t = table(l);
    const [row] = await run(sql<{ n: number }>`
      select count(*) as n from ${t} where ${t} match ${`${facet(...(kind ? [kind] : []), l)} AND ${words}`}`);
    return Number(row?.n ?? 0);
  };
  return {
    async counts() {
      const kind = await Promise.all(
        SEARCH_KINDS.map(async (k) => ({ kind: k, matches: await count(lang, k) })),
      );
      const elsewhere = await Promise.all(
        LANG_CODES.filter((l) => l !== lang).map(async (l) => ({ lang: l, matches: await count(l) })),
      );
      return { kind: kind.filter((k) => k.matches > 0), elsewhere: elsewhere.filter((e) => e.matches > 0) };
    },
    // FTS5's rank works only in a query that reads the FTS table itself: rank the matches there
    // and keep the best of each kind
    // (a cross join keeps the matches the outer loop: the other way round, the planner ran the
    // full-text query once per document)
    ranked: (titleOnly) =>
      run(sql<Found>`
        select doc_id, kind, ref, lang, url, title, body from (
          select ${FOUND_COLUMNS}, row_number() over (partition by s.kind order by m.score, s.doc_id) as place
          from (select rowid, bm25(${fts}, 8.0, 1.0) as score from ${fts}
                where ${fts} match ${`${facet(lang)} AND ${titleOnly ? `title : (${match})` : words}`}) m
          cross join site_search s on s.doc_id = m.rowid
        ) where place <= ${perKind} order by kind, place`),
    // the most recently added: the index's own order
    newest: async (kind, except, limit) => {
      const ids = await run(sql<{ rowid: number }>`
        select rowid from ${fts} where ${fts} match ${`${facet(kind, lang)} AND ${words}`}
          and rowid not in (${sql.join(except.length ? except : [0])})
        order by rowid desc limit ${limit}`);
      if (ids.length === 0) return [];
      return run(sql<Found>`
        select ${FOUND_COLUMNS} from site_search s where s.doc_id in (${sql.join(ids.map((r) => r.rowid))})
        order by s.doc_id desc`);
    },
  };
}

function postgresSteps(db: Db, tsquery: string, lang: string, perKind: number): SearchSteps {
  const config = pgConfig(lang);
  const query = sql`to_tsquery(${config}::regconfig, ${tsquery})`;
  const run = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(db)).rows;
  return {
    async counts() {
      const kind = await run(sql<{ kind: SearchKind; matches: number }>`
        select kind, count(*) as matches from site_search
        where lang = ${lang} and search_vector @@ ${query} group by kind`);
      // each other language with its own stemmer: one condition per language, each served by the index
      const others = LANG_CODES.filter((l) => l !== lang);
      const elsewhere = await run(sql<{ lang: string; matches: number }>`
        select lang, count(*) as matches from site_search where ${sql.join(
          others.map(
            (l) => sql`(lang = ${l} and search_vector @@ to_tsquery(${pgConfig(l)}::regconfig, ${tsquery}))`,
          ),
          sql` or `,
        )} group by lang`);
      const num = <T extends { matches: number }>(rows: T[]) =>
        rows.map((r) => ({ ...r, matches: Number(r.matches) }));
      return { kind: num(kind), elsewhere: num(elsewhere) };
    },
    ranked: (titleOnly) => {
      const vector = sql.raw(titleOnly ? 's.title_vector' : 's.search_vector');
      return run(sql<Found>`
        select doc_id, kind, ref, lang, url, title, body from (
          select ${FOUND_COLUMNS},
            row_number() over (partition by s.kind order by ts_rank(${vector}, q.query) desc, s.doc_id) as place
          from site_search s, (select ${query} as query) q
          where s.lang = ${lang} and ${vector} @@ q.query
        ) ranked where place <= ${perKind} order by kind, place`);
    },
    newest: (kind, except, limit) =>
      run(sql<Found>`
        select ${FOUND_COLUMNS} from site_search s
        where s.lang = ${lang} and s.kind = ${kind} and s.search_vector @@ ${query}
          and s.doc_id not in (${sql.join(except.length ? except : [0])})
        order by s.updated_at desc, s.doc_id desc limit ${limit}`),
  };
}
