import type { MigrationDb } from '../migrate';

/**
 * A person's notice choices carry a version of their own (docs/decisions/022-versions-and-conflicts.md):
 * the same person in two tabs (or on a phone and a desktop) cannot overwrite one choice with a
 * stale screen unseen. Their own, so an owner's change of their role never conflicts with it.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('admin_user')
    .addColumn('notice_version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('admin_user').dropColumn('notice_version').execute();
}
