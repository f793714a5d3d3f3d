import { sql } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Job openings with a full-text index over title, department, location and the
 * plain text of the rich-text fields (`search_text`, kept by jobs.repo.ts):
 * - SQLite: an external-content FTS5 table kept in step by triggers;
 * - PostgreSQL: a generated tsvector column with a GIN index.
 * Both use language-neutral tokenising ('simple' / unicode61), since openings may be written in
 * any language; the search is a prefix match of every word.
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('job_opening')
    .addColumn('job_id', postgres ? 'serial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('job_title', 'varchar(200)', (col) => col.notNull())
    .addColumn('department', 'varchar(200)', (col) => col.notNull())
    .addColumn('location', 'varchar(200)', (col) => col.notNull())
    .addColumn('job_type_id', 'integer', (col) => col.notNull().references('job_type.job_type_id'))
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('requirement', 'text', (col) => col.notNull())
    .addColumn('about_role', 'text', (col) => col.notNull())
    .addColumn('responsibility', 'text', (col) => col.notNull())
    .addColumn('search_text', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('job_opening_created')
    .on('job_opening')
    .columns(['created_at', 'job_id'])
    .execute();
  await db.schema.createIndex('job_opening_type').on('job_opening').column('job_type_id').execute();

  if (postgres) {
    await sql`alter table job_opening add column search_vector tsvector generated always as (
      to_tsvector('simple'::regconfig,
        coalesce(job_title, '') || ' ' || coalesce(department, '') || ' ' ||
        coalesce(location, '') || ' ' || coalesce(search_text, ''))
    ) stored`.execute(db);
    await sql`create index job_opening_search on job_opening using gin (search_vector)`.execute(db);
    return;
  }
  await sql`create virtual table job_opening_fts using fts5(
    job_title, department, location, search_text,
    content='job_opening', content_rowid='job_id', tokenize='unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger job_opening_fts_insert after insert on job_opening begin
    insert into job_opening_fts(rowid, job_title, department, location, search_text)
    values (new.job_id, new.job_title, new.department, new.location, new.search_text);
  end`.execute(db);
  await sql`create trigger job_opening_fts_delete after delete on job_opening begin
    insert into job_opening_fts(job_opening_fts, rowid, job_title, department, location, search_text)
    values ('delete', old.job_id, old.job_title, old.department, old.location, old.search_text);
  end`.execute(db);
  await sql`create trigger job_opening_fts_update after update on job_opening begin
    insert into job_opening_fts(job_opening_fts, rowid, job_title, department, location, search_text)
    values ('delete', old.job_id, old.job_title, old.department, old.location, old.search_text);
    insert into job_opening_fts(rowid, job_title, department, location, search_text)
    values (new.job_id, new.job_title, new.department, new.location, new.search_text);
  end`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await sql`drop table if exists job_opening_fts`.execute(db);
  }
  await db.schema.dropTable('job_opening').execute();
}
