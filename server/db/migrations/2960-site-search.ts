import { sql } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * The site's one search (docs/decisions/039-site-search.md): a document per public page, published
 * post and open opening in each language it exists in, kept by services/site-search.ts.
 * - SQLite: two external-content FTS5 tables kept in step by triggers, English rows stemmed by
 *   Porter (the one stemmer SQLite has), the other languages' rows by words alone, a word's marks
 *   inside it (a Malayalam word stays whole).
 * - PostgreSQL: a tsvector the repository computes with the row's language (english, french,
 *   german, spanish; 'simple' for Malayalam), the title weighted A and the text B, in a GIN index,
 *   and the title's alone in another.
 */
/**
 * Words are letters, digits and marks: unicode61's default leaves marks out, and splits a
 * Malayalam word at each vowel sign and virama (പ്രസിദ്ധീകരണം became പ, ര, സ, ...).
 */
const WORDS = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'";

export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('site_search')
    .addColumn('doc_id', postgres ? 'serial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('kind', 'varchar(10)', (col) => col.notNull())
    .addColumn('ref', 'varchar(200)', (col) => col.notNull())
    .addColumn('lang', 'varchar(5)', (col) => col.notNull())
    .addColumn('url', 'varchar(2000)', (col) => col.notNull())
    .addColumn('title', 'varchar(500)', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(30)', (col) => col.notNull())
    // '<kind> <lang>' as words: SQLite counts and picks a kind's or a language's matches in the
    // full-text index itself, without reading each matching row
    .addColumn('facet', 'varchar(40)', (col) => col.notNull())
    .addUniqueConstraint('site_search_doc', ['kind', 'ref', 'lang'])
    .execute();

  if (postgres) {
    await sql`alter table site_search add column search_vector tsvector not null`.execute(db);
    await sql`create index site_search_vector on site_search using gin (search_vector)`.execute(db);
    // the title's words alone: a word most documents have is ranked among the titles that have it
    await sql`alter table site_search add column title_vector tsvector not null`.execute(db);
    await sql`create index site_search_title on site_search using gin (title_vector)`.execute(db);
    return;
  }
  for (const [table, tokenize, when] of [
    ['site_search_en_fts', `porter ${WORDS}`, "= 'en'"],
    ['site_search_fts', WORDS, "<> 'en'"],
  ] as const) {
    const fts = sql.raw(table);
    await sql`create virtual table ${fts} using fts5(
      title, body, facet, content='site_search', content_rowid='doc_id', tokenize=${sql.lit(tokenize)}
    )`.execute(db);
    const ins = sql.raw(`${table}_insert`);
    const del = sql.raw(`${table}_delete`);
    const upd = sql.raw(`${table}_update`);
    await sql`create trigger ${ins} after insert on site_search when new.lang ${sql.raw(when)} begin
      insert into ${fts}(rowid, title, body, facet) values (new.doc_id, new.title, new.body, new.facet);
    end`.execute(db);
    await sql`create trigger ${del} after delete on site_search when old.lang ${sql.raw(when)} begin
      insert into ${fts}(${fts}, rowid, title, body, facet) values ('delete', old.doc_id, old.title, old.body, old.facet);
    end`.execute(db);
    // the repository never changes a row's language: a document is (kind, ref, lang)
    await sql`create trigger ${upd} after update of title, body on site_search when new.lang ${sql.raw(when)} begin
      insert into ${fts}(${fts}, rowid, title, body, facet) values ('delete', old.doc_id, old.title, old.body, old.facet);
      insert into ${fts}(rowid, title, body, facet) values (new.doc_id, new.title, new.body, new.facet);
    end`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await sql`drop table if exists site_search_en_fts`.execute(db);
    await sql`drop table if exists site_search_fts`.execute(db);
  }
  await db.schema.dropTable('site_search').ifExists().execute();
}
