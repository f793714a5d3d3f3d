import type { ColumnDefinitionBuilder } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Email (server/mail): the outbox every mail goes through, written in the transaction of what
 * causes it (a message, an application, a reset); the single-use password links (reset and
 * invitation), kept as the SHA-256 of their token; and each back-office user's choice of notices
 * (null: the default for their permissions).
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const id = postgres ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey() : col.primaryKey().autoIncrement();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('mail_id', id, pk)
    .addColumn('message_id', 'varchar(200)', (col) => col.notNull().unique())
    .addColumn('kind', 'varchar(40)', (col) => col.notNull())
    .addColumn('lang', 'varchar(5)', (col) => col.notNull())
    .addColumn('to_address', 'varchar(254)', (col) => col.notNull())
    .addColumn('subject', 'varchar(300)', (col) => col.notNull())
    .addColumn('text_body', 'text', (col) => col.notNull())
    .addColumn('html_body', 'text', (col) => col.notNull())
    .addColumn('status', 'varchar(10)', (col) => col.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('holder', 'varchar(120)')
    .addColumn('lease_until', 'varchar(30)', (col) => col.notNull().defaultTo(''))
    .addColumn('last_error', 'varchar(500)')
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('sent_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('mail_outbox_created').on('mail_outbox').columns(['created_at']).execute();

  await db.schema
    .createTable('password_token')
    .addColumn('token_hash', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) =>
      col.notNull().references('admin_user.user_id').onDelete('cascade'),
    )
    .addColumn('purpose', 'varchar(10)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('password_token_user').on('password_token').column('user_id').execute();

  await db.schema.alterTable('admin_user').addColumn('notify_applications', 'varchar(10)').execute();
  await db.schema.alterTable('admin_user').addColumn('notify_messages', 'varchar(10)').execute();
  await db.schema.alterTable('admin_user').addColumn('notify_lang', 'varchar(5)').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('admin_user').dropColumn('notify_lang').execute();
  await db.schema.alterTable('admin_user').dropColumn('notify_messages').execute();
  await db.schema.alterTable('admin_user').dropColumn('notify_applications').execute();
  await db.schema.dropTable('password_token').execute();
  await db.schema.dropTable('mail_outbox').execute();
}
