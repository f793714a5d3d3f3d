import type { ColumnDefinitionBuilder } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Revisions of the records staff write (blog posts, job openings; docs/decisions/022-versions-and-conflicts.md): every save keeps the
 * record's fields as they were after it, who saved and when, and which fields it changed. The
 * newest REVISION_KEEP of each record are kept (services/revisions.ts prunes the rest).
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const pk = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey() : col.primaryKey().autoIncrement();
  await db.schema
    .createTable('record_revision')
    .addColumn('revision_id', postgres ? 'serial' : 'integer', pk)
    .addColumn('entity', 'varchar(60)', (col) => col.notNull())
    .addColumn('entity_id', 'integer', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('fields', 'text', (col) => col.notNull())
    .addColumn('changed', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_email', 'varchar(254)')
    .addColumn('at', 'varchar(30)', (col) => col.notNull())
    .addColumn('restored_from', 'integer')
    .execute();
  await db.schema
    .createIndex('record_revision_record')
    .on('record_revision')
    .columns(['entity', 'entity_id', 'revision_id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('record_revision').execute();
}
