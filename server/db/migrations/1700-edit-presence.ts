import type { MigrationDb } from '../migrate';

/**
 * Who else is editing (docs/decisions/022-versions-and-conflicts.md): each open editor of a blog post or job opening says so every 20
 * seconds; a row not renewed for a minute is gone. No lock: it only tells colleagues.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('edit_presence')
    .addColumn('entity', 'varchar(60)', (col) => col.notNull())
    .addColumn('entity_id', 'integer', (col) => col.notNull())
    .addColumn('editor_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('email', 'varchar(254)', (col) => col.notNull())
    .addColumn('since', 'varchar(30)', (col) => col.notNull())
    .addColumn('seen_at', 'varchar(30)', (col) => col.notNull())
    .addPrimaryKeyConstraint('edit_presence_pk', ['entity', 'entity_id', 'editor_id'])
    .execute();
  await db.schema.createIndex('edit_presence_seen').on('edit_presence').column('seen_at').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('edit_presence').execute();
}
