import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Messages of the public contact form (the form really sends). `handled` is
 * 0/1 for the admin's list (a later issue); `idempotency_key` is unique, so one submission can
 * never make two rows even if the idempotency bookkeeping fails half-way.
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('contact_message')
    .addColumn('message_id', postgres ? 'serial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('name', 'varchar(200)', (col) => col.notNull())
    .addColumn('email', 'varchar(254)', (col) => col.notNull())
    .addColumn('company', 'varchar(200)', (col) => col.notNull().defaultTo(''))
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('lang', 'varchar(10)', (col) => col.notNull().defaultTo('en'))
    .addColumn('handled', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('idempotency_key', 'varchar(100)', (col) => col.unique())
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('contact_message_created')
    .on('contact_message')
    .columns(['created_at', 'message_id'])
    .execute();
  await db.schema
    .createIndex('contact_message_handled_created')
    .on('contact_message')
    .columns(['handled', 'created_at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('contact_message').execute();
}
