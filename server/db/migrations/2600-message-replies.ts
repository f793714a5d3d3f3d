import type { ColumnDefinitionBuilder } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Answering contact messages from the inbox (docs/decisions/026-application-timeline.md): who a message is assigned to
 * (`contact_message.assignee_id`, null for nobody or once that account is deleted), and the
 * replies sent to its writer (`message_reply`: the words staff wrote and the outbox mail that
 * carries them; deleted with the message).
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const pk = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey() : col.primaryKey().autoIncrement();
  await db.schema
    .alterTable('contact_message')
    .addColumn('assignee_id', 'integer', (col) => col.references('admin_user.user_id').onDelete('set null'))
    .execute();
  await db.schema
    .createTable('message_reply')
    .addColumn('reply_id', postgres ? 'serial' : 'integer', pk)
    .addColumn('message_id', 'integer', (col) =>
      col.notNull().references('contact_message.message_id').onDelete('cascade'),
    )
    .addColumn('author_id', 'integer', (col) => col.references('admin_user.user_id').onDelete('set null'))
    .addColumn('author_email', 'varchar(254)', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('mail_id', 'integer')
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('message_reply_by_message')
    .on('message_reply')
    .columns(['message_id', 'reply_id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('message_reply').execute();
  await db.schema.alterTable('contact_message').dropColumn('assignee_id').execute();
}
