import type { MigrationDb } from '../migrate';

/**
 * Files kept in the storage (server/storage): generated key, the content type the content check
 * decided, size, and the uploaded name (for staff; never a path).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('stored_file')
    .addColumn('file_key', 'varchar(200)', (col) => col.primaryKey())
    .addColumn('kind', 'varchar(20)', (col) => col.notNull())
    .addColumn('content_type', 'varchar(120)', (col) => col.notNull())
    .addColumn('byte_size', 'integer', (col) => col.notNull())
    .addColumn('original_name', 'varchar(255)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('stored_file_kind_created')
    .on('stored_file')
    .columns(['kind', 'created_at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('stored_file').execute();
}
