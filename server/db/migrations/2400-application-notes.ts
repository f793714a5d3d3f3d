import type { ColumnDefinitionBuilder } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * An application's timeline (docs/decisions/026-application-timeline.md): staff's notes on it (`application_note`, plain text,
 * deleted with the application), and which application a mail was about
 * (`mail_outbox.application_id`: the candidate's acknowledgment and, later, the mails staff write
 * to them), so the timeline shows each mail with its delivery state and deleting the application
 * deletes its mails.
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const pk = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey() : col.primaryKey().autoIncrement();
  await db.schema
    .createTable('application_note')
    .addColumn('note_id', postgres ? 'serial' : 'integer', pk)
    .addColumn('application_id', 'integer', (col) =>
      col.notNull().references('job_application.application_id').onDelete('cascade'),
    )
    .addColumn('author_id', 'integer', (col) => col.references('admin_user.user_id').onDelete('set null'))
    .addColumn('author_email', 'varchar(254)', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('application_note_by_application')
    .on('application_note')
    .columns(['application_id', 'note_id'])
    .execute();
  await db.schema.alterTable('mail_outbox').addColumn('application_id', 'integer').execute();
  await db.schema
    .createIndex('mail_outbox_by_application')
    .on('mail_outbox')
    .columns(['application_id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('mail_outbox_by_application').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('application_id').execute();
  await db.schema.dropTable('application_note').execute();
}
