import type { MigrationDb } from '../migrate';

/**
 * A job opening is Draft, Open or Closed (docs/decisions/022-versions-and-conflicts.md): only Open ones are public. Every opening
 * there was is Open (they were all on /careers). Closing keeps the opening and its applications;
 * an opening with applications is closed, not deleted.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('job_opening')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('Open'))
    .execute();
  await db.schema
    .createIndex('job_opening_status_created')
    .on('job_opening')
    .columns(['status', 'created_at', 'job_id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('job_opening_status_created').execute();
  await db.schema.alterTable('job_opening').dropColumn('status').execute();
}
