import type { MigrationDb } from '../migrate';

/**
 * A user's access (role, disabled) and a role (name, permissions) carry a version, for the
 * conflict check of docs/decisions/022-versions-and-conflicts.md: two managers changing the same
 * person or role at once cannot overwrite each other unseen.
 */
const TABLES = ['admin_user', 'admin_role'] as const;

export async function up(db: MigrationDb): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
      .execute();
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn('version').execute();
}
