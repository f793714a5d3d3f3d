import type { MigrationDb } from '../migrate';

/** Answers of public POSTs by their Idempotency-Key, so a retried submission is stored once. */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('idempotency_key')
    .addColumn('scope', 'varchar(60)', (col) => col.notNull())
    .addColumn('key', 'varchar(100)', (col) => col.notNull())
    .addColumn('status', 'integer')
    .addColumn('body', 'text')
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_key_pk', ['scope', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_key_created').on('idempotency_key').column('created_at').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('idempotency_key').execute();
}
