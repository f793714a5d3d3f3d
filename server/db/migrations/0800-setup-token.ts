import type { MigrationDb } from '../migrate';

/**
 * The first-run setup address (`/admin/setup?token=...`): a start with no users prints one; only
 * the SHA-256 of its token is kept, with when it stops working (24 hours). Used once, then gone.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('setup_token')
    .addColumn('token_hash', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('expires_at', 'varchar(30)', (col) => col.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('setup_token').execute();
}
