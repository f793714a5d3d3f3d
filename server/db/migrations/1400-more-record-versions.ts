import type { MigrationDb } from '../migrate';

/**
 * Blog posts, an application's status and a message's handled flag carry a version too (1 when
 * created, one more at each change), for the conflict check of
 * docs/decisions/022-versions-and-conflicts.md.
 */
const TABLES = ['blog_post', 'job_application', 'contact_message'] as const;

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
