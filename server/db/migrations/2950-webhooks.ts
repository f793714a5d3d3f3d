import type { ColumnDefinitionBuilder } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Webhooks (docs/decisions/037-webhooks.md): the endpoints staff add (an address, the events it
 * wants, its signing secret sealed with SECRET), one delivery per event and endpoint (a durable
 * queue like the mail outbox: leased, tried again with a growing wait), and each attempt.
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const id = postgres ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey() : col.primaryKey().autoIncrement();

  await db.schema
    .createTable('webhook_endpoint')
    .addColumn('endpoint_id', id, pk)
    .addColumn('url', 'varchar(2000)', (col) => col.notNull())
    .addColumn('description', 'varchar(200)', (col) => col.notNull().defaultTo(''))
    .addColumn('events', 'varchar(500)', (col) => col.notNull())
    .addColumn('secret', 'varchar(300)', (col) => col.notNull())
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('webhook_delivery')
    .addColumn('delivery_id', id, pk)
    .addColumn('endpoint_id', 'integer', (col) =>
      col.notNull().references('webhook_endpoint.endpoint_id').onDelete('cascade'),
    )
    .addColumn('msg_id', 'varchar(60)', (col) => col.notNull().unique())
    .addColumn('event_type', 'varchar(60)', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'varchar(10)', (col) => col.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('holder', 'varchar(120)')
    .addColumn('lease_until', 'varchar(30)', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_delivery_due')
    .on('webhook_delivery')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_delivery_endpoint')
    .on('webhook_delivery')
    .columns(['endpoint_id', 'delivery_id'])
    .execute();

  await db.schema
    .createTable('webhook_attempt')
    .addColumn('attempt_id', id, pk)
    .addColumn('delivery_id', 'integer', (col) =>
      col.notNull().references('webhook_delivery.delivery_id').onDelete('cascade'),
    )
    .addColumn('at', 'varchar(30)', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'varchar(500)')
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempt_delivery').on('webhook_attempt').column('delivery_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('webhook_attempt').execute();
  await db.schema.dropTable('webhook_delivery').execute();
  await db.schema.dropTable('webhook_endpoint').execute();
}
