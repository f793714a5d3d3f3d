import { sql } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Full-text search of contact messages for the admin inbox: name, email, company and
 * the message.
 * - SQLite: an external-content FTS5 table over contact_message kept in step by triggers (the
 *   handled flag changing does not touch the index);
 * - PostgreSQL: a generated tsvector column with a GIN index (email punctuation as spaces).
 */
export async function up(db: MigrationDb): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`alter table contact_message add column search_vector tsvector generated always as (
      to_tsvector('simple'::regconfig,
        coalesce(name, '') || ' ' || translate(coalesce(email, ''), '@.-_+', '     ') || ' ' ||
        coalesce(company, '') || ' ' || coalesce(message, ''))
    ) stored`.execute(db);
    await sql`create index contact_message_search on contact_message using gin (search_vector)`.execute(db);
    return;
  }
  await sql`create virtual table contact_message_fts using fts5(
    name, email, company, message,
    content='contact_message', content_rowid='message_id', tokenize='unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`insert into contact_message_fts(contact_message_fts) values ('rebuild')`.execute(db);
  await sql`create trigger contact_message_fts_insert after insert on contact_message begin
    insert into contact_message_fts(rowid, name, email, company, message)
    values (new.message_id, new.name, new.email, new.company, new.message);
  end`.execute(db);
  await sql`create trigger contact_message_fts_delete after delete on contact_message begin
    insert into contact_message_fts(contact_message_fts, rowid, name, email, company, message)
    values ('delete', old.message_id, old.name, old.email, old.company, old.message);
  end`.execute(db);
  await sql`create trigger contact_message_fts_update after update of name, email, company, message
    on contact_message begin
    insert into contact_message_fts(contact_message_fts, rowid, name, email, company, message)
    values ('delete', old.message_id, old.name, old.email, old.company, old.message);
    insert into contact_message_fts(rowid, name, email, company, message)
    values (new.message_id, new.name, new.email, new.company, new.message);
  end`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop index if exists contact_message_search`.execute(db);
    await sql`alter table contact_message drop column if exists search_vector`.execute(db);
    return;
  }
  for (const t of ['contact_message_fts_insert', 'contact_message_fts_delete', 'contact_message_fts_update']) {
    await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
  }
  await sql`drop table if exists contact_message_fts`.execute(db);
}
