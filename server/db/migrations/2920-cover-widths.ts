import type { MigrationDb } from '../migrate';

/**
 * A cover's widths as files (docs/decisions/009-security-model.md, "Images"): for each width the
 * covers' `srcset` names (`/media/blog/<key>?w=`), the stored WebP file that answers it (several
 * widths of a small cover share one file). Made when the cover is uploaded, or by the one-time
 * repair of covers stored before (services/blog-images.ts `repairStoredCovers`); the server never
 * converts an image when it is asked for.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('cover_width')
    .addColumn('cover_key', 'varchar(100)', (col) => col.notNull())
    .addColumn('width', 'integer', (col) => col.notNull())
    .addColumn('file_key', 'varchar(100)', (col) => col.notNull())
    .addPrimaryKeyConstraint('cover_width_pk', ['cover_key', 'width'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('cover_width').execute();
}
