import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * What an application's timeline is made of (services/application-timeline.ts puts it in order):
 * its notes, its audit rows (status changes, CV addresses given) and the mails about it. Table
 * access only, plain functions taking `db` (or a transaction) first.
 */

type Db = Kysely<Database>;

export async function insertNote(
  trx: Db,
  note: { application_id: number; author_id: number | null; author_email: string; text: string },
  now = new Date(),
): Promise<number> {
  const row = await trx
    .insertInto('application_note')
    .values({ ...note, created_at: now.toISOString() })
    .returning('note_id')
    .executeTakeFirstOrThrow();
  return row.note_id;
}

/** Notes on these applications, oldest first, with their author's name ('' for none chosen). */
export async function notesOf(db: Db, applicationIds: number[]) {
  if (applicationIds.length === 0) return [];
  return db
    .selectFrom('application_note as n')
    .leftJoin('admin_user as u', 'u.user_id', 'n.author_id')
    .select([
      'n.note_id',
      'n.application_id',
      'n.author_id',
      'n.author_email',
      'n.text',
      'n.created_at',
      'u.display_name',
      'u.email as current_email',
    ])
    .where('n.application_id', 'in', applicationIds)
    .orderBy('n.application_id')
    .orderBy('n.note_id')
    .execute();
}

/** The audit rows of one record (an application by default) with these actions, oldest first, with the actor's name. */
export async function auditOf(db: Db, recordId: number, actions: string[], entity = 'job_application') {
  return db
    .selectFrom('audit_log as a')
    .leftJoin('admin_user as u', 'u.user_id', 'a.actor_id')
    .select(['a.audit_id', 'a.at', 'a.action', 'a.actor_email', 'a.detail', 'u.display_name'])
    .where('a.entity', '=', entity)
    .where('a.entity_id', '=', String(recordId))
    .where('a.action', 'in', actions)
    .orderBy('a.at')
    .orderBy('a.audit_id')
    .execute();
}

/** The mails about one application (to its candidate), oldest first. */
export async function mailsAbout(db: Db, applicationId: number) {
  return db
    .selectFrom('mail_outbox')
    .select(['mail_id', 'kind', 'subject', 'to_address', 'status', 'created_at', 'sent_at'])
    .where('application_id', '=', applicationId)
    .orderBy('created_at')
    .orderBy('mail_id')
    .execute();
}

/** Deletes the notes and mails of these applications (inside their deletion's transaction). */
export async function removeTimelines(trx: Db, applicationIds: number[]): Promise<void> {
  if (applicationIds.length === 0) return;
  await trx.deleteFrom('application_note').where('application_id', 'in', applicationIds).execute();
  await trx.deleteFrom('mail_outbox').where('application_id', 'in', applicationIds).execute();
}
