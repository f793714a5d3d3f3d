import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/** Job types: Full-time, Part-time, ... */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('job_type')
    .addColumn('job_type_id', postgres ? 'serial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('job_type_name', 'varchar(100)', (col) => col.notNull().unique())
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('job_type').execute();
}
