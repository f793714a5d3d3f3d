import { sql } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Full-text search of job applications for the admin list: name, email, contact number
 * and the title of the job applied for. The title lives on job_opening, so the index keeps a copy
 * that triggers refresh when an opening is renamed or deleted.
 * - SQLite: an FTS5 table with its own copy of the four texts (not external content: the title
 *   is not a column of job_application, and a regular FTS5 table can drop a row by rowid alone);
 *   triggers on both tables keep it in step.
 * - PostgreSQL: a tsvector column set by a BEFORE trigger, with a GIN index; renaming an opening
 *   touches its applications so the trigger runs again.
 * Emails are indexed with their punctuation as spaces ('asha.menon@example.com' -> asha menon
 * example com) on both databases, so any part of an address finds it. Also an index for the
 * status filter, ending with the list's sort keys.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('job_application_status_created')
    .on('job_application')
    .columns(['status', 'created_at', 'application_id'])
    .execute();

  if (dialectOf(db) === 'postgres') {
    await sql`alter table job_application add column search_vector tsvector`.execute(db);
    await sql`create function job_application_search_vector() returns trigger language plpgsql as $$
      begin
        new.search_vector := to_tsvector('simple'::regconfig,
          coalesce(new.full_name, '') || ' ' ||
          regexp_replace(coalesce(new.email, ''), '[^[:alnum:]]+', ' ', 'g') || ' ' ||
          coalesce(new.contact_number, '') || ' ' ||
          coalesce((select job_title from job_opening where job_id = new.job_id), ''));
        return new;
      end $$`.execute(db);
    await sql`create trigger job_application_search before insert or update of full_name, email, contact_number, job_id
      on job_application for each row execute function job_application_search_vector()`.execute(db);
    await sql`create function job_application_search_retitle() returns trigger language plpgsql as $$
      begin
        update job_application set job_id = job_id where job_id = new.job_id;
        return null;
      end $$`.execute(db);
    await sql`create trigger job_opening_retitle_applications after update of job_title on job_opening
      for each row when (old.job_title is distinct from new.job_title)
      execute function job_application_search_retitle()`.execute(db);
    await sql`update job_application set job_id = job_id`.execute(db);
    await sql`create index job_application_search on job_application using gin (search_vector)`.execute(db);
    return;
  }

  // SQLite: punctuation splits words already (unicode61), so emails need no rewriting.
  await sql`create virtual table job_application_fts using fts5(
    full_name, email, contact_number, job_title, tokenize='unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`insert into job_application_fts(rowid, full_name, email, contact_number, job_title)
    select a.application_id, a.full_name, a.email, a.contact_number, coalesce(o.job_title, '')
    from job_application a left join job_opening o on o.job_id = a.job_id`.execute(db);
  await sql`create trigger job_application_fts_insert after insert on job_application begin
    insert into job_application_fts(rowid, full_name, email, contact_number, job_title)
    values (new.application_id, new.full_name, new.email, new.contact_number,
      coalesce((select job_title from job_opening where job_id = new.job_id), ''));
  end`.execute(db);
  await sql`create trigger job_application_fts_delete after delete on job_application begin
    delete from job_application_fts where rowid = old.application_id;
  end`.execute(db);
  await sql`create trigger job_application_fts_update after update of full_name, email, contact_number, job_id
    on job_application begin
    update job_application_fts set full_name = new.full_name, email = new.email,
      contact_number = new.contact_number,
      job_title = coalesce((select job_title from job_opening where job_id = new.job_id), '')
    where rowid = new.application_id;
  end`.execute(db);
  await sql`create trigger job_opening_fts_retitle after update of job_title on job_opening
    when old.job_title is not new.job_title begin
    update job_application_fts set job_title = new.job_title
    where rowid in (select application_id from job_application where job_id = new.job_id);
  end`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger if exists job_opening_retitle_applications on job_opening`.execute(db);
    await sql`drop trigger if exists job_application_search on job_application`.execute(db);
    await sql`drop function if exists job_application_search_retitle()`.execute(db);
    await sql`drop function if exists job_application_search_vector()`.execute(db);
    await sql`alter table job_application drop column if exists search_vector`.execute(db);
  } else {
    for (const t of ['job_application_fts_insert', 'job_application_fts_delete', 'job_application_fts_update', 'job_opening_fts_retitle']) {
      await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
    }
    await sql`drop table if exists job_application_fts`.execute(db);
  }
  await db.schema.dropIndex('job_application_status_created').ifExists().execute();
}
