import type { MigrationDb } from '../migrate';

/**
 * Job openings carry a version (1 when created, one more at each change) for the conflict check of
 * docs/decisions/022-versions-and-conflicts.md; the audit log is found by record, newest first, to
 * say who changed a record last.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('job_opening')
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('audit_log_record')
    .on('audit_log')
    .columns(['entity', 'entity_id', 'at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('audit_log_record').execute();
  await db.schema.alterTable('job_opening').dropColumn('version').execute();
}
