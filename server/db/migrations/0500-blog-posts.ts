import { sql } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Blog posts with a full-text index over title, excerpt and the plain text of
 * the content (`search_text`, kept by blog.repo.ts):
 * - SQLite: an external-content FTS5 table kept in step by triggers;
 * - PostgreSQL: a generated tsvector column with a GIN index.
 * Both tokenise language-neutrally ('simple' / unicode61), since posts may be written in any
 * language. `publication_date` is the spec's text ('August 6, 2025'); `publication_day`
 * ('2025-08-06') is the same day as a sortable value. The list indexes end with the sort keys, so
 * the first page of a list is read from the index (newest day first, then newest id) whatever
 * the number of posts.
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('blog_post')
    .addColumn('blog_id', postgres ? 'serial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('company_id', 'integer', (col) => col.notNull())
    .addColumn('title', 'varchar(200)', (col) => col.notNull())
    .addColumn('slug', 'varchar(400)', (col) => col.notNull().unique())
    .addColumn('excerpt', 'varchar(400)', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('search_text', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('publication_date', 'varchar(40)', (col) => col.notNull())
    .addColumn('publication_day', 'varchar(10)', (col) => col.notNull())
    .addColumn('read_time', 'varchar(30)', (col) => col.notNull())
    .addColumn('featured_image_url', 'varchar(2048)', (col) => col.notNull())
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  // public list: published posts of a company, newest first
  await db.schema
    .createIndex('blog_post_status_day')
    .on('blog_post')
    .columns(['company_id', 'status', 'publication_day', 'blog_id'])
    .execute();
  // admin list: every post of a company, newest first
  await db.schema
    .createIndex('blog_post_company_day')
    .on('blog_post')
    .columns(['company_id', 'publication_day', 'blog_id'])
    .execute();

  if (postgres) {
    await sql`alter table blog_post add column search_vector tsvector generated always as (
      to_tsvector('simple'::regconfig,
        coalesce(title, '') || ' ' || coalesce(excerpt, '') || ' ' || coalesce(search_text, ''))
    ) stored`.execute(db);
    await sql`create index blog_post_search on blog_post using gin (search_vector)`.execute(db);
    return;
  }
  await sql`create virtual table blog_post_fts using fts5(
    title, excerpt, search_text,
    content='blog_post', content_rowid='blog_id', tokenize='unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger blog_post_fts_insert after insert on blog_post begin
    insert into blog_post_fts(rowid, title, excerpt, search_text)
    values (new.blog_id, new.title, new.excerpt, new.search_text);
  end`.execute(db);
  await sql`create trigger blog_post_fts_delete after delete on blog_post begin
    insert into blog_post_fts(blog_post_fts, rowid, title, excerpt, search_text)
    values ('delete', old.blog_id, old.title, old.excerpt, old.search_text);
  end`.execute(db);
  await sql`create trigger blog_post_fts_update after update of title, excerpt, search_text on blog_post begin
    insert into blog_post_fts(blog_post_fts, rowid, title, excerpt, search_text)
    values ('delete', old.blog_id, old.title, old.excerpt, old.search_text);
    insert into blog_post_fts(rowid, title, excerpt, search_text)
    values (new.blog_id, new.title, new.excerpt, new.search_text);
  end`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await sql`drop table if exists blog_post_fts`.execute(db);
  }
  await db.schema.dropTable('blog_post').execute();
}
