import type { MigrationDb } from '../migrate';

/**
 * Leases of scheduled work: one row per task. A process runs a
 * task only after taking its lease (`holder`, `lease_until`), so with several processes sharing
 * the database one of them does it; `last_run_at` spaces the runs (the retention purge: daily).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('scheduled_task')
    .addColumn('name', 'varchar(60)', (col) => col.primaryKey())
    .addColumn('holder', 'varchar(120)')
    .addColumn('lease_until', 'varchar(30)', (col) => col.notNull().defaultTo(''))
    .addColumn('last_run_at', 'varchar(30)')
    .addColumn('last_result', 'varchar(500)')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('scheduled_task').execute();
}
